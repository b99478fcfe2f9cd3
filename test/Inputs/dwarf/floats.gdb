# gdb, the referee, at floats.c:21 (scale:6): each value as gdb prints it
# ('k' only where the frame can show it: gcc's stack slot; clang's 16-byte
# DW_OP_deref_size gdb 13 cannot read).
set pagination off
set confirm off
python
class Scale(gdb.Breakpoint):
    def stop(self):
        out = []
        for e in ("s->weight", "s->ratio", "twice", "w", "k"):
            try:
                out.append("%s=%s" % (e.split("->")[-1], gdb.parse_and_eval(e)))
            except gdb.error as err:
                print("NOT-SHOWN %s: %s" % (e, err))
        print("GDB scale:6 " + " ".join(out))
        return False
Scale("floats.c:21")
end
run > /dev/null
quit
