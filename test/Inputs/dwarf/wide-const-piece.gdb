# gdb, the referee for test/Live/wide-const-piece.test.
set pagination off
set confirm off
break wide-const-piece.c:29
run
printf "GDB 0x%lx %lu %lu %lu %d %d\n", (unsigned long)p.buffer, p.length, p.offset, p.depth, p.noalloc, p.format
kill
quit
