//===- FileTrust.cpp - Which files the resolver reads, and how ------------===//
//
/// \file
/// Implements FileTrust.h: the regular-file opening every ELF read of the
/// resolver goes through, and the ownership rule for debug files found by
/// search. Linux only, as the rest of the runtime side: the opened inode's
/// path comes from /proc/self/fd.
//===----------------------------------------------------------------------===//

#include "Resolve/FileTrust.h"
#include "Support/Error.h"
#include "Support/FileRules.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace bpfprobe {

namespace {

/// Closes a descriptor on every path out.
struct FdCloser {
  int Fd;
  ~FdCloser() {
    if (Fd >= 0)
      ::close(Fd);
  }
};

std::string ownerReason(uid_t Uid) {
  return "owned by uid " + std::to_string(Uid) +
         ", not by root, you or the binary's owner";
}

std::string octal(mode_t Mode) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%04o", unsigned(Mode & 07777));
  return S;
}

} // namespace

Expected<OpenedFile> openRegularFile(StringRef Path) {
  SmallString<256> P(Path);
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer.
  int Fd = ::open(P.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    int Err = errno;
    if (Err == ENOENT || Err == ENOTDIR)
      return fail("not found");
    return fail("cannot open: " + std::error_code(Err, std::generic_category())
                                      .message());
  }
  FdCloser Closer{Fd};
  struct stat St;
  if (::fstat(Fd, &St) != 0)
    return fail("cannot read its status: " +
                std::error_code(errno, std::generic_category()).message());
  if (!S_ISREG(St.st_mode))
    return fail(Twine("is ") + bpfprobe_file_type(St.st_mode) + ", not an ELF file");

  OpenedFile F;
  F.Owner = St.st_uid;
  F.Mode = St.st_mode;
  char Link[PATH_MAX];
  std::string Self = "/proc/self/fd/" + std::to_string(Fd);
  ssize_t N = ::readlink(Self.c_str(), Link, sizeof(Link) - 1);
  if (N > 0 && Link[0] == '/')
    F.RealPath.assign(Link, size_t(N));
  else
    F.RealPath = Path.str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getOpenFile(
      sys::fs::convertFDToNativeFile(Fd), Path, uint64_t(St.st_size),
      /*RequiresNullTerminator=*/false);
  if (!Buf)
    return fail("cannot read: " + Buf.getError().message());
  F.Buffer = std::move(*Buf);
  return std::move(F);
}

std::string distrustReason(const OpenedFile &File, uid_t TargetOwner) {
  // The rule of Support/FileRules.h, the runtime's too.
  enum bpfprobe_trust T = bpfprobe_trust_rule(File.Owner, File.Mode,
                                              /*last=*/true, ::geteuid(),
                                              TargetOwner);
  if (T == BPFPROBE_FOREIGN_OWNER)
    return ownerReason(File.Owner);
  if (T == BPFPROBE_FOREIGN_WRITE)
    return std::string("writable by ") +
           ((File.Mode & S_IWOTH) ? "others" : "its group") + " (mode " +
           octal(File.Mode) + ")";
  // Every directory above it: whoever may write one may put another file
  // (or another directory) in its place.
  StringRef Dir = sys::path::parent_path(File.RealPath);
  while (!Dir.empty()) {
    SmallString<256> D(Dir);
    struct stat St;
    if (::lstat(D.c_str(), &St) != 0)
      return ("directory " + Dir + " cannot be checked: " +
              std::error_code(errno, std::generic_category()).message())
          .str();
    enum bpfprobe_trust T = bpfprobe_trust_rule(St.st_uid, St.st_mode,
                                                /*last=*/false, ::geteuid(),
                                                TargetOwner);
    if (T == BPFPROBE_FOREIGN_OWNER)
      return ("directory " + Dir + " is " + ownerReason(St.st_uid)).str();
    if (T == BPFPROBE_FOREIGN_WRITE)
      return ("directory " + Dir + " is writable by " +
              ((St.st_mode & S_IWOTH) ? "others" : "its group") +
              " and not sticky (mode " + octal(St.st_mode) + ")")
          .str();
    StringRef Up = sys::path::parent_path(Dir);
    if (Up == Dir)
      break;
    Dir = Up;
  }
  return "";
}

} // namespace bpfprobe
