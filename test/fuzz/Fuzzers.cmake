# libFuzzer targets for the plan text, ELF/DWARF through the resolver and the
# runtime's record stream, included from test/fuzz/CMakeLists.txt. Like the
# spec and metadata fuzzers they are built by the clang of the LLVM we build
# against (the host compiler may be gcc), with libFuzzer, ASan and UBSan.
# The C++ fuzzers link an instrumented copy of BPFProbeCore's sources, built
# here one object per source (BPFProbeCore itself is built by the host
# compiler without instrumentation).
#
#   ninja -C build bpfprobe-plan-fuzzer bpfprobe-dwarf-fuzzer bpfprobe-record-fuzzer
#   utils/fuzz-campaign.sh plan|dwarf|record|tracepage [SEEDS] [RUNS]   campaigns
#
# test/Pass/plan-fuzz.test, test/Dwarf/dwarf-fuzz.test,
# test/Runtime/record-fuzz.test and test/Runtime/tracepage-fuzz.test replay
# their corpora (and regress-dwarf), each input once, when they were built.

set(fz_cc ${LLVM_TOOLS_BINARY_DIR}/clang)
set(fz_cxx ${LLVM_TOOLS_BINARY_DIR}/clang++)
set(fz_ar ${LLVM_TOOLS_BINARY_DIR}/llvm-ar)
set(fz_rt_dir ${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}/lib)
file(GLOB fz_rt
  ${fz_rt_dir}/linux/libclang_rt.fuzzer-${CMAKE_SYSTEM_PROCESSOR}.a
  ${fz_rt_dir}/${CMAKE_SYSTEM_PROCESSOR}-*linux*/libclang_rt.fuzzer.a)
set(fz_libllvm ${LLVM_LIBRARY_DIR}/libLLVM.so)
if(NOT EXISTS ${fz_cxx} OR NOT EXISTS ${fz_ar} OR NOT fz_rt OR NOT EXISTS ${fz_libllvm})
  message(STATUS "bpfprobe: not building the plan, DWARF and record fuzzers: "
    "need ${fz_cxx}, ${fz_ar}, ${fz_libllvm} and libclang_rt.fuzzer "
    "(libclang-rt-${LLVM_VERSION_MAJOR}-dev)")
  return()
endif()

set(fz_flags -g -O1 -Wall -Wno-unused-parameter
  -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined)
set(fz_link_flags -fsanitize=fuzzer,address,undefined)
separate_arguments(fz_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
set(fz_includes -I${PROJECT_SOURCE_DIR}/lib -I${PROJECT_SOURCE_DIR}/include)
foreach(dir ${LLVM_INCLUDE_DIRS})
  list(APPEND fz_includes -isystem ${dir})
endforeach()
set(fz_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz-core)

# The libraries' sources (lib/CMakeLists.txt), instrumented.
get_property(fz_core_sources GLOBAL PROPERTY BPFPROBE_LIBRARY_SOURCES)
set(fz_core_objects "")
foreach(src ${fz_core_sources})
  get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR}/lib)
  string(REPLACE "/" "_" obj ${src})
  set(obj ${fz_dir}/${obj}.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${fz_dir}
    COMMAND ${fz_cxx} -std=c++17 -fno-rtti -fno-exceptions ${fz_flags}
      ${fz_defs} ${fz_includes} -MD -MF ${obj}.d -c ${abs} -o ${obj}
    DEPENDS ${abs}
    DEPFILE ${obj}.d
    COMMENT "Building ${src} for the fuzzers"
    VERBATIM)
  list(APPEND fz_core_objects ${obj})
endforeach()
set(fz_core ${fz_dir}/libbpfprobe-fuzz-core.a)
add_custom_command(OUTPUT ${fz_core}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${fz_core}
  COMMAND ${fz_ar} rcs ${fz_core} ${fz_core_objects}
  DEPENDS ${fz_core_objects}
  COMMENT "Archiving BPFProbeCore for the fuzzers"
  VERBATIM)

# The resolver's BTF source reads BTF through libbpf.
set(fz_bpf_libs "")
foreach(dir ${LIBBPF_LIBRARY_DIRS})
  list(APPEND fz_bpf_libs -L${dir})
endforeach()
list(APPEND fz_bpf_libs -lbpf)

