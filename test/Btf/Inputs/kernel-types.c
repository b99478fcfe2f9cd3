/* Kernel-like types and functions whose BTF (clang -target bpf -g) stands
   in for a kernel's in the BTF resolver tests: nested structs, an anonymous
   union, bitfields, arrays, typedefs, qualifiers, enums, a forward-declared
   struct and a function taking a struct by value. With -DNEWER the layouts
   change as between kernel versions (members added and moved), the BTF a
   CO-RE object compiled against the default layout is relocated against. */
typedef long long loff_t;
typedef unsigned long size_t;
typedef long ssize_t;
struct qstr {
  union {
    struct {
      unsigned int hash;
      unsigned int len;
    };
    unsigned long long hash_len;
  };
  const unsigned char *name;
};
struct dentry {
#ifdef NEWER
  unsigned long d_seq[3];
#endif
  unsigned int d_flags;
  struct qstr d_name;
  char d_iname[32];
};
struct path {
  void *mnt;
  struct dentry *dentry;
};
enum rw_hint { WRITE_LIFE_NOT_SET, WRITE_LIFE_NONE, WRITE_LIFE_SHORT };
struct opaque;
struct file {
#ifdef NEWER
  loff_t f_pos;
  unsigned int f_flags;
  unsigned int f_version;
#endif
  union {
    void *fu_llist;
    void *fu_rcuhead;
  } f_u;
  struct path f_path;
  struct opaque *f_private;
#ifndef NEWER
  unsigned int f_flags;
#endif
  unsigned short f_mode;
  unsigned int
#ifdef NEWER
      f_new : 2,
#endif
      f_lock_held : 1, f_ra_state : 3, f_depth : 12;
  signed int f_delta : 5;
  volatile const enum rw_hint f_write_hint;
#ifndef NEWER
  loff_t f_pos;
#endif
  const struct path *f_paths[2];
};
struct kiocb_small {
  long a;
};

__attribute__((noinline)) ssize_t vfs_write(struct file *file,
                                            const char *buf, size_t count,
                                            loff_t *pos) {
  return (ssize_t)(file->f_pos + count + (long)buf + (long)pos);
}
__attribute__((noinline)) long by_value(struct kiocb_small k, int flags) {
  return k.a + flags;
}
__attribute__((noinline)) struct file *file_of(int fd) {
  return (struct file *)(long)fd;
}
/* Definitions BTF keeps (a struct seen only through pointers in members
   would be emitted as a forward declaration). */
struct dentry a_dentry;
struct file a_file;
