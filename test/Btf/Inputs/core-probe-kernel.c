/* A probe on the real vfs_write whose members are read through BTF. */
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/vfs_write(file->f_path.dentry->d_name.name:string, count, file->f_pos, file->f_flags, file->f_inode->i_ino)")
int on_write(struct pt_regs *ctx, const char *name, unsigned long count,
             long long pos, unsigned flags, unsigned long ino) {
  bpf_printk("%s %lu %lld %u %lu", name, count, pos, flags, ino);
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
