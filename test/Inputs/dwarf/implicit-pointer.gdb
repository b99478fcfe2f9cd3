# gdb, the referee for test/Live/implicit-pointer.test.
set pagination off
set confirm off
break implicit-pointer.c:17
run -40
printf "GDB *q=%ld p->x=%ld p->y=%ld q[0]=%ld\n", *q, p->x, p->y, q[0]
print p
kill
quit
