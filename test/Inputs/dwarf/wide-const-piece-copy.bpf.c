/* The whole struct of test/Inputs/dwarf/wide-const-piece.c copied where
 * part of it is a zero piece wider than a register. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

typedef struct {
	unsigned char *buffer;
	unsigned long length, offset, depth;
	int noalloc, format;
} printbuffer;

SEC("uprobe/./wcp:wide-const-piece.c:29(p)")
int on_copy(struct pt_regs *ctx, const printbuffer *p)
{
	bpf_printk("copy 0x%lx %lu %lu", (unsigned long)p->buffer, p->length,
		   p->offset);
	bpf_printk("copy2 %lu %d %d", p->depth, p->noalloc, p->format);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
