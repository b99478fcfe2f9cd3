// Calling-convention mode on mangled C++ symbols (no debug info needed):
// the C types are checked against the demangled parameters by the Itanium
// C++ ABI: `this` first, references as pointers, a class by value refused
// with the reason, an enum by value taken as an integer.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct Item { int id; long weight; };
enum Mode { Idle = 1, Busy = 7 };

// shop::Cart::add(shop::Item const&, int): this, a reference, an int.
SEC("uprobe/./shop:_ZN4shop4Cart3addERKNS_4ItemEi(void *, const struct Item *, int)")
int ok_method(struct pt_regs *ctx, void *self, const struct Item *it, int qty) { return 0; }

// expected-error@+1 {{parameter 1 of 'shop::Cart::add(shop::Item const&, int)' is the reference 'shop::Item const&', passed as a pointer; write a pointer type}}
SEC("uprobe/./shop:_ZN4shop4Cart3addERKNS_4ItemEi(void *, long, int)")
int ref_not_pointer(struct pt_regs *ctx, void *self, long it, int qty) { return 0; }

// expected-error@+1 {{the first argument of the method 'shop::Cart::add(shop::Item const&, int)' is `this`, a pointer; 'long' is not a pointer type}}
SEC("uprobe/./shop:_ZN4shop4Cart3addERKNS_4ItemEi(long, void *, int)")
int this_not_pointer(struct pt_regs *ctx, long self, void *it, int qty) { return 0; }

// expected-error@+1 {{'shop::Cart::add(shop::Item const&, int)' takes 2 parameters (and `this` first if it is a non-static method); the list has 1}}
SEC("uprobe/./shop:_ZN4shop4Cart3addERKNS_4ItemEi(int)")
int wrong_count(struct pt_regs *ctx, int qty) { return 0; }

// shop::weigh(shop::Item, shop::Mode)
// expected-error@+1 {{parameter 1 of 'shop::weigh(shop::Item, shop::Mode)' is 'shop::Item' by value: the Itanium C++ ABI passes a class that is not trivially copyable by invisible reference (a pointer to a temporary), which only debug info (DW_AT_calling_convention) tells; give the debug info, or write 'enum NAME' if it is an enumeration}}
SEC("uprobe/./shop:_ZN4shop5weighENS_4ItemENS_4ModeE(struct Item, enum Mode)")
int class_by_value(struct pt_regs *ctx, const struct Item *it, enum Mode m) { return 0; }

// An enumeration is written 'enum NAME' (the first here is the author's
// word for it); a scalar type for a non-builtin type is refused.
// expected-error@+1 {{parameter 2 of 'shop::weigh(shop::Item, shop::Mode)' is 'shop::Mode' by value}}
SEC("uprobe/./shop:_ZN4shop5weighENS_4ItemENS_4ModeE(enum Mode, int)")
int enum_as_int(struct pt_regs *ctx, enum Mode it, int m) { return 0; }
