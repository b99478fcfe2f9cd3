# The Debian package: `cpack -G DEB` in a build tree gives
# bpfprobe_<version>_<arch>.deb with everything `cmake --install` lays out
# (plugin, headers, runtime libraries, tools, CMake package, docs, man
# pages) under /usr, depending on the clang, libclang-cpp and libLLVM of
# the major the plugin was built for (the plugin's symbols come from the
# clang that loads it, so they must match) and on libbpf1/libelf1.
# Included by the top-level CMakeLists.txt after every install() rule.
set(CPACK_PACKAGE_NAME bpfprobe)
set(CPACK_PACKAGE_VENDOR "bpfprobe")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Clang plugin and runtime for BPF probes that fetch locals and members by DWARF")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Clang plugin and runtime for BPF probes that fetch locals and members by DWARF
 The plugin turns probe annotations naming a place and the values to fetch into
 BPF prologues that read locals and members through DWARF or the calling
 convention. bpfprobe-run checks and attaches them, and runs one-line probes.")
set(CPACK_PACKAGE_CONTACT "bpfprobe maintainers <bpfprobe@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${LLVM_VERSION_MAJOR}, libclang-cpp${LLVM_VERSION_MAJOR}, libllvm${LLVM_VERSION_MAJOR}, libbpf1 (>= 1:1.1), libelf1, libc6, libbpf-dev, linux-libc-dev")
# bpfprobe-run -e compiles a program that includes <bpf/bpf_helpers.h> and
# <linux/ptrace.h>: libbpf-dev and linux-libc-dev are needed at run time.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bpftool")
set(CPACK_STRIP_FILES OFF)
include(CPack)
