# gdb, the referee, at every copy of step's line 20 (step:3): one copy has
# no location for x (gdb prints <optimized out>) and the probe leaves it out.
set pagination off
set confirm off
break names.c:20
commands 1
silent
echo GDB step:3 x=
output x
echo \ y=
output y
echo \n
continue
end
run 2 > /dev/null
quit
