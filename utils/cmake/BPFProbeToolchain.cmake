# BPFProbeToolchain.cmake: a CMake toolchain for projects whose targets are
# all BPF objects built with the bpfprobe plugin.
#
#   cmake -S . -B build \
#     -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/BPFProbe/BPFProbeToolchain.cmake
#
#   project(probes C)
#   add_executable(trace trace.bpf.c)        # -> build/trace.bpf.o, linked with
#                                            #    `bpftool gen object`
#   add_library(parts OBJECT a.bpf.c)        # or plain objects
#
# The C compiler becomes the clang of the LLVM major the plugin was built for
# (it refuses any other), with
#   --target=bpf -g -O2 -fplugin=<prefix>/lib/bpfprobe/libbpfprobe.so
#   -D__TARGET_ARCH_<host arch>    (what libbpf's bpf_tracing.h and the plugin read)
#   -I<prefix>/include             (bpfprobe/bpfprobe.h)
#   -idirafter <asm dir>           (asm/types.h: /usr/include/<multiarch> on Debian)
#   libbpf's include dirs          (pkg-config; none when in /usr/include)
# and every build type compiles with those flags (BPF needs -O2 and -g, not
# CMAKE_BUILD_TYPE's -O3/-O0).
#
# Cache variables:
#   BPFPROBE_CLANG            clang to use; must be the plugin's LLVM major
#   BPFPROBE_TARGET_ARCH      probed code's architecture: x86_64, arm64, ...
#                             (default: the host's)
#   BPFPROBE_DEBUGINFO        -fplugin-arg-bpfprobe-debuginfo= for every target
#                             (per target: target_compile_options)
#   BPFPROBE_ASM_INCLUDE_DIR  the asm/types.h directory, if detection fails
#
# Projects that also build host programs (a loader with a skeleton) use
# find_package(BPFProbe) and bpfprobe_add_object() instead.

include("${CMAKE_CURRENT_LIST_DIR}/BPFProbePaths.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/BPFProbeFindTools.cmake")

bpfprobe_find_clang(_bpfprobe_clang _bpfprobe_err)
if(NOT _bpfprobe_clang)
  # Indented: CMake prints it as one unwrapped line.
  message(FATAL_ERROR "BPFProbeToolchain.cmake cannot use a clang:\n  ${_bpfprobe_err}")
endif()

if(BPFPROBE_TARGET_ARCH)
  bpfprobe_target_arch(_bpfprobe_arch "${BPFPROBE_TARGET_ARCH}")
  if(NOT _bpfprobe_arch)
    message(FATAL_ERROR "BPFProbeToolchain.cmake: unknown BPFPROBE_TARGET_ARCH "
      "'${BPFPROBE_TARGET_ARCH}'; expected x86_64, aarch64/arm64, s390x, ppc64le, riscv64, ...")
  endif()
else()
  bpfprobe_target_arch(_bpfprobe_arch "${CMAKE_HOST_SYSTEM_PROCESSOR}")
  if(NOT _bpfprobe_arch)
    message(FATAL_ERROR "BPFProbeToolchain.cmake: libbpf has no __TARGET_ARCH_ "
      "name for this host's processor '${CMAKE_HOST_SYSTEM_PROCESSOR}'; set BPFPROBE_TARGET_ARCH")
  endif()
endif()
bpfprobe_find_asm_include_dir(_bpfprobe_asm "${_bpfprobe_clang}" "${_bpfprobe_arch}")
if(NOT _bpfprobe_asm)
  message(WARNING "BPFProbeToolchain.cmake: clang finds no asm/types.h for "
    "${_bpfprobe_arch}; <linux/*.h> will not compile. Install the uapi "
    "headers (Debian: linux-libc-dev) or set BPFPROBE_ASM_INCLUDE_DIR")
endif()
bpfprobe_libbpf_include_dirs(_bpfprobe_libbpf_dirs)

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR bpf)
set(CMAKE_C_COMPILER "${_bpfprobe_clang}")
set(CMAKE_C_COMPILER_TARGET bpf)
# Nothing links BPF code into an executable: check the compiler with a
# static library, and "link" executables with libbpf's static linker.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
  BPFPROBE_CLANG BPFPROBE_TARGET_ARCH BPFPROBE_DEBUGINFO BPFPROBE_ASM_INCLUDE_DIR)

string(JOIN " " CMAKE_C_FLAGS_INIT
  -g -O2 "-D__TARGET_ARCH_${_bpfprobe_arch}" "-fplugin=${BPFPROBE_PLUGIN}")
if(BPFPROBE_TARGET_ARCH)
  string(APPEND CMAKE_C_FLAGS_INIT " -fplugin-arg-bpfprobe-arch=${BPFPROBE_TARGET_ARCH}")
endif()
if(BPFPROBE_DEBUGINFO)
  string(APPEND CMAKE_C_FLAGS_INIT " -fplugin-arg-bpfprobe-debuginfo=${BPFPROBE_DEBUGINFO}")
endif()
if(_bpfprobe_asm)
  string(APPEND CMAKE_C_FLAGS_INIT " -idirafter ${_bpfprobe_asm}")
endif()
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${BPFPROBE_INCLUDE_DIR}" ${_bpfprobe_libbpf_dirs})
# The build type must not add -O3 or drop -O2: an empty cache default wins
# over the compiler's (still overridable on the command line).
foreach(_bpfprobe_config DEBUG RELEASE RELWITHDEBINFO MINSIZEREL)
  set(CMAKE_C_FLAGS_${_bpfprobe_config} "" CACHE STRING
    "BPF objects: flags come from BPFProbeToolchain.cmake (-g -O2)")
endforeach()

find_program(BPFPROBE_BPFTOOL NAMES bpftool PATHS /usr/sbin /usr/local/sbin /sbin
  DOC "bpftool: links BPF objects (gen object) and writes skeletons")
set(CMAKE_EXECUTABLE_SUFFIX_C .bpf.o)
set(CMAKE_EXECUTABLE_SUFFIX .bpf.o)
if(BPFPROBE_BPFTOOL)
  set(CMAKE_C_LINK_EXECUTABLE "\"${BPFPROBE_BPFTOOL}\" gen object <TARGET> <OBJECTS>")
else()
  set(CMAKE_C_LINK_EXECUTABLE
    "\"${CMAKE_COMMAND}\" -E echo \"bpftool not found: it links BPF objects; install it or use add_library(OBJECT)\" && \"${CMAKE_COMMAND}\" -E false")
endif()

unset(_bpfprobe_clang)
unset(_bpfprobe_err)
unset(_bpfprobe_arch)
unset(_bpfprobe_asm)
unset(_bpfprobe_libbpf_dirs)
unset(_bpfprobe_config)
