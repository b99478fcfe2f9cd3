// A process that looks like a clang built against another C++ standard
// library: clang::PluginASTAction::anchor() and LLVM (for LLVMGetVersion and
// the pass), but no libstdc++-mangled clang::getClangFullVersion. It loads
// the plugin the way clang's -fplugin does.
#include <dlfcn.h>
#include <cstdio>

namespace clang {
struct PluginASTAction {
  virtual ~PluginASTAction();
  virtual void anchor();
};
PluginASTAction::~PluginASTAction() {}
void PluginASTAction::anchor() {}
} // namespace clang

extern "C" void LLVMGetVersion(unsigned *, unsigned *, unsigned *);

int main(int argc, char **argv) {
  unsigned Ma, Mi, Pa;
  LLVMGetVersion(&Ma, &Mi, &Pa); // keep libLLVM linked
  clang::PluginASTAction A;
  A.anchor();
  if (!dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
    std::printf("dlopen: %s\n", dlerror());
    return 2;
  }
  std::printf("loaded without its front end\n");
  return 0;
}
