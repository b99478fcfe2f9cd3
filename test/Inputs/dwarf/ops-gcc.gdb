# gdb, the referee for test/Live/expr-ops.test (gcc build).
set pagination off
set confirm off
break ops.c:30
run -1000 77 0xabcdef
printf "GDB sum=%ld diff=%ld prod=%ld neg=%ld inv=%ld x=%ld o=%ld m=%lu hi=%lu sa=%ld sl=%ld q=%ld r=%ld lt=%d mn=%ld\n", sum, diff, prod, neg, inv, x, o, m, hi, sa, sl, q, r, lt, mn
kill
quit
