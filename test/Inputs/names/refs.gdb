# gdb, the referee, where refs.bpf.c's probe is.
set pagination off
set confirm off
break take
commands 1
silent
printf "GDB take it.id=%d it.weight=%ld it.range.hi=%d out.id=%d\n", it.id, it.weight, it.range.hi, out.id
continue
end
run 2 > /dev/null
quit
