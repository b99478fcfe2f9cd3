# gdb, the referee for test/Live/const-entry.test: at the entry addresses
# the probes use.
set pagination off
set confirm off
break *main
break *compile_flags
run
printf "GDB len=%lu small=%u neg=%d\n", len, small, neg
continue
printf "GDB flags=%lu\n", flags
kill
quit
