//===- FileTrust.h - Which files the resolver reads, and how -----*- C++ -*-===//
//
/// \file
/// Every ELF file the resolver reads (a probed binary, a debug file) is
/// opened once, without blocking, and read from that descriptor only if it
/// is a regular file: a FIFO named as a binary would hang open(), and
/// /dev/zero would be read until LLVM runs out of memory.
///
/// A debug file that was found rather than named (beside the binary, in a
/// build-id directory, in a debuginfod cache) is trusted only when nobody
/// but root, the effective user and the probed binary's owner could have
/// written it: the file and every directory above it are owned by one of
/// them and not writable by group or others (a directory may be, when it
/// is sticky, as /tmp). The build-id match proves which build a file claims
/// to describe, not who wrote its DWARF; perf refuses build-id cache files
/// it does not own for the same reason. docs/security.md has the model.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_FILETRUST_H
#define BPFPROBE_RESOLVE_FILETRUST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <sys/types.h>

namespace bpfprobe {

/// A regular file, read through the one descriptor its checks saw.
struct OpenedFile {
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  uid_t Owner = 0;
  mode_t Mode = 0;
  /// Absolute path of the opened inode (its directories are checked), or
  /// the path as given when /proc cannot say.
  std::string RealPath;
};

/// Opens Path read-only, close-on-exec and without blocking, and reads it
/// (mapped when large) if it is a regular file. Errors are phrased to
/// follow the path: "not found", "is a FIFO, not an ELF file", ...
llvm::Expected<OpenedFile> openRegularFile(llvm::StringRef Path);

/// Why a debug file found by search is not trusted, "" when it is: see
/// the file comment. TargetOwner is the probed binary's owner (root for
/// the kernel). "owned by uid 1000, not by root, you or the binary's
/// owner", "writable by others (mode 0666)", "directory /home/u is ...".
std::string distrustReason(const OpenedFile &File, uid_t TargetOwner);

} // namespace bpfprobe

#endif
