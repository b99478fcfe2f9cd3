# gdb, the referee, where shop.bpf.c's probes are, on a libc++ build: as
# shop.gdb, with libc++'s member names (a std::string's characters are in
# __s.__data_ or behind __l.__data_ as its __is_long_ bit says).
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
printf "GDB shop::Cart::scaled factor=%ld this->total=%ld this->count=%d this->owner=\"%s\"\n", factor, this->total, this->count, this->owner.__r_.__value_.__s.__is_long_ ? this->owner.__r_.__value_.__l.__data_ : this->owner.__r_.__value_.__s.__data_
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
eval "printf \"GDB shop::Cart::label name=\\\"%%s\\\" best->id=%%d shared->weight=%%ld ids[0]=%%d ids[1]=%%d view=\\\"%%.%lus\\\"\\n\", name.__r_.__value_.__s.__is_long_ ? name.__r_.__value_.__l.__data_ : name.__r_.__value_.__s.__data_, best.__ptr_.__value_->id, shared.__ptr_->weight, ids.__begin_[0], ids.__begin_[1], view.__data_", view.__size_
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
