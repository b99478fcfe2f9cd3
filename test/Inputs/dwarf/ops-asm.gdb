# gdb, the referee for test/Live/expr-asm.test.
set pagination off
set confirm off
break ops-asm.c:24
run
printf "GDB1 v_implicit=%ld v_mask=%ld v_rot=%ld v_pick=%ld v_skip=%ld v_cmp=%ld v_conv8=%ld v_abs=%ld v_bra=%ld\n", v_implicit, v_mask, v_rot, v_pick, v_skip, v_cmp, v_conv8, v_abs, v_bra
printf "GDB2 t_deref=%d t_rsp=%u bp=%u t_reinterp=%lu sc=%d uc=%u w16.lo=%ld w16.hi=%ld\n", t_deref, t_rsp, bp, t_reinterp, sc, uc, w16.lo, w16.hi
print v_div0
kill
quit
