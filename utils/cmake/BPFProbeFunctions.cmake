# bpfprobe_add_object(): build a BPF object with the bpfprobe plugin inside a
# project whose other targets are ordinary host C/C++ code. Loaded by
# find_package(BPFProbe) (BPFProbeConfig.cmake), which sets the variables it
# uses: BPFProbe_CLANG, BPFProbe_PLUGIN, BPFProbe_INCLUDE_DIRS,
# BPFProbe_BPF_INCLUDE_DIRS, BPFProbe_TARGET_ARCH, BPFProbe_BPFTOOL.
#
#   bpfprobe_add_object(<name>
#     SOURCES <file>...                 one .bpf.c, or several (linked into
#                                       one object with `bpftool gen object`)
#     [SKELETON]                        also generate <name>.skel.h with
#                                       `bpftool gen skeleton` and an
#                                       INTERFACE library <name>_skel to link
#     [DEBUGINFO <file>|<target>]       -fplugin-arg-bpfprobe-debuginfo=: the
#                                       binary (or debug file) the annotations
#                                       are resolved against; a target of this
#                                       project means its output file, and the
#                                       object is rebuilt when it changes
#     [ARCH <arch>]                     architecture of the probed code
#                                       (x86_64, arm64, ...; default: host):
#                                       __TARGET_ARCH_<arch>, the plugin's ABI
#                                       table and that arch's asm/ headers
#     [INCLUDE_DIRECTORIES <dir>...]    more -I for the BPF compile
#     [COMPILE_DEFINITIONS <def>...]    -D for the BPF compile (generator
#                                       expressions allowed, e.g.
#                                       APP="$<TARGET_FILE:app>")
#     [COMPILE_OPTIONS <opt>...]        any other clang flags
#     [DEPENDS <file>|<target>...]      rebuild the object when these change
#     [PRINT_PLAN])                     print each site's fetch plan in the
#                                       build log (kprobe_events syntax)
#
# Results:
#   ${CMAKE_CURRENT_BINARY_DIR}/<name>.bpf.o     the object (bpfprobe-run,
#                                                bpftool, libbpf take it)
#   target <name>                                builds it (part of ALL);
#                                                properties BPFPROBE_OBJECT and
#                                                BPFPROBE_SKELETON hold the paths
#   ${CMAKE_CURRENT_BINARY_DIR}/bpfprobe-skel/<name>.skel.h   with SKELETON
#   target <name>_skel                           with SKELETON: INTERFACE
#                                                library with the skeleton's
#                                                include dir and libbpf;
#                                                linking it builds the skeleton
#                                                first
#
# The compile is always `clang --target=bpf -g -O2` (BTF needs -g, the verifier
# -O2), whatever CMAKE_BUILD_TYPE says; header dependencies are tracked.
include_guard(GLOBAL)

