// Names and lines need DWARF; when it cannot be found the error says where
// it looked and what to do.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -O2 %inputs/dwarf/srv.c -o %t/nodebug
// RUN: not %clang_bpf -fsyntax-only -DBIN='"%t/nosuch"' %s 2>&1 | FileCheck %s --check-prefix=NOBIN
// RUN: not %clang_bpf -fsyntax-only -DBIN='"%t/nodebug"' %s 2>&1 | FileCheck %s --check-prefix=NODEBUG
// RUN: not %clang_bpf -fsyntax-only -DBIN='"%t/nodebug"' -fplugin-arg-bpfprobe-debuginfo=%t/missing.debug %s 2>&1 | FileCheck %s --check-prefix=EXPLICIT

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_handle, "uprobe/" BIN ":handle(req->hdr.len, c->fd)");
// The caret is on the binary path, the part that could not be used.
// NOBIN: debuginfo-not-found.c:[[@LINE-2]]:{{[0-9]+}}: error: cannot open the probed binary '{{.*}}/nosuch': not found
// NODEBUG: error: no debug info for {{.*}}/nodebug:
// NODEBUG-SAME: pass -fplugin-arg-bpfprobe-debuginfo=PATH or install the -dbgsym/-dbg package
// EXPLICIT: error: {{.*}}missing.debug{{.*}}not found

// A second probe on the same binary is not reported again.
BPF_PROBE_RECORD_NAMED(on_line, "uprobe/" BIN ":srv.c:16(bias)");
// NOBIN-NOT: error:
// NODEBUG-NOT: error:
// EXPLICIT-NOT: error:

char LICENSE[] SEC("license") = "GPL";
