// The plugin uses clang's C++ ABI, which changes between releases: loaded
// into a clang of another major it refuses with one line, before anything
// else happens.
// REQUIRES: other-clang
// RUN: not %plugin_host_env %other_clang -target bpf -fplugin=%bpfprobe_plugin -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: libbpfprobe.so was built for clang {{[0-9]+}} but is loaded into clang {{[0-9]+}}; rebuild bpfprobe with -DBPFPROBE_LLVM_VERSION={{[0-9]+}}
// CHECK-NOT: error

int x;
