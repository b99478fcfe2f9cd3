//===- Loader.cpp - libbpfprobe.so: the pass, and the way into clang ----===//
//
/// \file
/// libbpfprobe.so is what users name: `clang -fplugin=libbpfprobe.so` and
/// `opt -load-pass-plugin=libbpfprobe.so -passes=bpfprobe-wrapper`. It holds
/// the IR pass and nothing that needs clang, so opt can load it. When it
/// finds itself inside clang, its constructor checks that the clang is the
/// version it was built for (the plugin uses clang's C++ ABI, which changes
/// between releases) and loads the front end, libbpfprobe-frontend.so from
/// the same directory, whose static registrations add the plugin action and
/// the `bpfprobe` attribute to clang's registries.
///
/// "Inside clang" is decided by symbols whose names do not depend on the C++
/// standard library clang was built with: clang::PluginASTAction::anchor()
/// (present wherever -fplugin works) and the LLVM-C LLVMGetVersion() for the
/// version. A clang it cannot load its front end into is an error, never a
/// silent fallback in which SEC("...(args)") would compile as a plain section.
//===----------------------------------------------------------------------===//

#include "BPFProbe.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

#ifndef BPFPROBE_BUILT_FOR_LLVM_MAJOR
#error "the build must define BPFPROBE_BUILT_FOR_LLVM_MAJOR"
#endif

namespace {

/// clang::PluginASTAction::anchor(): defined in clang's front-end library,
/// its mangled name has no standard-library types in it.
constexpr const char *ClangPluginSymbol = "_ZN5clang15PluginASTAction6anchorEv";
/// void LLVMGetVersion(unsigned *Major, unsigned *Minor, unsigned *Patch):
/// LLVM-C, so a plain C name; clang and its LLVM share one version.
constexpr const char *LLVMVersionSymbol = "LLVMGetVersion";

/// clang::getClangFullVersion() as a libstdc++ build mangles it: the
/// version when LLVM-C is not exported (a static clang), and only callable
/// when its std::string is ours.
constexpr const char *ClangVersionSymbol =
    "_ZN5clang19getClangFullVersionB5cxx11Ev";

/// "Debian clang version 19.1.7 (3~deb12u1)" -> 19.
int majorOf(const std::string &V) {
  size_t P = V.find("version ");
  return P == std::string::npos ? -1 : std::atoi(V.c_str() + P + 8);
}

/// The major version of the clang/LLVM in this process, or -1.
int hostMajor() {
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  if (void *Sym = dlsym(RTLD_DEFAULT, LLVMVersionSymbol)) {
    unsigned Major = 0, Minor = 0, Patch = 0;
    reinterpret_cast<GetVersionFn>(Sym)(&Major, &Minor, &Patch);
    return static_cast<int>(Major);
  }
  if (void *Sym = dlsym(RTLD_DEFAULT, ClangVersionSymbol))
    return majorOf(reinterpret_cast<std::string (*)()>(Sym)());
  return -1;
}

std::string ownDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&hostMajor), &Info) || !Info.dli_fname)
    return ".";
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

__attribute__((constructor)) void loadFrontend() {
  if (!dlsym(RTLD_DEFAULT, ClangPluginSymbol))
    return; // not in clang (opt, or another tool): the pass alone
  int Host = hostMajor();
  if (Host < 0) {
    std::fprintf(stderr,
                 "error: libbpfprobe.so cannot tell the version of the clang "
                 "it is loaded into (neither %s nor a libstdc++ "
                 "clang::getClangFullVersion); it was built for clang %d\n",
                 LLVMVersionSymbol, BPFPROBE_BUILT_FOR_LLVM_MAJOR);
    std::exit(1);
  }
  if (Host != BPFPROBE_BUILT_FOR_LLVM_MAJOR) {
    std::fprintf(stderr,
                 "error: libbpfprobe.so was built for clang %d but is loaded "
                 "into clang %d; rebuild bpfprobe with "
                 "-DBPFPROBE_LLVM_VERSION=%d\n",
                 BPFPROBE_BUILT_FOR_LLVM_MAJOR, Host, Host);
    std::exit(1);
  }
  std::string Frontend = ownDirectory() + "/libbpfprobe-frontend.so";
  if (!dlopen(Frontend.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    std::fprintf(stderr, "error: libbpfprobe.so cannot load its front end: %s\n",
                 dlerror());
    std::exit(1);
  }
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK LLVM_ATTRIBUTE_VISIBILITY_DEFAULT
    ::llvm::PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  using namespace llvm;
  return {LLVM_PLUGIN_API_VERSION, "bpfprobe", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "bpfprobe-wrapper")
                    return false;
                  MPM.addPass(bpfprobe::WrapperPass());
                  return true;
                });
          }};
}
