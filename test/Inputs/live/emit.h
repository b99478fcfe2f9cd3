/* Ring-buffer output for the live-test probes: EMIT(fmt, args...) formats one
 * line with bpf_snprintf() into a record of the "events" ring buffer, which
 * bpfprobe-test-loader prints; a record that cannot be reserved is counted in
 * events_lost, which the loader reports. USER_STR copies a user string into a
 * BPF stack buffer for %s ("<fault>" if it cannot be read). */
#ifndef BPFPROBE_TEST_LIVE_EMIT_H
#define BPFPROBE_TEST_LIVE_EMIT_H

#include <bpf/bpf_helpers.h>

#define RECORD_SIZE 256

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 256 * 1024);
} events SEC(".maps");

unsigned long long events_lost;

#define EMIT(fmt, args...)                                                     \
  ({                                                                           \
    char *___rec = bpf_ringbuf_reserve(&events, RECORD_SIZE, 0);               \
    if (___rec) {                                                              \
      BPF_SNPRINTF(___rec, RECORD_SIZE, fmt, args);                            \
      bpf_ringbuf_submit(___rec, 0);                                           \
    } else {                                                                   \
      __sync_fetch_and_add(&events_lost, 1);                                   \
    }                                                                          \
  })

#define USER_STR(buf, ptr)                                                     \
  ({                                                                           \
    if (bpf_probe_read_user_str(buf, sizeof(buf), (const void *)(ptr)) < 0)    \
      __builtin_memcpy(buf, "<fault>", sizeof("<fault>"));                     \
    buf;                                                                       \
  })

char LICENSE[] SEC("license") = "GPL";

#endif
