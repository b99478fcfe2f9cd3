# libFuzzer target for the runtime's metadata reader (test/fuzz/metadata-fuzzer.c),
# included from test/fuzz/CMakeLists.txt. The host compiler may be gcc, so it is
# compiled and linked in one custom command by the clang of the LLVM we build
# against, with libFuzzer, ASan and UBSan, from the reader's own C sources
# (they need libc and libbpf's headers only).
#
#   ninja -C build bpfprobe-metadata-fuzzer
#   utils/fuzz-campaign.sh metadata [SEEDS] [RUNS]     mutation campaigns
#
# test/Runtime/metadata-fuzz.test replays its corpus when it was built.

set(BPFPROBE_MDFUZZ_CC ${LLVM_TOOLS_BINARY_DIR}/clang)
set(BPFPROBE_MDFUZZ_RT_DIR ${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}/lib)
file(GLOB BPFPROBE_MDFUZZ_RT
  ${BPFPROBE_MDFUZZ_RT_DIR}/linux/libclang_rt.fuzzer-${CMAKE_SYSTEM_PROCESSOR}.a
  ${BPFPROBE_MDFUZZ_RT_DIR}/${CMAKE_SYSTEM_PROCESSOR}-*linux*/libclang_rt.fuzzer.a)

if(NOT EXISTS ${BPFPROBE_MDFUZZ_CC} OR NOT BPFPROBE_MDFUZZ_RT)
  message(STATUS "bpfprobe: not building bpfprobe-metadata-fuzzer: needs "
    "${BPFPROBE_MDFUZZ_CC} and libclang_rt.fuzzer (libclang-rt-${LLVM_VERSION_MAJOR}-dev)")
else()
  set(BPFPROBE_METADATA_FUZZER ${PROJECT_BINARY_DIR}/bin/bpfprobe-metadata-fuzzer)
  set(mdfuzz_sources
    ${CMAKE_CURRENT_LIST_DIR}/metadata-fuzzer.c
    ${PROJECT_SOURCE_DIR}/lib/Runtime/MetadataReader.c
    ${PROJECT_SOURCE_DIR}/lib/Runtime/RecordFormat.c
    ${PROJECT_SOURCE_DIR}/lib/Runtime/Print.c)
  set(mdfuzz_includes -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/lib)
  foreach(dir ${LIBBPF_INCLUDE_DIRS})
    list(APPEND mdfuzz_includes -I${dir})
  endforeach()
  add_custom_command(
    OUTPUT ${BPFPROBE_METADATA_FUZZER}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/bin
    COMMAND ${BPFPROBE_MDFUZZ_CC}
      -std=gnu11 -g -O1 -Wall -Wno-unused-parameter
      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
      ${mdfuzz_includes} ${mdfuzz_sources}
      -o ${BPFPROBE_METADATA_FUZZER}
    DEPENDS ${mdfuzz_sources}
      ${PROJECT_SOURCE_DIR}/lib/Runtime/Internal.h
      ${PROJECT_SOURCE_DIR}/lib/Support/Escape.h
      ${PROJECT_SOURCE_DIR}/include/bpfprobe/runtime.h
      ${PROJECT_SOURCE_DIR}/include/bpfprobe/metadata.h
    COMMENT "Building libFuzzer target bpfprobe-metadata-fuzzer with ${BPFPROBE_MDFUZZ_CC}"
    VERBATIM)
  add_custom_target(bpfprobe-metadata-fuzzer ALL DEPENDS ${BPFPROBE_METADATA_FUZZER})
endif()

# The runtime's lit tests (test/Runtime) run bpfprobe-run and this fuzzer.
if(TARGET check-bpfprobe)
  add_dependencies(check-bpfprobe bpfprobe-run)
  if(TARGET bpfprobe-metadata-fuzzer)
    add_dependencies(check-bpfprobe bpfprobe-metadata-fuzzer)
  endif()
endif()
