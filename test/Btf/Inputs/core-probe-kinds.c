/* CO-RE accesses of other kinds: an element of an array member, a char
   array as a string, an enum member, a structure member copied whole. */
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/vfs_write(file->f_paths[1]->dentry, file->f_path.dentry->d_iname:string, file->f_write_hint, file->f_path)")
int on_write(struct pt_regs *ctx, void *d, const char *iname, int hint,
             const void *path) {
  bpf_printk("%p %s %d %p", d, iname, hint, path);
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
