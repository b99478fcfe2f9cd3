# What a BPF compile with the bpfprobe plugin needs from the machine, found the
# same way by the toolchain file (BPFProbeToolchain.cmake) and the package
# (BPFProbeConfig.cmake):
#
#   bpfprobe_find_clang(<out> <err>)        clang of the LLVM major the plugin
#                                           was built for (BPFPROBE_CLANG)
#   bpfprobe_target_arch(<out> <processor>) libbpf's __TARGET_ARCH_<name>
#   bpfprobe_find_asm_include_dir(<out> <clang> <arch>)
#                                           the uapi directory with asm/types.h
#                                           (/usr/include/<multiarch> on Debian)
#   bpfprobe_libbpf_include_dirs(<out>)     libbpf's headers per pkg-config
#
# Nothing here is a hand-written path: clang is looked for where the bpfprobe
# build found LLVM, through llvm-config-<major>, in the Debian/Ubuntu
# /usr/lib/llvm-<major> layout and on PATH, and is accepted only if its
# --version says the right major; the asm directory is wherever that clang's
# own preprocessor finds asm/types.h for the target's triple.
#
# Needs BPFPROBE_LLVM_VERSION_MAJOR and BPFPROBE_LLVM_TOOLS_HINT
# (BPFProbePaths.cmake sets both).
include_guard(GLOBAL)

# Sets <out> to the major version of <clang>, or -1.
function(_bpfprobe_clang_major out clang)
  set(major -1)
  if(EXISTS "${clang}")
    execute_process(COMMAND "${clang}" --version
      OUTPUT_VARIABLE text ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND text MATCHES "clang version ([0-9]+)\\.")
      set(major ${CMAKE_MATCH_1})
    endif()
  endif()
  set(${out} ${major} PARENT_SCOPE)
endfunction()

