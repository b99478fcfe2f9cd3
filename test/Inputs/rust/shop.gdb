# gdb, the referee, where shop.bpf.c's probe is (in C mode: its printf
# takes a comma-separated list that the Rust parser reads as a tuple); the
# String's bytes are printed with the precision of its length (eval).
set pagination off
set confirm off
break shop::cart::add
commands 1
silent
set language c
eval "printf \"GDB shop::cart::add n=%%ld cart->total=%%ld cart->count=%%d cart->owner=\\\"%%.%lus\\\"\\n\", n, cart->total, cart->count, (char *)cart->owner.vec.buf.ptr.pointer", cart->owner.vec.len
continue
end
run 2 > /dev/null
quit
