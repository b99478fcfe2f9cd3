# gdb, the referee for test/Live/const-block.test.
set pagination off
set confirm off
break *check
run
printf "GDB %d %d %d\n", my_version[0], my_version[5], my_version[6]
kill
quit
