/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * Probes with a default body: no code to write. Each BPF_PROBE_RECORD
 * becomes a program whose body the plugin writes: it fetches the listed
 * arguments and sends them, with the time, pid, tid, thread name and CPU,
 * to the `bpfprobe_records` ring buffer; bpfprobe-run prints every record
 * of the command's processes with the argument names and types from the
 * object's `.bpfprobe` metadata:
 *
 *   $ sudo bpfprobe-run greeter_probes.bpf.o -- ./greeter ada grace
 *      0.000912 greeter 4242/4242 [001] greet arg1="ada" arg2=1
 *      0.000930 greeter 4242/4242 [001] greet arg1=3
 *      0.000934 greeter 4242/4242 [001] greet arg1="grace" arg2=2
 *      0.000940 greeter 4242/4242 [001] greet arg1=10
 *
 * The binary path "./greeter" is resolved when the probes are attached,
 * relative to the current directory (as libbpf does): run bpfprobe-run from
 * the directory that holds greeter.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

char LICENSE[] SEC("license") = "GPL";

/* Entry: the first argument as a NUL-terminated string read from the
 * process, the second as a signed 32-bit integer. */
BPF_PROBE_RECORD_NAMED(on_greet, "uprobe/./greeter:greet($arg1:ustring, $arg2:s32)");

/* Return: the value greet() returns. */
BPF_PROBE_RECORD_NAMED(on_greet_ret, "uretprobe/./greeter:greet($retval:s32)");
