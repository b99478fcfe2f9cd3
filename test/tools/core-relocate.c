/// \file
/// bpfprobe-core-relocate: shows how libbpf relocates an object's CO-RE
/// accesses against a given BTF, the way it does at load time against the
/// running kernel's.
///
/// Usage: bpfprobe-core-relocate OBJ.o TARGET-BTF
///   Opens OBJ.o with TARGET-BTF as the kernel's BTF (btf_custom_path) and
///   loads it; prints each relocation libbpf reports ("relo #N: ... imm A
///   -> B") and whether the load succeeded. A program the verifier refuses
///   still shows its relocations, which happen before the load.
///
/// Exit status: 0 loaded, 1 usage error, 2 the object does not open, 3 the
/// load failed (a relocation that cannot be resolved fails it).
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int printRelocations(enum libbpf_print_level Level, const char *Fmt,
                            va_list Args) {
  char Line[1024];
  vsnprintf(Line, sizeof(Line), Fmt, Args);
  if (strstr(Line, "relo #") && (strstr(Line, "patched") ||
                                 strstr(Line, "failed") ||
                                 strstr(Line, "unexpected") ||
                                 strstr(Line, "<byte_off>")))
    fputs(Line, stdout);
  else if (Level == LIBBPF_WARN)
    fputs(Line, stderr);
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    fprintf(stderr, "usage: bpfprobe-core-relocate OBJ.o TARGET-BTF\n");
    return 1;
  }
  libbpf_set_print(printRelocations);
  LIBBPF_OPTS(bpf_object_open_opts, Opts, .btf_custom_path = Argv[2]);
  struct bpf_object *Obj = bpf_object__open_file(Argv[1], &Opts);
  if (!Obj) {
    fprintf(stderr, "cannot open %s\n", Argv[1]);
    return 2;
  }
  int Err = bpf_object__load(Obj);
  printf("load: %s\n", Err ? "failed" : "ok");
  bpf_object__close(Obj);
  return Err ? 3 : 0;
}
