# gdb, the referee, at every location of copies.c:25 (`break copies.c:25`):
# the values of 'fresh' and 'hooks' where gdb's frame has them (the copy in
# new_item's inlined block), and gdb's own message where it has no such
# name (create_bool's copy, outside that block).
set pagination off
set confirm off
python
class Line25(gdb.Breakpoint):
    def stop(self):
        frame = gdb.selected_frame()
        try:
            fresh = int(gdb.parse_and_eval("fresh"))
            hooks = int(gdb.parse_and_eval("hooks"))
            print("GDB copies.c:25 fresh=0x%x hooks=0x%x" % (fresh, hooks))
        except gdb.error as e:
            print("NO-NAME in %s: %s" % (frame.name(), e))
        return False
Line25("copies.c:25")
end
run > /dev/null
quit
