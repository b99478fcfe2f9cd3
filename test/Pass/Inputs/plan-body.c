/* A probe body with a plan injected as text, as the front end leaves it
 * (no debug info needed): PLAN_ARGS selects the arguments. The body hands
 * the three values to one helper call (id 99), so every instruction before
 * `call 0x63` is the prologue the pass synthesized. */
#ifndef ARCH
#define ARCH "x86_64"
#endif
#define PLAN_HEAD                                                              \
  "bpfprobe.plan:bpfprobe-plan 2\n"                                            \
  "program=on_site\nbody=on_site\n"                                            \
  "section=kprobe/generic_perform_write+184\nkind=kprobe\ntarget=\n"           \
  "symbol=generic_perform_write\noffset=184\naddress=0\nsymbol_size=0\n"       \
  "arch=" ARCH "\nbuild_id=\nsource=dwarf\nspace=kernel\nrecord=0\nspec=test\n"

/* x86_64 register indexes (lib/Target/ArchX86_64.cpp): r14=1, r12=3,
 * bx=5, si=13, di=14, sp=19. */
#if defined(SEED_REGS)
/* Issue 9's seed: file->f_mapping->a_ops (two hops), bytes and offset in
 * registers. */
#define PLAN_ARGS                                                              \
  "arg=a\tfile->f_mapping->a_ops\tvoid *\t2 8 0 0\t"                           \
  "(deref 8 (add 104 (deref 8 (add 48 (reg 1)))))\n"                           \
  "arg=b\tbytes\tsize_t\t0 8 0 0\t(reg 3)\n"                                   \
  "arg=c\toffset\tloff_t\t0 8 1 0\t(reg 5)\n"
#elif defined(SEED_STACK)
/* The same with bytes and offset in the frame (CFA-relative): four reads. */
#define PLAN_ARGS                                                              \
  "arg=a\tfile->f_mapping->a_ops\tvoid *\t2 8 0 0\t"                           \
  "(deref 8 (add 104 (deref 8 (add 48 (reg 1)))))\n"                           \
  "arg=b\tbytes\tsize_t\t0 8 0 0\t(deref 8 (add 16 (reg 19)))\n"               \
  "arg=c\toffset\tloff_t\t0 8 1 0\t(deref 8 (add 24 (reg 19)))\n"
#elif defined(MASK_MIN_DIV)
/* DWARF arithmetic: `fbreg; deref_size 4; const4u 0xffffffff; and`,
 * gcc's min of two registers (lt, bra), a signed division. */
#define PLAN_ARGS                                                              \
  "arg=a\tm\tunsigned long\t0 8 0 0\t"                                         \
  "(and (deref 4 (add -20 (reg 19))) (const 4294967295))\n"                    \
  "arg=b\tlo\tlong\t0 8 1 0\t(select (lt_s (reg 14) (reg 13)) (reg 14) "       \
  "(reg 13))\n"                                                                \
  "arg=c\tq\tlong\t0 8 1 0\t(div_s (reg 14) (reg 13))\n"
#elif defined(SELECT_READS)
/* A DW_OP_bra whose paths read memory: a real forward branch. */
#define PLAN_ARGS                                                              \
  "arg=a\tv\tlong\t0 8 1 0\t(select (reg 14) (deref 8 (reg 14)) (reg 13))\n"   \
  "arg=b\tb\tlong\t0 8 1 0\t(reg 3)\n"                                         \
  "arg=c\tc\tlong\t0 8 1 0\t(reg 5)\n"
#elif defined(ALL_OPS)
/* Every operation of the plan language (test/Pass/lower-ops.test). */
#define PLAN_ARGS                                                              \
  "arg=a\ta\tlong\t0 8 0 0\t(xor (mul (reg 14) (reg 13)) (or (and (reg 14) "   \
  "(const 255)) (shl (reg 13) (reg 14))))\n"                                    \
  "arg=b\tb\tlong\t0 8 0 0\t(select (ge_u (reg 14) (reg 13)) (shra (reg 14) "  \
  "(reg 13)) (shr (reg 13) (const 70)))\n"                                      \
  "arg=c\tc\tlong\t0 8 1 0\t(plus (mod_s (reg 14) (reg 13)) (plus (mod_u "     \
  "(reg 14) (const 0)) (plus (div_u (reg 14) (reg 13)) (minus (neg (reg 14)) " \
  "(not (eq (reg 13) (bitfield 8 0 8 1 (reg 14))))))))\n"
/* Invalid plans (test/Pass/plan-validate.test): each crashed or
 * miscompiled before plans were validated. */
#elif defined(BAD_REG)
#define PLAN_ARGS "arg=a\ta\tlong\t0 8 0 0\t(reg 9999)\n" ARGS_BC
#elif defined(BAD_DEREF_SIZE)
#define PLAN_ARGS "arg=a\ta\tlong\t0 8 0 0\t(deref 0 (reg 1))\n" ARGS_BC
#elif defined(BAD_BITFIELD)
#define PLAN_ARGS                                                              \
  "arg=a\ta\tlong\t0 8 0 0\t(bitfield 8 4294967280 8 0 (reg 1))\n" ARGS_BC
#elif defined(BAD_PIECES)
#define PLAN_ARGS                                                              \
  "arg=a\ta\tlong\t0 8 0 0\t(pieces 2 8 (reg 1) 8 (reg 3))\n" ARGS_BC
#elif defined(BAD_VALUE_SIZE)
#define PLAN_ARGS "arg=a\ta\tlong\t0 3 0 0\t(reg 1)\n" ARGS_BC
#elif defined(BAD_OPERATION)
#define PLAN_ARGS "arg=a\ta\tlong\t0 8 0 0\t(frobnicate (reg 1))\n" ARGS_BC
#elif defined(BAD_ARCH)
#undef ARCH
#define ARCH "pdp11"
#define PLAN_ARGS "arg=a\ta\tlong\t0 8 0 0\t(reg 1)\n" ARGS_BC
#endif
#define ARGS_BC                                                                \
  "arg=b\tb\tlong\t0 8 0 0\t(reg 3)\narg=c\tc\tlong\t0 8 0 0\t(reg 5)\n"

__attribute__((annotate(PLAN_HEAD PLAN_ARGS),
               section("kprobe/generic_perform_write+184")))
int on_site(void *ctx, unsigned long a, unsigned long b, long c)
{
	return ((long (*)(unsigned long, unsigned long, long))99)(a, b, c);
}

char LICENSE[] __attribute__((section("license"), used)) = "GPL";
