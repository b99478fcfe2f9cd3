/* A kernel probe reading bitfields through BTF (CO-RE bitfield reads). */
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
SEC("kprobe/vfs_write(file->f_lock_held, file->f_ra_state, file->f_depth, file->f_delta)")
int on_write(struct pt_regs *ctx, unsigned a, unsigned b, unsigned c, int d) {
  bpf_printk("%u %u %u %d", a, b, c, d);
  return 0;
}
char LICENSE[] SEC("license") = "GPL";
