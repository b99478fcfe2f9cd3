# gdb, the referee, where strings.bpf.c's probe is, on a libstdc++ build:
# the string's first 63 bytes and, when it is longer, "...(len=N)" as
# bpfprobe-run prints it; sizes from the members (a vector's is the
# difference of its element pointers, which gdb divides by the element size).
set pagination off
set confirm off
break text::measure
commands 1
silent
if s._M_string_length > 63
printf "GDB text::measure s_string=\"%.63s\"...(len=%lu) s.size()=%lu v.size()=%lu nums.size()=%ld bytes.size()=%ld\n", s._M_dataplus._M_p, s._M_string_length, s._M_string_length, v._M_len, nums._M_impl._M_finish - nums._M_impl._M_start, bytes._M_impl._M_finish - bytes._M_impl._M_start
else
printf "GDB text::measure s_string=\"%s\" s.size()=%lu v.size()=%lu nums.size()=%ld bytes.size()=%ld\n", s._M_dataplus._M_p, s._M_string_length, v._M_len, nums._M_impl._M_finish - nums._M_impl._M_start, bytes._M_impl._M_finish - bytes._M_impl._M_start
end
continue
end
run 3 > /dev/null
quit
