# lit configuration for the bpfprobe suite.
import os
import sys
import platform
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "bpfprobe"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".c", ".ll", ".test", ".cpp"]
config.excludes = ["Inputs", "CMakeLists.txt", "tools", "fuzz"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.bpfprobe_obj_root, "test")

tools = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join(
    [config.bpfprobe_bin_dir, tools, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

clang = os.path.join(tools, "clang")
inc = os.path.join(config.bpfprobe_src_root, "include")
multiarch = "/usr/include/%s-linux-gnu" % platform.machine()
bpf_cflags = "-target bpf -I%s -I%s %s" % (inc, multiarch, config.libbpf_cflags.replace(";", " "))

# The sanitizer configuration (-DBPFPROBE_SANITIZE=address,undefined; lit
# feature "sanitizer"). A sanitized plugin needs the ASan runtime first in
# the clang or opt that loads it; their own leaks are not ours:
#   %plugin_host_env     env prefix that preloads it (empty otherwise)
#   %clang_plugin_host   a clang that can load this build's plugin, as one
#                        program path (a wrapper script CMake writes when
#                        sanitized; bpfprobe-run's default clang), for tools
#                        and builds that are given a compiler
#   %cc_runtime          a C compiler for programs linked with this build's
#                        runtime library: when sanitized, the compiler that
#                        built it, with the same -fsanitize
plugin_host_env = ""
clang_plugin_host = clang
cc_runtime = clang
sanitize = getattr(config, "bpfprobe_sanitize", "")
if sanitize:
    config.available_features.add("sanitizer")
    cc_runtime = "%s -fsanitize=%s" % (config.host_cc, sanitize)
if getattr(config, "bpfprobe_asan_runtime", ""):
    preload = "LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0" % config.bpfprobe_asan_runtime
    plugin_host_env = "env %s " % preload
    # The wrapper CMake wrote (CMakeLists.txt: BPFPROBE_PLUGIN_HOST_CLANG);
    # bpfprobe-run -e uses it by default, with no help from the environment.
    clang_plugin_host = config.clang_plugin_host
config.substitutions.append(("%plugin_host_env", plugin_host_env))
config.substitutions.append(("%clang_plugin_host", clang_plugin_host))
config.substitutions.append(("%cc_runtime", cc_runtime))
config.substitutions.append(("%clang_bpf", "%s %s -fplugin=%s" % (plugin_host_env + clang, bpf_cflags, config.bpfprobe_plugin)))
config.substitutions.append(("%bpf_cflags", bpf_cflags))
config.substitutions.append(("%bpfprobe_plugin", config.bpfprobe_plugin))
config.substitutions.append(("%clang_host", clang))
config.substitutions.append(("%clang", clang))
# The same libbpfprobe.so loads into opt: outside clang it is the pass alone.
config.substitutions.append(("%opt_bpfprobe", "%s%s -load-pass-plugin=%s" % (
    plugin_host_env, os.path.join(tools, "opt"), config.bpfprobe_plugin)))
config.substitutions.append(("%gcc", config.gcc or "gcc"))
config.substitutions.append(("%bpftool", config.bpftool or "bpftool"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%python", sys.executable))
# The libraries' compile flags, one response file each (lib/CMakeLists.txt):
#   %host_cxx @%lib_flags/Spec.rsp compiles as lib/Spec does.
config.substitutions.append(("%host_cxx", getattr(config, "host_cxx", "c++")))
config.substitutions.append(("%lib_flags", os.path.join(config.bpfprobe_obj_root, "lib", "include-roots")))

config.available_features.add("llvm-%s" % config.llvm_version_major)
if config.gcc:
    config.available_features.add("gcc")
if platform.machine() == "x86_64":
    config.available_features.add("host-x86_64")


def can_uprobe():
    """Root, the bpf() syscall and the uprobe PMU: real attach tests can run."""
    if os.geteuid() != 0:
        return False
    if not os.path.exists("/sys/bus/event_source/devices/uprobe/type"):
        return False
    if not os.path.exists("/sys/kernel/btf/vmlinux"):
        return False
    probe = os.path.join(config.bpfprobe_bin_dir, "bpfprobe-test-loader")
    if not os.path.exists(probe):
        return False
    try:
        return subprocess.run([probe, "--check"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=20).returncode == 0
    except Exception:
        return False


if can_uprobe():
    config.available_features.add("bpf-uprobe")
if os.path.exists("/sys/bus/event_source/devices/kprobe/type"):
    config.available_features.add("bpf-kprobe")
# uprobe.session (6.13+): the kernel's BTF names the attach type.
def has_btf_name(name):
    try:
        with open("/sys/kernel/btf/vmlinux", "rb") as f:
            return name.encode() + b"\0" in f.read()
    except OSError:
        return False


if "bpf-uprobe" in config.available_features and has_btf_name("BPF_TRACE_UPROBE_SESSION"):
    config.available_features.add("uprobe-session")
# The libFuzzer targets (test/fuzz, -DBPFPROBE_FUZZERS=ON): each replays
# its corpus in a test that REQUIRES <name>-fuzzer. Binaries left in bin/ by
# an earlier configuration with the fuzzers on do not count.
fuzzers_built = getattr(config, "bpfprobe_fuzzers", "0") == "1"
fuzzers_missing = []
for fuzzer in ("spec", "plan", "dwarf", "record", "tracepage", "metadata"):
    binary = os.path.join(config.bpfprobe_bin_dir, "bpfprobe-%s-fuzzer" % fuzzer)
    if fuzzers_built and os.path.exists(binary):
        config.available_features.add("%s-fuzzer" % fuzzer)
    else:
        fuzzers_missing.append("bpfprobe-%s-fuzzer" % fuzzer)

# Root that can act as an unprivileged user (setpriv, util-linux): the
# security tests (test/Security) prepare each attack as uid 65534 and run
# the tool as root. %as_user runs a command as that user.
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("root-setpriv")
config.substitutions.append(("%as_user", "setpriv --reuid 65534 --regid 65534 --clear-groups --"))

# Say loudly whether the live tests run: a skipped live suite must be seen.
lit_config.note("bpf-uprobe %s: live uprobe tests %s" % (
    ("available" if "bpf-uprobe" in config.available_features else "NOT available"),
    ("run" if "bpf-uprobe" in config.available_features else
     "are SKIPPED (need root, bpf(), the uprobe PMU and /sys/kernel/btf/vmlinux)")))
if os.environ.get("BPFPROBE_REQUIRE_LIVE") and "bpf-uprobe" not in config.available_features:
    lit_config.fatal("BPFPROBE_REQUIRE_LIVE is set but this machine cannot run live uprobe tests")
# The same for the fuzz replays: CI builds the fuzzers, and
# BPFPROBE_REQUIRE_LIVE=1 (everything; not =uprobe) requires them.
if not fuzzers_built:
    fuzzers_why = ("the fuzzers are not built: configure with -DBPFPROBE_FUZZERS=ON, "
                   "or BPFPROBE_FUZZERS=ON utils/bootstrap.sh")
elif fuzzers_missing:
    fuzzers_why = ("%s not built (CMake said why: libclang-rt-%s-dev installed?)"
                   % (", ".join(fuzzers_missing), config.llvm_version_major))
else:
    fuzzers_why = ""
if fuzzers_why:
    lit_config.note("fuzzers NOT available: the fuzz replay tests are SKIPPED (%s)" % fuzzers_why)
    if os.environ.get("BPFPROBE_REQUIRE_LIVE") not in (None, "", "uprobe"):
        lit_config.fatal("BPFPROBE_REQUIRE_LIVE=1 (CI) but the fuzz replay tests "
                         "cannot run: %s" % fuzzers_why)
else:
    lit_config.note("fuzzers available: the fuzz replay tests run (each input once)")

# Kernel probes run in a QEMU guest booting Debian's cloud kernel
# (utils/kernel-guest.py; the host kernel has no kprobes). The feature holds
# when qemu, a static busybox, perf and the kernels pinned in
# utils/kernel-guest.pins are unpacked, at the pinned versions.
kernel_guest = os.path.join(config.bpfprobe_src_root, "utils", "kernel-guest.py")
for var in ("BPFPROBE_KERNEL_CACHE", "BPFPROBE_KERNEL_PINS", "BPFPROBE_GUEST_ACCEL"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
kguest_info = {}
try:
    out = subprocess.run([sys.executable, kernel_guest, "info"], capture_output=True,
                         text=True, timeout=30).stdout
    kguest_info = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
except Exception as e:
    kguest_info = {"missing": "utils/kernel-guest.py info failed: %s" % e}
kguest_missing = kguest_info.get("missing", "utils/kernel-guest.py info printed nothing")
config.kernel_guest_info = kguest_info  # test/Kernel/lit.local.cfg: the newer kernel
# BPFPROBE_KERNEL_GUEST=0 leaves the guest out of a run (CI's sanitizer job:
# what it checks runs on the host; the other jobs boot the guest).
if os.environ.get("BPFPROBE_KERNEL_GUEST") == "0":
    kguest_missing = "BPFPROBE_KERNEL_GUEST=0"
if not kguest_missing:
    config.available_features.add("kernel-guest")
    kguest = "%s %s run --run-binary %s" % (
        sys.executable, kernel_guest, os.path.join(config.bpfprobe_bin_dir, "bpfprobe-run"))
    config.substitutions.append(("%kernel_guest", kguest))
    config.substitutions.append(("%kernel_release", kguest_info["release"]))
    config.substitutions.append(("%kernel_vmlinux", kguest_info["vmlinux"]))
    config.substitutions.append(("%kernel_modules", kguest_info["modules"]))
    config.substitutions.append(("%kernel_debug_modules", kguest_info["debug_modules"]))
    config.substitutions.append(("%kernel_stale_modules", kguest_info.get("stale_modules", "")))
    # The referee's plans: perf probe on the host, for the guest's vmlinux.
    config.substitutions.append(("%perf_probe_plan", "%s %s %s" % (
        sys.executable, os.path.join(config.test_source_root, "Kernel", "Inputs", "perf-plan.py"),
        kguest_info["vmlinux"])))
    lit_config.note("kernel-guest available: kernel probe tests run in a QEMU guest "
                    "(%s, %s) booting Debian's %s (%s, pinned)" % (
                        kguest_info["accel"].upper(),
                        "KVM" if kguest_info["accel"] == "kvm" else "no KVM",
                        kguest_info["release"], kguest_info.get("version", "?")))
else:
    lit_config.note("kernel-guest NOT available: kernel probe tests are SKIPPED (%s; "
                    "utils/bootstrap.sh test installs and prepares them)" % kguest_missing)
# BPFPROBE_REQUIRE_LIVE=1 requires both live kinds; =uprobe only uprobes.
if (os.environ.get("BPFPROBE_REQUIRE_LIVE") not in (None, "", "uprobe") and
        "kernel-guest" not in config.available_features):
    lit_config.fatal("BPFPROBE_REQUIRE_LIVE is set but the kernel-guest tests cannot run: %s"
                     % kguest_missing)
# One guest at a time: each is a whole machine on this one's cores.
lit_config.parallelism_groups["kernel-guest"] = 1

# A real debuginfod server (elfutils) for test/DebugInfo/debuginfod*.test.
if shutil.which("debuginfod", path=config.environment["PATH"]):
    config.available_features.add("debuginfod")

# A clang of another LLVM major, to test that the plugin refuses to load.
for other in ("19", "22"):
    other_clang = "/usr/lib/llvm-%s/bin/clang" % other
    if other != config.llvm_version_major and os.path.exists(other_clang):
        config.available_features.add("other-clang")
        config.substitutions.append(("%other_clang", other_clang))
        break

# libc++ of the same LLVM (apt's libc++-N-dev), for the libc++ layout tests:
# `%clang_host -stdlib=libc++` finds its headers and library beside clang.
libcxx_dir = os.path.normpath(os.path.join(tools, "..", "include", "c++", "v1"))
if os.path.exists(os.path.join(libcxx_dir, "string")) and os.path.exists(
        os.path.normpath(os.path.join(tools, "..", "lib", "libc++.so"))):
    config.available_features.add("libcxx")

# Debian's rustc (apt's, not a rustup toolchain), for the Rust live tests.
if os.path.exists("/usr/bin/rustc"):
    config.available_features.add("rustc")
    config.substitutions.append(("%rustc", "/usr/bin/rustc"))
