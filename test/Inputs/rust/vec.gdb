# gdb, the referee, where vec.bpf.c's probe is (in C mode, whose printf
# takes a comma-separated list): the Vec's and the slice's length members.
set pagination off
set confirm off
break vec::sum
commands 1
silent
set language c
printf "GDB vec::sum len=%lu len=%lu\n", items->len, window.length
continue
end
run 4 > /dev/null
quit