set(BPFPROBE_NEW_FUZZERS "")
foreach(name plan dwarf)
  set(out ${PROJECT_BINARY_DIR}/bin/bpfprobe-${name}-fuzzer)
  set(src ${CMAKE_CURRENT_LIST_DIR}/${name}-fuzzer.cpp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/bin
    COMMAND ${fz_cxx} -std=c++17 -fno-rtti -fno-exceptions ${fz_flags}
      ${fz_link_flags} ${fz_defs} ${fz_includes} -MD -MF ${out}.d
      ${src} ${fz_core} ${fz_libllvm} ${fz_bpf_libs}
      -Wl,-rpath,${LLVM_LIBRARY_DIR} -o ${out}
    DEPENDS ${src} ${fz_core}
    DEPFILE ${out}.d
    COMMENT "Building libFuzzer target bpfprobe-${name}-fuzzer"
    VERBATIM)
  add_custom_target(bpfprobe-${name}-fuzzer ALL DEPENDS ${out})
  list(APPEND BPFPROBE_NEW_FUZZERS bpfprobe-${name}-fuzzer)
endforeach()

# The record stream: RecordStream.c is compiled into the fuzzer (its ring
# buffer callback is static), with the reader and formatter beside it.
set(out ${PROJECT_BINARY_DIR}/bin/bpfprobe-record-fuzzer)
set(rec_sources
  ${CMAKE_CURRENT_LIST_DIR}/record-fuzzer.c
  ${PROJECT_SOURCE_DIR}/lib/Runtime/RecordFormat.c
  ${PROJECT_SOURCE_DIR}/lib/Runtime/MetadataReader.c
  ${PROJECT_SOURCE_DIR}/lib/Runtime/Print.c)
set(rec_includes -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/lib)
foreach(dir ${LIBBPF_INCLUDE_DIRS})
  list(APPEND rec_includes -I${dir})
endforeach()
set(rec_libs "")
foreach(dir ${LIBBPF_LIBRARY_DIRS})
  list(APPEND rec_libs -L${dir})
endforeach()
add_custom_command(OUTPUT ${out}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/bin
  COMMAND ${fz_cc} -std=gnu11 ${fz_flags} ${fz_link_flags} ${rec_includes}
    -MD -MF ${out}.d ${rec_sources} ${rec_libs} -lbpf -o ${out}
  # One depfile cannot list the headers of several sources: name the
  # sources the fuzzer includes, and the runtime's headers, here.
  DEPENDS ${rec_sources} ${PROJECT_SOURCE_DIR}/lib/Runtime/RecordStream.c
    ${PROJECT_SOURCE_DIR}/lib/Runtime/Internal.h
    ${PROJECT_SOURCE_DIR}/lib/Support/Escape.h
  DEPFILE ${out}.d
  COMMENT "Building libFuzzer target bpfprobe-record-fuzzer"
  VERBATIM)
add_custom_target(bpfprobe-record-fuzzer ALL DEPENDS ${out})
list(APPEND BPFPROBE_NEW_FUZZERS bpfprobe-record-fuzzer)

# The trace-page parser: one source, no libbpf.
set(out ${PROJECT_BINARY_DIR}/bin/bpfprobe-tracepage-fuzzer)
set(tp_sources
  ${CMAKE_CURRENT_LIST_DIR}/tracepage-fuzzer.c
  ${PROJECT_SOURCE_DIR}/lib/Runtime/TracePage.c)
add_custom_command(OUTPUT ${out}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/bin
  COMMAND ${fz_cc} -std=gnu11 ${fz_flags} ${fz_link_flags} ${rec_includes}
    ${tp_sources} -o ${out}
  DEPENDS ${tp_sources} ${PROJECT_SOURCE_DIR}/lib/Runtime/Internal.h
  COMMENT "Building libFuzzer target bpfprobe-tracepage-fuzzer"
  VERBATIM)
add_custom_target(bpfprobe-tracepage-fuzzer ALL DEPENDS ${out})
list(APPEND BPFPROBE_NEW_FUZZERS bpfprobe-tracepage-fuzzer)

if(TARGET check-bpfprobe)
  add_dependencies(check-bpfprobe ${BPFPROBE_NEW_FUZZERS})
endif()
