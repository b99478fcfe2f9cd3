# gdb, the referee, at the places of names.bpf.c's probes. At the caller's
# line (use:3) gdb 13 stops in the inlined callee's frame where the
# callee's code starts there: `up` selects the caller's frame,
# whose names the probe reads. The copies of the inline-only step() are
# broken at by its first line: gdb 13's `break step` takes the lowest
# address of a copy, not its DW_AT_entry_pc (which perf and gdb 16 use, and
# bpfprobe); its first line's address is the entry.
set pagination off
set confirm off
break use
break names.c:39
break names.c:19
break scale
commands 1
silent
printf "GDB use o->id=%d o->weight=%ld @shared_total=%d n=%d\n", o->id, o->weight, shared_total, n
continue
end
commands 2
silent
if $_caller_is("use")
up
end
printf "GDB use:3 rf.flags=%ld n=%d\n", rf.flags, n
continue
end
commands 3
silent
printf "GDB step x=%d\n", x
continue
end
commands 4
silent
printf "GDB scale k=%d @sink=%d\n", k, sink
continue
end
run 2 > /dev/null
quit
