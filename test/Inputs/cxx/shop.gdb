# gdb, the referee, where shop.bpf.c's probes are: the same overloads by
# their parameter types, the const method and the template instance.
set pagination off
set confirm off
break 'shop::Cart::add(shop::Item const&, int)'
commands 1
silent
printf "GDB shop::Cart::add it.id=%d it.weight=%ld qty=%d this->total=%ld this->count=%d\n", it.id, it.weight, qty, this->total, this->count
continue
end
break 'shop::Cart::add(int)'
commands 2
silent
printf "GDB shop::Cart::add id=%d count=%d total=%ld tag=%d base_id=%d mode=%d carts=%d shop::Cart::carts=%d\n", id, count, total, tag, base_id, mode, carts, shop::Cart::carts
continue
end
break shop::Cart::scaled
commands 3
silent
printf "GDB shop::Cart::scaled factor=%ld this->total=%ld this->count=%d this->owner=\"%s\"\n", factor, this->total, this->count, this->owner._M_dataplus._M_p
continue
end
break shop::twice<long>
commands 4
silent
printf "GDB shop::twice<long> v=%ld\n", v
continue
end
break shop::Cart::label
commands 5
silent
eval "printf \"GDB shop::Cart::label name=\\\"%%s\\\" best->id=%%d shared->weight=%%ld ids[0]=%%d ids[1]=%%d view=\\\"%%.%lus\\\"\\n\", name._M_dataplus._M_p, best->id, shared->weight, ids[0], ids[1], view._M_str", view._M_len
continue
end
break shop::scale
commands 6
silent
printf "GDB shop::scale v=%ld k=%d\n", v, k
continue
end
run 2 > /dev/null
quit
