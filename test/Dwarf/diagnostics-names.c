// Diagnostics of name resolution: types spelled as C declares them, one
// message for aggregates whatever their size, ':string' only on bytes, a
// member of something that is not a struct, a line its function has no code
// at, a file its function has no code from.
// REQUIRES: gcc
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -g -O2 %inputs/names/diag.c -o diag
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// expected-error@+1 {{':string' needs a pointer to char or a char array; 'ip' is a 'const int *'}}
BPF_PROBE_RECORD_NAMED(str_int, "uprobe/./diag:f(ip:string)");
// expected-error@+1 {{':string' needs a pointer to char or a char array; 'pa' is a 'const unsigned char (*)[4]'}}
BPF_PROBE_RECORD_NAMED(str_arrptr, "uprobe/./diag:f(pa:string)");
BPF_PROBE_RECORD_NAMED(str_ok, "uprobe/./diag:f(cp:string, *pa:string)");

// expected-error@+1 {{'s' is a 'struct small', not a scalar: fetch one of its members or elements, or leave out ':u64' to copy it whole}}
BPF_PROBE_RECORD_NAMED(agg8, "uprobe/./diag:f(s:u64)");
// expected-error@+1 {{'b' is a 'struct big', not a scalar: fetch one of its members or elements, or leave out ':u64' to copy it whole}}
BPF_PROBE_RECORD_NAMED(agg48, "uprobe/./diag:f(b:u64)");

// expected-error@+1 {{'bp->a' has type 'long int[6]', not a struct or union}}
BPF_PROBE_RECORD_NAMED(not_record, "uprobe/./diag:f(bp->a.x)");

// expected-error@+1 {{'f' has no code at line 30 of diag.c; nearest lines with code: 12}}
BPF_PROBE_RECORD_NAMED(no_line, "uprobe/./diag:f@diag.c:30(n)");
// expected-error@+1 {{'f' has no code from nosuch.c (no unit of its code names that file)}}
BPF_PROBE_RECORD_NAMED(no_file, "uprobe/./diag:f@nosuch.c:3(n)");

char LICENSE[] SEC("license") = "GPL";
