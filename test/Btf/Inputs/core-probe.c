/* A kernel probe whose members are read through BTF (CO-RE). */
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/vfs_write(file->f_path.dentry->d_name.name:string, count, file->f_pos, file->f_path.dentry->d_name.len, file->f_flags)")
int on_write(struct pt_regs *ctx, const char *name, unsigned long count,
             long long pos, unsigned len, unsigned flags) {
  bpf_printk("%s %lu %lld %u %u", name, count, pos, len, flags);
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
