# gdb, the referee for test/Live/entry-value.test: x is an entry value
# (gdb resolves it through the caller's DW_TAG_call_site).
set pagination off
set confirm off
break entry-value.c:16
run 40
printf "GDB x=%ld y=%ld\n", x, y
continue
printf "GDB x=%ld y=%ld\n", x, y
continue
print x
kill
quit
