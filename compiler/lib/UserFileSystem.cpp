//===- UserFileSystem.cpp - user files as Clang sees them -----------------===//
#include "pocc/UserFileSystem.h"
#include "pocc/Persistence.h"
#include "pocc/StartKeyword.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace pocc {

namespace {
/// A file whose contents were rewritten in memory; status as the original.
class RewrittenFile : public vfs::File {
public:
  RewrittenFile(vfs::Status S, std::string Text) : S(std::move(S)), Text(std::move(Text)) {}
  ErrorOr<vfs::Status> status() override { return S; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t, bool,
                                                   bool) override {
    return MemoryBuffer::getMemBufferCopy(Text, Name);
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status S;
  std::string Text;
};
} // namespace

UserFileSystem::UserFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base,
                               std::vector<std::string> Prefixes)
    : ProxyFileSystem(std::move(Base)), SystemPrefixes(std::move(Prefixes)) {
  LangOpts.CPlusPlus = LangOpts.CPlusPlus11 = LangOpts.CPlusPlus14 = true;
  LangOpts.CPlusPlus17 = LangOpts.CPlusPlus20 = true;
}

bool UserFileSystem::isUserPath(StringRef Path) const {
  SmallString<256> Abs(Path);
  getUnderlyingFS().makeAbsolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  for (const std::string &P : SystemPrefixes)
    if (!P.empty() && StringRef(Abs).starts_with(P))
      return false;
  return true;
}

ErrorOr<std::unique_ptr<vfs::File>> UserFileSystem::openFileForRead(const Twine &Path) {
  auto File = ProxyFileSystem::openFileForRead(Path);
  std::string Name = Path.str();
  // Precompiled headers and modules are binary; they hold no user code.
  StringRef Ext = sys::path::extension(Name);
  if (!File || !isUserPath(Name) || Ext == ".pch" || Ext == ".gch" || Ext == ".pcm")
    return File;
  auto Status = (*File)->status();
  if (!Status)
    return File;
  auto Buffer = (*File)->getBuffer(Name);
  if (!Buffer)
    return File;
  StartScan Scan = scanStartKeywords((*Buffer)->getBuffer(), LangOpts);
  // Both passes keep every offset, so they compose in either order.
  std::string Marked =
      markAddressLiterals(Scan.Text.empty() ? (*Buffer)->getBuffer() : Scan.Text, LangOpts);
  if (Scan.ExprOffsets.empty() && Marked.empty())
    return ProxyFileSystem::openFileForRead(Path);
  if (!Scan.ExprOffsets.empty()) {
    auto &Map = Offsets[Status->getUniqueID()];
    for (size_t I = 0; I < Scan.ExprOffsets.size(); ++I)
      Map[Scan.ExprOffsets[I]] = Scan.KeywordOffsets[I];
  }
  return std::unique_ptr<vfs::File>(std::make_unique<RewrittenFile>(
      *Status, Marked.empty() ? std::move(Scan.Text) : std::move(Marked)));
}

} // namespace pocc
