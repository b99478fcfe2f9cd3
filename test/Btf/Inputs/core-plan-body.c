/* A probe body with a CO-RE plan injected as text, as the front end leaves
 * it: PLAN_ARGS selects the arguments (test/Btf/core-plan-validate.test).
 * x86_64 register indexes: di=14. */
#define PLAN_HEAD                                                              \
  "bpfprobe.plan:bpfprobe-plan 2\n"                                            \
  "program=on_site\nbody=on_site\n"                                            \
  "section=kprobe/vfs_write\nkind=kprobe\ntarget=\n"                           \
  "symbol=vfs_write\noffset=0\naddress=0\nsymbol_size=0\n"                     \
  "arch=x86_64\nbuild_id=\nsource=btf\nspace=kernel\nrecord=0\nspec=test\n"

#if defined(GOOD)
/* file->f_path.dentry and file->f_pos. */
#define PLAN_ARGS                                                              \
  "arg=a\tdentry\tvoid *\t2 8 0 0\t"                                           \
  "(deref 8 (coreadd 16 sfile#232/f_path@64:spath#16/dentry@64:p (reg 14)))\n" \
  "arg=b\tf_pos\tlong long\t0 8 1 0\t"                                         \
  "(deref 8 (coreadd 104 sfile#232/f_pos@832:i8 (reg 14)))\n"
#elif defined(BAD_IMM)
/* The offset says 24, the access's members add up to 16. */
#define PLAN_ARGS                                                              \
  "arg=a\tdentry\tvoid *\t2 8 0 0\t"                                           \
  "(deref 8 (coreadd 24 sfile#232/f_path@64:spath#16/dentry@64:p (reg 14)))\n" \
  ARG_B
#elif defined(BAD_CHARS)
#define PLAN_ARGS                                                              \
  "arg=a\tdentry\tvoid *\t2 8 0 0\t"                                           \
  "(deref 8 (coreadd 16 sfile#232/f_path@64:spath#16/den;try@64:p (reg 14)))\n"\
  ARG_B
#elif defined(BAD_OUTSIDE)
/* A member past the end of its structure. */
#define PLAN_ARGS                                                              \
  "arg=a\tx\tlong long\t0 8 1 0\t"                                             \
  "(deref 8 (coreadd 256 sfile#232/x@2048:i8 (reg 14)))\n" ARG_B
#elif defined(BAD_ANON_ROOT)
#define PLAN_ARGS                                                              \
  "arg=a\tx\tlong long\t0 8 1 0\t"                                             \
  "(deref 8 (coreadd 8 s#16/x@64:i8 (reg 14)))\n" ARG_B
#elif defined(BAD_BITFIELD)
/* A bitfield read at another place than its access says. */
#define PLAN_ARGS                                                              \
  "arg=a\tx\tlong\t0 8 0 0\t"                                                  \
  "(corebitfield 4 3 1 0 sfile#232/x@304:n4!1 (deref 4 (add 36 (reg 14))))\n"  \
  ARG_B
#endif
#define ARG_B "arg=b\tb\tlong\t0 8 0 0\t(reg 13)\n"

__attribute__((annotate(PLAN_HEAD PLAN_ARGS), section("kprobe/vfs_write")))
int on_site(void *ctx, unsigned long a, long b)
{
	return ((long (*)(unsigned long, long))99)(a, b);
}

char LICENSE[] __attribute__((section("license"), used)) = "GPL";
