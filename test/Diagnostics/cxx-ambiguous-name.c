// An overloaded C++ name is an error in the plugin too, with a caret on the
// name in the SEC string and one note per candidate; the quoted parameter
// list picks one, and the same text resolves in bpfprobe-resolve.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -x c++ -std=c++17 -fno-exceptions -g -O2 %inputs/cxx/shop.cpp -o shop -lstdc++
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+3 {{'shop::Cart::add' is ambiguous: it names 2 functions in ./shop; choose one by its parameter types in quotes, such as 'shop::Cart::add(int)'}}
// expected-note@+2 {{candidate: 'shop::Cart::add(int)' at 0x}}
// expected-note@+1 {{candidate: 'shop::Cart::add(shop::Item const&, int)' at 0x}}
SEC("uprobe/./shop:shop::Cart::add(id)")
int ambiguous(struct pt_regs *ctx, int id) { return 0; }

SEC("uprobe/./shop:'shop::Cart::add(int)'(id, count)")
int chosen(struct pt_regs *ctx, int id, int count) { return 0; }

// expected-error@+2 {{no function 'shop::Cart::add(long)' in ./shop: no overload of 'shop::Cart::add' has these parameter types}}
// expected-note@+1 2 {{candidate: 'shop::Cart::add(}}
SEC("uprobe/./shop:'shop::Cart::add(long)'(id)")
int no_overload(struct pt_regs *ctx, int id) { return 0; }