# Sets <out> to the clang whose major is BPFPROBE_LLVM_VERSION_MAJOR and
# caches it as BPFPROBE_CLANG. On failure <out> is empty and <err> says why.
# A BPFPROBE_CLANG given by the user is checked, never replaced.
function(bpfprobe_find_clang out err)
  set(want ${BPFPROBE_LLVM_VERSION_MAJOR})
  set(${out} "" PARENT_SCOPE)
  set(${err} "" PARENT_SCOPE)
  if(BPFPROBE_CLANG)
    _bpfprobe_clang_major(have "${BPFPROBE_CLANG}")
    if(NOT have EQUAL want)
      string(CONCAT msg "BPFPROBE_CLANG=${BPFPROBE_CLANG} is clang ${have}, "
        "but this bpfprobe was built for clang ${want} (the plugin only loads "
        "into the clang it was built against); point BPFPROBE_CLANG at clang "
        "${want} or rebuild bpfprobe with -DBPFPROBE_LLVM_VERSION=${have}")
      set(${err} "${msg}" PARENT_SCOPE)
      return()
    endif()
    set(${out} "${BPFPROBE_CLANG}" PARENT_SCOPE)
    return()
  endif()

  set(candidates)
  if(BPFPROBE_LLVM_TOOLS_HINT)
    list(APPEND candidates "${BPFPROBE_LLVM_TOOLS_HINT}/clang")
  endif()
  find_program(llvm_config NAMES llvm-config-${want} llvm-config NO_CACHE)
  if(llvm_config)
    execute_process(COMMAND "${llvm_config}" --bindir
      OUTPUT_VARIABLE bindir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(bindir)
      list(APPEND candidates "${bindir}/clang")
    endif()
  endif()
  list(APPEND candidates "/usr/lib/llvm-${want}/bin/clang")
  find_program(on_path_versioned NAMES clang-${want} NO_CACHE)
  find_program(on_path NAMES clang NO_CACHE)
  list(APPEND candidates "${on_path_versioned}" "${on_path}")

  set(seen)
  foreach(c IN LISTS candidates)
    if(NOT c OR NOT EXISTS "${c}")
      continue()
    endif()
    _bpfprobe_clang_major(have "${c}")
    if(have EQUAL want)
      set(BPFPROBE_CLANG "${c}" CACHE FILEPATH
        "clang used for BPF objects (must be clang ${want}, the version bpfprobe was built for)")
      set(${out} "${c}" PARENT_SCOPE)
      return()
    endif()
    list(APPEND seen "${c} (clang ${have})")
  endforeach()
  list(JOIN seen ", " seen)
  if(NOT seen)
    set(seen "none")
  endif()
  string(CONCAT msg "no clang ${want} found (bpfprobe was built for LLVM "
    "${want}; looked at: ${seen}); install clang-${want} or set BPFPROBE_CLANG")
  set(${err} "${msg}" PARENT_SCOPE)
endfunction()

# Sets <out> to libbpf's __TARGET_ARCH_ name for a processor name as CMake,
# uname or the plugin spell it (x86_64, AMD64, aarch64, arm64, ...), or to ""
# when it is not one libbpf knows.
function(bpfprobe_target_arch out processor)
  string(TOLOWER "${processor}" p)
  set(arch "")
  if(p MATCHES "^(x86_64|amd64|x86|x86-64|i[3-6]86)$")
    set(arch x86)
  elseif(p MATCHES "^(aarch64|arm64)")
    set(arch arm64)
  elseif(p MATCHES "^arm")
    set(arch arm)
  elseif(p MATCHES "^s390")
    set(arch s390)
  elseif(p MATCHES "^(ppc|powerpc)")
    set(arch powerpc)
  elseif(p MATCHES "^mips")
    set(arch mips)
  elseif(p MATCHES "^riscv")
    set(arch riscv)
  elseif(p MATCHES "^loongarch")
    set(arch loongarch)
  elseif(p MATCHES "^sparc")
    set(arch sparc)
  endif()
  set(${out} "${arch}" PARENT_SCOPE)
endfunction()

# A Linux triple for each libbpf arch: what to ask clang for that arch's
# uapi headers (Debian installs them in /usr/include/<multiarch>).
set(_BPFPROBE_ARCH_TRIPLE_x86 x86_64-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_arm64 aarch64-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_arm arm-linux-gnueabihf)
set(_BPFPROBE_ARCH_TRIPLE_s390 s390x-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_powerpc powerpc64le-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_mips mips64el-linux-gnuabi64)
set(_BPFPROBE_ARCH_TRIPLE_riscv riscv64-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_loongarch loongarch64-linux-gnu)
set(_BPFPROBE_ARCH_TRIPLE_sparc sparc64-linux-gnu)

# Sets <out> to the directory that holds asm/types.h for libbpf arch <arch>
# (the host's when <arch> is the host's), as <clang>'s preprocessor finds
# it, and caches it as BPFPROBE_ASM_INCLUDE_DIR (host) or
# BPFPROBE_ASM_INCLUDE_DIR_<arch>. "" when clang cannot find one: BPF
# programs that include <linux/*.h> will then fail with 'asm/types.h' not
# found (on Debian: install linux-libc-dev, or linux-libc-dev-<arch>-cross).
function(bpfprobe_find_asm_include_dir out clang arch)
  bpfprobe_target_arch(host_arch "${CMAKE_HOST_SYSTEM_PROCESSOR}")
  if(NOT arch OR arch STREQUAL host_arch)
    set(var BPFPROBE_ASM_INCLUDE_DIR)
    set(target_flag)
  else()
    set(var BPFPROBE_ASM_INCLUDE_DIR_${arch})
    set(target_flag "--target=${_BPFPROBE_ARCH_TRIPLE_${arch}}")
  endif()
  if(DEFINED ${var})
    set(${out} "${${var}}" PARENT_SCOPE)
    return()
  endif()
  set(dir "")
  execute_process(
    COMMAND "${clang}" ${target_flag} -M -x c /dev/null -include asm/types.h
    OUTPUT_VARIABLE deps ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND deps MATCHES "[ \t]([^ \t\r\n\\\\]+)/asm/types\\.h")
    set(dir "${CMAKE_MATCH_1}")
  endif()
  if(dir)
    set(${var} "${dir}" CACHE PATH "directory of asm/types.h for BPF compiles (${arch})")
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

# Sets <out> to the include directories pkg-config gives for libbpf (none
# when its headers are in the default /usr/include, as on Debian).
function(bpfprobe_libbpf_include_dirs out)
  set(dirs)
  find_program(pkg_config NAMES pkg-config pkgconf NO_CACHE)
  if(pkg_config)
    execute_process(COMMAND "${pkg_config}" --cflags-only-I libbpf
      OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
      RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND flags)
      separate_arguments(flags UNIX_COMMAND "${flags}")
      foreach(f IN LISTS flags)
        if(f MATCHES "^-I(.+)$")
          list(APPEND dirs "${CMAKE_MATCH_1}")
        endif()
      endforeach()
    endif()
  endif()
  set(${out} "${dirs}" PARENT_SCOPE)
endfunction()
