/* Probes on test/Inputs/dwarf/srv.c by name, member, index, bitfield,
 * string, global, and by source line (the line of score() that is inlined
 * twice into handle). BIN names the target binary. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./srv"
#endif

BPF_PROBE_RECORD_NAMED(on_handle, "uprobe/" BIN ":handle(req->id, req->hdr.len, req->hdr.kind, req->hdr.flags, req->hdr.prio, req->path:string, c->fd, req->items[2], req->a, counter, *req->path:u8)");

BPF_PROBE_RECORD_NAMED(on_score, "uprobe/" BIN ":srv.c:16(bias, r->hdr.len, r->items[1])");

/* A body of our own: the struct arrives as a pointer to a copy. */
SEC("uprobe/" BIN ":handle(*req, c->fd)")
int on_copy(struct pt_regs *ctx, const void *req, int fd)
{
	bpf_printk("copy fd=%d", fd);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
