/* Strings with their lengths and sizes (test/Inputs/cxx/strings.cpp): a
 * std::string as :string (its bytes up to the record's bound, and its whole
 * length beside them), and size() of the string, of a std::string_view and
 * of two std::vectors. BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./strings"
#endif

BPF_PROBE_RECORD_NAMED(on_measure, "uprobe/" BIN ":text::measure(s:string, s.size(), v.size(), nums.size(), bytes.size())");

char LICENSE[] SEC("license") = "GPL";
