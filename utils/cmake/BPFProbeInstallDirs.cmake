# Where `cmake --install` puts each part of bpfprobe, relative to the prefix.
# Included by the top-level CMakeLists.txt before the subdirectories, so each
# directory's install() block and the package files agree on one layout:
#
#   bin/                         bpfprobe-run (and bpfprobe-resolve)
#   include/bpfprobe/            bpfprobe.h, metadata.h, runtime.h
#   lib/                         libbpfprobe-runtime.a / .so
#   lib/bpfprobe/                libbpfprobe.so + libbpfprobe-frontend.so
#                                (side by side: the first loads the second
#                                from its own directory)
#   lib/cmake/BPFProbe/          BPFProbeConfig.cmake, ...ConfigVersion.cmake,
#                                BPFProbeToolchain.cmake, BPFProbeFunctions.cmake
#   share/doc/bpfprobe/          docs/*.md and examples/
#
# lib is CMAKE_INSTALL_LIBDIR (lib/<multiarch> when the prefix is /usr on
# Debian). Every package file finds the others relative to its own location,
# so an installed tree can be moved.
include(GNUInstallDirs)

set(BPFPROBE_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
set(BPFPROBE_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
set(BPFPROBE_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
set(BPFPROBE_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/bpfprobe)
set(BPFPROBE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/BPFProbe)
set(BPFPROBE_INSTALL_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/bpfprobe)
