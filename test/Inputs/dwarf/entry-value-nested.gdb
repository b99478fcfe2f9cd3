# gdb, the referee for test/Live/entry-value-nested.test.
set pagination off
set confirm off
break entry-value-nested.c:11
run 40
printf "GDB x=%ld\n", x
continue
printf "GDB x=%ld\n", x
kill
quit
