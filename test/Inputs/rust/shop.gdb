# gdb, the referee, where shop.bpf.c's probe is (in C mode: its printf
# takes a comma-separated list that the Rust parser reads as a tuple).
set pagination off
set confirm off
break shop::cart::add
commands 1
silent
set language c
printf "GDB shop::cart::add n=%ld cart->total=%ld cart->count=%d\n", n, cart->total, cart->count
continue
end
run 2 > /dev/null
quit
