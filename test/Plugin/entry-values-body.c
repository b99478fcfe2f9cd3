// A probe body with `@entry(...)` values: the return program looks up the
// record its entry program saved under the task and the entry's stack
// pointer (%sp at the return less the 8-byte return address), deletes it,
// and calls the body with the saved values; when there is none (a missed
// entry) it returns 0 without calling the body.
// RUN: %clang_bpf -O2 -g -S -emit-llvm %s -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

long last;

SEC("uretprobe/./demo:f($retval, @entry($arg1))")
int on_f(struct pt_regs *ctx, long rv, long a1) { last = rv + a1; return 1; }

char LICENSE[] SEC("license") = "GPL";

// CHECK-LABEL: define {{.*}}i32 @on_f__entry(ptr
// CHECK-SAME:  section "uprobe/./demo:f"
// CHECK:       getelementptr inbounds{{( nuw)?}} i8, ptr %0, i64 112
// CHECK:       getelementptr inbounds{{( nuw)?}} i8, ptr %0, i64 152
// CHECK:       call i64 inttoptr (i64 14 to ptr)()
// CHECK:       call i64 inttoptr (i64 2 to ptr)(ptr nonnull @bpfprobe_entry_on_f,
// CHECK-NEXT:  ret i32 0

// CHECK-LABEL: define {{.*}}i32 @on_f(ptr
// CHECK-SAME:  section "uretprobe/./demo:f"
// CHECK:       [[SPP:%[0-9]+]] = getelementptr inbounds{{( nuw)?}} i8, ptr %0, i64 152
// CHECK-NEXT:  [[SP:%[0-9]+]] = load volatile i64, ptr [[SPP]]
// CHECK-NEXT:  add i64 [[SP]], -8
// CHECK:       [[REC:%[0-9]+]] = call ptr inttoptr (i64 1 to ptr)(ptr nonnull @bpfprobe_entry_on_f,
// CHECK-NEXT:  [[NONE:%[0-9]+]] = icmp eq ptr [[REC]], null
// CHECK-NEXT:  br i1 [[NONE]], label %[[SKIP:[0-9]+]], label %[[GO:[0-9]+]]
// CHECK:       [[GO]]:
// CHECK:       call i64 inttoptr (i64 3 to ptr)(ptr nonnull @bpfprobe_entry_on_f,
// CHECK:       store i64 {{.*}}, ptr @last
// CHECK:       [[SKIP]]:
// CHECK-NEXT:  phi i32 [ 1, %[[GO]] ], [ 0, %1 ]
