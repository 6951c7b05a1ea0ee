//===- HeaderCopies.cpp - The files a translation writes ------------------===//
#include "pocc/HeaderCopies.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace pocc {

namespace {

std::string absolutePath(llvm::StringRef Name) {
  llvm::SmallString<256> Path(Name);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// The absolute path \p Path relative to the absolute directory \p Base
/// (with `..` where it lies outside).
std::string relativePath(llvm::StringRef Path, llvm::StringRef Base) {
  auto P = llvm::sys::path::begin(Path), PEnd = llvm::sys::path::end(Path);
  auto B = llvm::sys::path::begin(Base), BEnd = llvm::sys::path::end(Base);
  while (P != PEnd && B != BEnd && *P == *B)
    ++P, ++B;
  llvm::SmallString<256> Out;
  for (; B != BEnd; ++B)
    llvm::sys::path::append(Out, "..");
  for (; P != PEnd; ++P)
    llvm::sys::path::append(Out, *P);
  return Out.str().str();
}

/// \p Text as the contents of a C++ string literal.
std::string quoted(llvm::StringRef Text) {
  std::string S = "\"";
  for (char C : Text) {
    if (C == '\\' || C == '"')
      S += '\\';
    S += C;
  }
  return S + "\"";
}

} // namespace

std::string lineDirective(unsigned Line, llvm::StringRef File) {
  return "#line " + std::to_string(Line) + " " + quoted(File) + "\n";
}

std::string resolveGeneratedLines(llvm::StringRef Text, llvm::StringRef Name) {
  std::string Out;
  unsigned Line = 1;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t NL = Text.find('\n', Pos);
    if (NL == llvm::StringRef::npos)
      NL = Text.size() - 1;
    llvm::StringRef L = Text.slice(Pos, NL + 1);
    if (L == GenLineMarker)
      Out += lineDirective(Line + 1, Name);
    else
      Out += L.str();
    ++Line;
    Pos = NL + 1;
  }
  return Out;
}

std::string HeaderCopies::sourceName() const {
  std::string Name = !Opts.SourceName.empty()
                         ? Opts.SourceName
                         : SM.getFileEntryRefForID(SM.getMainFileID())->getName().str();
  if (Opts.PortableNames)
    return llvm::sys::path::filename(Name).str();
  return Name;
}

std::string HeaderCopies::userFileName(llvm::StringRef Name) const {
  std::string Path = absolutePath(Name);
  if (!Opts.PortableNames)
    return Path;
  std::string Source = absolutePath(SM.getFileEntryRefForID(SM.getMainFileID())->getName());
  return relativePath(Path, llvm::sys::path::parent_path(Source));
}

std::string HeaderCopies::fileName(FileID FID) const {
  if (FID == SM.getMainFileID())
    return sourceName();
  return userFileName(SM.getFileEntryRefForID(FID)->getName());
}

void HeaderCopies::nameCopies(const std::map<const FileEntry *, FileID> &Copied) {
  // The original's path under the directory says which header a copy is.
  // A portable name is relative to the source's folder; the `..` that
  // climb out of it would climb out of the directory too, and a user looks
  // for `include/a.hpp` there, not `../include/a.hpp`.
  std::map<std::string, std::vector<FileID>> ByName;
  for (const auto &[FE, FID] : Copied) {
    std::string Name = fileName(FID);
    if (Opts.PortableNames) {
      llvm::SmallString<256> Inside;
      auto Part = llvm::sys::path::begin(Name), End = llvm::sys::path::end(Name);
      while (Part != End && *Part == "..")
        ++Part;
      for (; Part != End; ++Part)
        llvm::sys::path::append(Inside, *Part);
      Name = Inside.str().str();
    }
    ByName[Name].push_back(FID);
  }
  for (const auto &[Name, FIDs] : ByName)
    for (FileID FID : FIDs) {
      llvm::SmallString<256> Path(Opts.HeaderDir);
      llvm::sys::path::append(
          Path, FIDs.size() == 1 ? Name : absolutePath(SM.getFileEntryRefForID(FID)->getName()));
      CopyPaths[FID] = Path.str().str();
    }
}

bool HeaderCopies::write(Rewriter &R, const std::vector<IncludeDirective> &Includes) {
  FileID Main = SM.getMainFileID();
  // The headers poc++ changed, by file.
  std::map<const FileEntry *, FileID> Copied;
  for (auto It = R.buffer_begin(); It != R.buffer_end(); ++It) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(It->first);
    if (It->first == Main || !FE)
      continue;
    if (!Copied.emplace(&FE->getFileEntry(), It->first).second) {
      Diags.report(SM.getIncludeLoc(It->first), Diag::Unsupported)
          << "including a header with process operations twice in one "
             "file; give it an include guard or '#pragma once'";
      return false;
    }
  }
  if (Copied.empty())
    return true;
  if (Opts.HeaderDir.empty() || !Opts.Headers) {
    Diags.report(SM.getLocForStartOfFile(Copied.begin()->second), Diag::Unsupported)
        << "process operations in a header when the translation is written "
           "to standard output (the header's translation is a file of its "
           "own); use -o FILE";
    return false;
  }
  // A user header that includes a copied header is copied too, so that
  // its directive can name the copy.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const IncludeDirective &I : Includes) {
      FileID From = SM.getFileID(I.Name.getBegin());
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(From);
      if (From != Main && FE && Copied.count(&I.Target.getFileEntry()) &&
          Copied.emplace(&FE->getFileEntry(), From).second)
        Grew = true;
    }
  }
  nameCopies(Copied);
  // In the main file and the copies, directives name the copies; in the
  // copies, the user's other headers are named by absolute path (portable
  // names: relative to the source), as a copy is not in its original's
  // directory.
  for (const IncludeDirective &I : Includes) {
    FileID From = SM.getFileID(I.Name.getBegin());
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(From);
    bool InCopy = FE && Copied.count(&FE->getFileEntry()) && Copied[&FE->getFileEntry()] == From;
    if (From != Main && !InCopy)
      continue;
    auto Target = Copied.find(&I.Target.getFileEntry());
    if (Target != Copied.end())
      R.ReplaceText(I.Name, quoted(copyPath(Target->second)));
    else if (InCopy && Opts.Files->isUserPath(I.Target.getName()))
      R.ReplaceText(I.Name, quoted(userFileName(I.Target.getName())));
  }
  for (const auto &[FE, FID] : Copied) {
    const RewriteBuffer *Buf = R.getRewriteBufferFor(FID);
    std::string Body = Buf ? std::string(Buf->begin(), Buf->end()) : SM.getBufferData(FID).str();
    std::string Path = copyPath(FID);
    Opts.Headers->emplace_back(Path,
                               resolveGeneratedLines(lineDirective(1, fileName(FID)) + Body, Path));
  }
  std::sort(Opts.Headers->begin(), Opts.Headers->end());
  return true;
}

} // namespace pocc
