// Resolution errors say what is wrong, where, and what would work: unknown
// names with suggestions and what is visible, members of the type,
// pointer/value confusion, bounds, instruction boundaries, optimized-out
// values with where they are available, lines without code.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -g -O2 %inputs/dwarf/srv.c -o %t/srv
// RUN: %clang_bpf -fsyntax-only -ferror-limit=0 -Xclang -verify -DBIN='"%t/srv"' %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// expected-error-re@+1 {{no function 'handl' in {{.*}}/srv; did you mean 'handle'?}}
BPF_PROBE_RECORD_NAMED(a1, "uprobe/" BIN ":handl(req->id)");
// expected-error@+1 {{no variable 'rq' at handle+0x0; did you mean 'req'? (visible here: c, req, sc, total; 1 global not listed: '@name' reads one)}}
BPF_PROBE_RECORD_NAMED(a2, "uprobe/" BIN ":handle(rq->id)");
// expected-error@+1 {{'struct req' has no member 'idd'; did you mean 'id'? (members: a, b, hdr, id, items, path)}}
BPF_PROBE_RECORD_NAMED(a3, "uprobe/" BIN ":handle(req->idd)");
// expected-error@+1 {{'req' is a pointer; use 'req->id'}}
BPF_PROBE_RECORD_NAMED(a4, "uprobe/" BIN ":handle(req.id)");
// expected-error@+1 {{'c->fd' has type 'int', not a pointer}}
BPF_PROBE_RECORD_NAMED(a5, "uprobe/" BIN ":handle(c->fd->x)");
// expected-error@+1 {{index 4 is out of bounds of 'req->items' (4 elements)}}
BPF_PROBE_RECORD_NAMED(a6, "uprobe/" BIN ":handle(req->items[4])");
// expected-error-re@+1 {{offset 0x3 is inside an instruction of 'handle'; the nearest instruction boundaries are +0x{{[0-9a-f]+}} and +0x{{[0-9a-f]+}}}}
BPF_PROBE_RECORD_NAMED(a7, "uprobe/" BIN ":handle+3(req->id)");
// expected-error-re@+1 {{'sc' is optimized out at handle+0x0; it is available at +0x{{[0-9a-f]+}}..+0x{{[0-9a-f]+}} of handle}}
BPF_PROBE_RECORD_NAMED(a8, "uprobe/" BIN ":handle(sc)");
// expected-error-re@+1 {{'i' is not in scope at handle+0x0; its block covers {{.*}} of handle}}
BPF_PROBE_RECORD_NAMED(a9, "uprobe/" BIN ":handle(i)");
// expected-error@+1 {{no global 'nosuch' at handle+0x0 (globals here: counter)}}
BPF_PROBE_RECORD_NAMED(a10, "uprobe/" BIN ":handle(@nosuch)");
// expected-error@+1 {{no code for srv.c:2; nearest lines with code: }}
BPF_PROBE_RECORD_NAMED(a11, "uprobe/" BIN ":srv.c:2(counter)");
// expected-error-re@+1 {{no source file 'nosuch.c' in the debug info of {{.*}}/srv}}
BPF_PROBE_RECORD_NAMED(a12, "uprobe/" BIN ":nosuch.c:2(counter)");
// expected-error@+1 {{cannot dereference 'c->fd': it has type 'int', not a pointer}}
BPF_PROBE_RECORD_NAMED(a13, "uprobe/" BIN ":handle(*c->fd)");
// expected-error@+1 {{'struct conn' has no member 'hdr' (members: cur, fd)}}
BPF_PROBE_RECORD_NAMED(a14, "uprobe/" BIN ":handle(c->hdr)");
// expected-error@+1 {{offset 9999 is past the end of 'handle'}}
BPF_PROBE_RECORD_NAMED(a15, "uprobe/" BIN ":handle+9999(c)");
// expected-error@+1 {{cannot index 'c->fd': it has type 'int', not an array or a pointer}}
BPF_PROBE_RECORD_NAMED(a16, "uprobe/" BIN ":handle(c->fd[1])");
// With debug info, $argN is the Nth parameter DWARF lists.
// expected-error@+1 {{'$arg3': handle+0x0 has 2 parameters in the debug info}}
BPF_PROBE_RECORD_NAMED(a17, "uprobe/" BIN ":handle(req->id, $arg3)");

// Return probes: the frame is gone, and %ip is the caller's.
// expected-error@+1 {{'req' is a parameter of handle, gone when a return probe fires; fetch it in an entry probe, or use $retval and globals}}
BPF_PROBE_RECORD_NAMED(r1, "uretprobe/" BIN ":handle($retval, req->id)");
// expected-error@+1 {{global 'counter' of a position-independent binary cannot be located in a return probe}}
BPF_PROBE_RECORD_NAMED(r2, "uretprobe/" BIN ":handle($retval, counter)");
// expected-error@+1 {{'$arg1' is not available in a return probe: argument registers are clobbered at return}}
BPF_PROBE_RECORD_NAMED(r3, "uretprobe/" BIN ":handle($retval, $arg1->id)");

// A body that takes a struct by value is refused: it must take a pointer.
// expected-error@+1 {{parameter 'r' of type 'long' cannot receive '*req' (x8[48]) by value; declare it as 'const struct req *': the prologue copies the value to the BPF stack and passes its address}}
SEC("uprobe/" BIN ":handle(*req)")
int byvalue(struct pt_regs *ctx, long r) { return 0; } // expected-note {{parameter declared here}}

char LICENSE[] SEC("license") = "GPL";
