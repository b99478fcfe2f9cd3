#!/usr/bin/env bash
# Sets up a Debian 12 machine for bpfprobe, builds it, and runs the demo or
# the test suite. Run as root (apt, bpf(), uprobes).
#
#   utils/bootstrap.sh demo     install, build, probe the bundled target, show values
#   utils/bootstrap.sh test     install, build, prepare the kernel guest
#                               (utils/kernel-guest.py prepare), run the lit suite
#   utils/bootstrap.sh build    install and build only
#
# BPFPROBE_LLVM_VERSION=22 selects LLVM 22 (default 19); BUILD_DIR overrides
# the build directory (default build-llvm<version>); NO_APT=1 skips apt;
# BPFPROBE_FUZZERS=ON also builds the libFuzzer targets, whose replay tests
# run in the suite (CI sets it; docs/cmake.md).
set -euo pipefail

cmd=${1:-demo}
ver=${BPFPROBE_LLVM_VERSION:-19}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build-llvm$ver}

say() { printf '\n== %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
  echo "bootstrap.sh: run as root (it installs packages and loads BPF programs)" >&2
  exit 1
fi

if [ -z "${NO_APT:-}" ]; then
  say "installing packages (LLVM $ver, libbpf, bpftool, qemu, busybox, perf)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends \
    "clang-$ver" "llvm-$ver-dev" "libclang-$ver-dev" "llvm-$ver-tools" \
    "libclang-rt-$ver-dev" "libc++-$ver-dev" "libc++abi-$ver-dev" rustc \
    libbpf-dev bpftool libelf-dev zlib1g-dev \
    linux-libc-dev gcc libc6-dev cmake ninja-build pkg-config python3 file \
    binutils debuginfod gdb \
    gcc-aarch64-linux-gnu gcc-arm-linux-gnueabi gcc-riscv64-linux-gnu \
    gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu gcc-mips64el-linux-gnuabi64 \
    gcc-i686-linux-gnu libc6-dev-i386-cross linux-libc-dev-arm64-cross \
    linux-libc-dev-armel-cross linux-libc-dev-riscv64-cross \
    linux-libc-dev-s390x-cross linux-libc-dev-ppc64el-cross \
    linux-libc-dev-mips64el-cross \
    qemu-system-x86 busybox-static linux-perf >/dev/null
fi

# uprobes and bpf_printk need tracefs.
if [ ! -e /sys/kernel/tracing/trace_pipe ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

say "building bpfprobe with LLVM $ver in $build"
cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBPFPROBE_LLVM_VERSION="$ver" \
  -DBPFPROBE_SANITIZE="${BPFPROBE_SANITIZE:-}" \
  -DBPFPROBE_CHECK_ERRORS="${BPFPROBE_CHECK_ERRORS:-OFF}" \
  -DBPFPROBE_FUZZERS="${BPFPROBE_FUZZERS:-OFF}" >/dev/null
ninja -C "$build" -j2

case "$cmd" in
build) ;;
test)
  # Kernel probes run in a QEMU guest booting Debian's cloud kernel: the
  # image and the -dbg package's vmlinux (and probed modules) are unpacked
  # into a cache (/var/cache/bpfprobe/kernel), downloaded once.
  say "preparing the kernel guest (Debian cloud kernel, unpacked, not installed)"
  python3 "$top/utils/kernel-guest.py" prepare ||
    echo "bootstrap.sh: the pinned kernels could not be prepared (above); the kernel-guest" \
      "tests will be skipped (with BPFPROBE_REQUIRE_LIVE=1: the run fails)" >&2
  say "running the test suite"
  ninja -C "$build" check-bpfprobe
  ;;
demo)
  work=$(mktemp -d /tmp/bpfprobe-demo.XXXXXX)
  say "compiling the bundled target and its probes in $work"
  cp "$top/demo/shop.c" "$top/demo/shop.bpf.c" "$work/"
  cd "$work"
  gcc -g -O2 shop.c -o shop
  "/usr/lib/llvm-$ver/bin/clang" -target bpf -O2 -g \
    -I"/usr/include/$(gcc -print-multiarch)" -I"$top/include" \
    -fplugin="$build/lib/libbpfprobe.so" -fplugin-arg-bpfprobe-print-plan \
    -c shop.bpf.c -o shop.bpf.o
  say "attaching with bpfprobe-run and running ./shop"
  "$build/bin/bpfprobe-run" shop.bpf.o -- ./shop 4
  say "the same place as a one-liner: bpfprobe-run -e (compiled and cached on the fly)"
  "$build/bin/bpfprobe-run" -e 'uprobe/./shop:ship:3(o->customer, weight)' -- ./shop 2
  ;;
*)
  echo "usage: $0 demo|test|build" >&2
  exit 2
  ;;
esac
