// The libraries' dependency order (Target <- Spec, Plan <- Resolve) is the
// build's: each library compiles against an include root generated for it
// (lib/CMakeLists.txt) that holds only its own directory and those of its
// dependencies. A file compiled as lib/Spec is compiled finds Spec's own
// header, but not a header of Resolve, which sits above it; one compiled as
// lib/Resolve finds the headers of everything below it.
//
// RUN: %host_cxx -std=c++17 -fsyntax-only @%lib_flags/Spec.rsp -DHEADER='"Spec/ProbeSpec.h"' %s
// RUN: %host_cxx -std=c++17 -fsyntax-only @%lib_flags/Resolve.rsp -DHEADER='"Spec/ProbeSpec.h"' -DHEADER2='"Plan/FetchPlan.h"' %s
// RUN: not %host_cxx -std=c++17 -fsyntax-only @%lib_flags/Spec.rsp -DHEADER='"Resolve/Resolver.h"' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPEC-UP
// RUN: not %host_cxx -std=c++17 -fsyntax-only @%lib_flags/Plan.rsp -DHEADER='"Resolve/Resolver.h"' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN-UP
// RUN: not %host_cxx -std=c++17 -fsyntax-only @%lib_flags/Target.rsp -DHEADER='"Plan/FetchPlan.h"' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TARGET-UP
//
// SPEC-UP: {{[Ee]}}rror: {{'?}}Resolve/Resolver.h{{'?:? (No such file or directory|file not found)}}
// PLAN-UP: {{[Ee]}}rror: {{'?}}Resolve/Resolver.h{{'?:? (No such file or directory|file not found)}}
// TARGET-UP: {{[Ee]}}rror: {{'?}}Plan/FetchPlan.h{{'?:? (No such file or directory|file not found)}}

#include HEADER
#ifdef HEADER2
#include HEADER2
#endif
