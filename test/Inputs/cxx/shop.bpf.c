/* C++ places by their source names (test/Inputs/cxx/shop.cpp): an
 * overload chosen by its parameter types, a const method by its qualified
 * name, a template instance; `this->member`, reference members, bare
 * member names inside a method (`count` is `this->count`), members of
 * base classes (`tag`, `base_id`), an enum class member and a static
 * member (`carts`, `shop::Cart::carts`); std::string as :string (a
 * reference and a member, short and heap-allocated), std::unique_ptr and
 * std::shared_ptr `->`, std::vector `[i]`, a std::string_view as :string
 * (its pointer and length); a function that exists only
 * inlined, by its qualified DWARF scope.
 * BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./shop"
#endif

BPF_PROBE_RECORD_NAMED(on_add_item, "uprobe/" BIN ":'shop::Cart::add(const shop::Item &, int)'(it.id, it.weight, qty, this->total, this->count)");
BPF_PROBE_RECORD_NAMED(on_add_id, "uprobe/" BIN ":'shop::Cart::add(int)'(id, count, total, tag, base_id, mode, carts, shop::Cart::carts)");
BPF_PROBE_RECORD_NAMED(on_scaled, "uprobe/" BIN ":shop::Cart::scaled(factor, this->total, this->count, this->owner:string)");
BPF_PROBE_RECORD_NAMED(on_twice, "uprobe/" BIN ":shop::twice<long>(v)");

BPF_PROBE_RECORD_NAMED(on_label, "uprobe/" BIN ":shop::Cart::label(name:string, best->id, shared->weight, ids[0], ids[1], view:string)");

BPF_PROBE_RECORD_NAMED(on_scale, "uprobe/" BIN ":shop::scale(v, k)");

char LICENSE[] SEC("license") = "GPL";