function(bpfprobe_add_object name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SKELETON;PRINT_PLAN"
    "DEBUGINFO;ARCH"
    "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;DEPENDS")
  set(fn "bpfprobe_add_object(${name})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unexpected arguments '${ARG_UNPARSED_ARGUMENTS}'; "
      "expected SOURCES, SKELETON, DEBUGINFO, ARCH, INCLUDE_DIRECTORIES, "
      "COMPILE_DEFINITIONS, COMPILE_OPTIONS, DEPENDS or PRINT_PLAN")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${fn}: no SOURCES; give the .bpf.c file(s) to compile")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    # bpftool uses the name for the skeleton's struct and functions.
    message(FATAL_ERROR "${fn}: the name must be a C identifier "
      "([A-Za-z_][A-Za-z0-9_]*): it names the skeleton's struct and functions")
  endif()
  if(NOT BPFProbe_CLANG OR NOT BPFProbe_PLUGIN)
    message(FATAL_ERROR "${fn}: call find_package(BPFProbe) first")
  endif()
  list(LENGTH ARG_SOURCES nsources)
  if((ARG_SKELETON OR nsources GREATER 1) AND NOT BPFProbe_BPFTOOL)
    message(FATAL_ERROR "${fn}: bpftool not found, needed for "
      "SKELETON and for linking several sources; install bpftool or set BPFProbe_BPFTOOL")
  endif()

  # Architecture: libbpf's macro name, and the plugin's ABI table.
  set(arch "${BPFProbe_TARGET_ARCH}")
  set(plugin_args)
  if(ARG_ARCH)
    bpfprobe_target_arch(arch "${ARG_ARCH}")
    if(NOT arch)
      message(FATAL_ERROR "${fn}: unknown ARCH '${ARG_ARCH}'; expected a "
        "processor name such as x86_64, aarch64/arm64, s390x, ppc64le, riscv64")
    endif()
    list(APPEND plugin_args "-fplugin-arg-bpfprobe-arch=${ARG_ARCH}")
  endif()
  set(include_flags)
  foreach(dir IN LISTS ARG_INCLUDE_DIRECTORIES BPFProbe_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND include_flags "-I${dir}")
  endforeach()
  bpfprobe_libbpf_include_dirs(libbpf_dirs)
  foreach(dir IN LISTS libbpf_dirs)
    list(APPEND include_flags "-I${dir}")
  endforeach()
  bpfprobe_find_asm_include_dir(asm_dir "${BPFProbe_CLANG}" "${arch}")
  if(NOT asm_dir AND ARG_ARCH)
    message(WARNING "${fn}: no asm/types.h for ARCH ${ARG_ARCH} (${arch}); "
      "using the host's. Install that architecture's uapi headers (Debian: "
      "linux-libc-dev-<arch>-cross) or set BPFPROBE_ASM_INCLUDE_DIR_${arch}")
    bpfprobe_find_asm_include_dir(asm_dir "${BPFProbe_CLANG}" "")
  endif()
  if(asm_dir)
    # After the system dirs, as libbpf-bootstrap does: never shadows the
    # project's own headers (vmlinux.h etc.).
    list(APPEND include_flags -idirafter "${asm_dir}")
  endif()

  set(deps ${ARG_DEPENDS})
  if(ARG_DEBUGINFO)
    if(TARGET "${ARG_DEBUGINFO}")
      list(APPEND plugin_args "-fplugin-arg-bpfprobe-debuginfo=$<TARGET_FILE:${ARG_DEBUGINFO}>")
      list(APPEND deps "${ARG_DEBUGINFO}")
    else()
      get_filename_component(debuginfo "${ARG_DEBUGINFO}" ABSOLUTE)
      list(APPEND plugin_args "-fplugin-arg-bpfprobe-debuginfo=${debuginfo}")
      if(EXISTS "${debuginfo}")
        list(APPEND deps "${debuginfo}")
      endif()
    endif()
  endif()
  if(ARG_PRINT_PLAN)
    list(APPEND plugin_args -fplugin-arg-bpfprobe-print-plan)
  endif()
  set(defs)
  foreach(d IN LISTS ARG_COMPILE_DEFINITIONS)
    list(APPEND defs "-D${d}")
  endforeach()

  set(flags --target=bpf -g -O2 "-D__TARGET_ARCH_${arch}"
    "-fplugin=${BPFProbe_PLUGIN}" ${plugin_args}
    ${include_flags} ${defs} ${ARG_COMPILE_OPTIONS})

  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.bpf.o")
  set(objdir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.bpfprobe.dir")
  file(MAKE_DIRECTORY "${objdir}")
  set(objects)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE)
    get_filename_component(base "${src}" NAME)
    if(nsources EQUAL 1)
      set(obj "${out}")
    else()
      set(obj "${objdir}/${base}.o")
    endif()
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${obj}")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${BPFProbe_CLANG}" ${flags} -MD -MF "${objdir}/${base}.d"
              -MT "${obj}" -c "${src}" -o "${obj}"
      DEPENDS "${src}" ${deps}
      DEPFILE "${objdir}/${base}.d"
      COMMENT "Building BPF object ${shown} (bpfprobe, clang ${BPFProbe_LLVM_VERSION_MAJOR})"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()
  if(nsources GREATER 1)
    add_custom_command(OUTPUT "${out}"
      COMMAND "${BPFProbe_BPFTOOL}" gen object "${out}" ${objects}
      DEPENDS ${objects}
      COMMENT "Linking BPF object ${name}.bpf.o"
      VERBATIM)
  endif()

  set(outputs "${out}")
  set(skel "")
  if(ARG_SKELETON)
    set(skel "${CMAKE_CURRENT_BINARY_DIR}/bpfprobe-skel/${name}.skel.h")
    add_custom_command(OUTPUT "${skel}"
      COMMAND "${CMAKE_COMMAND}" "-DBPFTOOL=${BPFProbe_BPFTOOL}"
              "-DOBJECT=${out}" "-DNAME=${name}" "-DOUTPUT=${skel}"
              -P "${BPFPROBE_CMAKE_DIR}/BPFProbeSkeleton.cmake"
      DEPENDS "${out}" "${BPFPROBE_CMAKE_DIR}/BPFProbeSkeleton.cmake"
      COMMENT "Generating BPF skeleton ${name}.skel.h"
      VERBATIM)
    list(APPEND outputs "${skel}")
  endif()

  add_custom_target(${name} ALL DEPENDS ${outputs})
  set_target_properties(${name} PROPERTIES
    BPFPROBE_OBJECT "${out}"
    BPFPROBE_SKELETON "${skel}")

  if(ARG_SKELETON)
    add_library(${name}_skel INTERFACE)
    target_include_directories(${name}_skel INTERFACE
      "${CMAKE_CURRENT_BINARY_DIR}/bpfprobe-skel")
    target_link_libraries(${name}_skel INTERFACE PkgConfig::LIBBPF)
    add_dependencies(${name}_skel ${name})
  endif()
endfunction()
