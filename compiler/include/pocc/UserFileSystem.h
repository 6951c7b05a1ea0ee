//===- UserFileSystem.h - user files as Clang sees them ---------*- C++ -*-===//
//
// A file system overlay that runs the `start` pre-pass and the address
// literal pre-pass (pocc/Persistence.h) on every user file Clang opens (the
// inputs and the user's own headers, not system or poc headers) and
// remembers where the blanked keywords were.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_USERFILESYSTEM_H
#define POCC_USERFILESYSTEM_H

#include "clang/Basic/LangOptions.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pocc {

/// Per user file (keyed by identity): for each started expression, the
/// offset where it begins -> the offset of its `start` keyword.
using StartOffsetMap = std::map<llvm::sys::fs::UniqueID, std::map<unsigned, unsigned>>;

/// Presents user files with `start` keywords blanked out.
class UserFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  /// \p SystemPrefixes: directories whose files are never user files.
  UserFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                 std::vector<std::string> SystemPrefixes);

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;

  /// True if \p Path is a user file (outside every system prefix).
  bool isUserPath(llvm::StringRef Path) const;

  /// Where the keywords were, for every file opened so far.
  const StartOffsetMap &startOffsets() const { return Offsets; }

private:
  std::vector<std::string> SystemPrefixes;
  clang::LangOptions LangOpts;
  StartOffsetMap Offsets;
};

} // namespace pocc

#endif
