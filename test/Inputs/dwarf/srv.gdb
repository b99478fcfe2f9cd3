# gdb, the referee: the values the live test's probes must match.
set pagination off
set confirm off
break handle
break srv.c:16
run 2
printf "GDB handle id=%d len=%u kind=%u flags=%d prio=%u path=%s fd=%d item2=%d a=%ld counter=%d\n", req->id, req->hdr.len, req->hdr.kind, req->hdr.flags, req->hdr.prio, req->path, c->fd, req->items[2], req->a, counter
continue
printf "GDB score bias=%d len=%u item1=%d\n", bias, r->hdr.len, r->items[1]
continue
printf "GDB score bias=%d len=%u item1=%d\n", bias, r->hdr.len, r->items[1]
continue
printf "GDB handle id=%d len=%u kind=%u flags=%d prio=%u path=%s fd=%d item2=%d a=%ld counter=%d\n", req->id, req->hdr.len, req->hdr.kind, req->hdr.flags, req->hdr.prio, req->path, c->fd, req->items[2], req->a, counter
kill
quit
