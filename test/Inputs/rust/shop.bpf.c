/* A Rust path (test/Inputs/rust/shop.rs): `shop::cart::add` on its legacy
 * mangled symbol, members behind a `&mut`, a String as :string (a
 * pointer and a length, not NUL-terminated). BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./shop"
#endif

BPF_PROBE_RECORD_NAMED(on_add, "uprobe/" BIN ":shop::cart::add(n, cart->total, cart->count, cart->owner:string)");

char LICENSE[] SEC("license") = "GPL";
