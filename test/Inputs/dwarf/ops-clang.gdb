# gdb, the referee for test/Live/expr-ops.test (clang build).
set pagination off
set confirm off
break ops.c:28
break ops.c:30
run -1000 77 0xabcdef
printf "GDB sum=%ld diff=%ld x=%ld o=%ld\n", sum, diff, x, o
continue
printf "GDB prod=%ld inv=%ld sa=%ld sl=%ld q=%ld r=%ld neg=%ld lt=%d\n", prod, inv, sa, sl, q, r, neg, lt
kill
quit
