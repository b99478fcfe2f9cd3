# gdb, the referee, at linescope.c's lines 29 (reset:14, in the inlined
# init_state) and 46 (add:2): the values in the frame gdb stops in there;
# at line 46 only where that frame has 'last' (gcc: link's).
set pagination off
set confirm off
python
class At(gdb.Breakpoint):
    def __init__(self, spec, place, exprs):
        super().__init__(spec)
        self.place, self.exprs = place, exprs
    def stop(self):
        try:
            vals = [(e.split("->")[-1], int(gdb.parse_and_eval(e)))
                    for e in self.exprs]
            print("GDB %s %s" % (self.place,
                                 " ".join("%s=%d" % v for v in vals)))
        except gdb.error as e:
            print("NO-NAME %s in %s: %s" % (self.place,
                                            gdb.selected_frame().name(), e))
        return False
At("linescope.c:29", "reset:14", ["st->w_size", "st->level"])
At("linescope.c:46", "add:2", ["last->id", "list->id", "item->id"])
end
run > /dev/null
quit
