/*===- llvm-asan-no-poisoning.h - LLVM headers in an ASan plugin -*- C++ -*-===
 *
 * \file
 * Force-included (-include) into the C++ sources of a
 * -DBPFPROBE_SANITIZE=address build. LLVM's headers see ASan and make their
 * inline BumpPtrAllocator code poison and unpoison slabs. The plugin runs in
 * a clang that was built without ASan and shares its allocators (the
 * ASTContext's, for one): a slab our copy of that code poisoned is then
 * handed out by clang's copy, which does not unpoison it, and clang's own
 * memcpy into it is reported as use-after-poison. So LLVM's poisoning is
 * turned off here; ASan still checks everything else.
 *===----------------------------------------------------------------------===*/
#ifndef BPFPROBE_LLVM_ASAN_NO_POISONING_H
#define BPFPROBE_LLVM_ASAN_NO_POISONING_H

#include "llvm/Support/Compiler.h"

#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))

#endif
