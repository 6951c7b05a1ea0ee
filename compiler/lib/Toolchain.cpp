//===- Toolchain.cpp - where poc++ finds headers, libraries, compilers ----===//
#include "pocc/Toolchain.h"
#include "pocc/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <chrono>

namespace pocc {

namespace {
std::vector<std::string> split(llvm::StringRef S, char Sep) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  S.split(Parts, Sep, -1, false);
  return {Parts.begin(), Parts.end()};
}
/// The newest modification time of the files under \p Dir.
llvm::sys::TimePoint<> newestUnder(const std::string &Dir) {
  llvm::sys::TimePoint<> Newest;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::sys::fs::file_status S;
    if (!llvm::sys::fs::status(It->path(), S) && S.getLastModificationTime() > Newest)
      Newest = S.getLastModificationTime();
  }
  return Newest;
}

/// True if the precompiled header \p Pch exists and is newer than every
/// header it was made from (a stale one must never be used: GCC would use
/// it silently, Clang would refuse to parse).
bool isFresh(const std::string &Pch, llvm::sys::TimePoint<> Sources) {
  llvm::sys::fs::file_status S;
  return !llvm::sys::fs::status(Pch, S) && S.getLastModificationTime() >= Sources;
}
} // namespace

Toolchain Toolchain::detect(const char *Argv0) {
  Toolchain T;
  std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&Toolchain::detect));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::SmallString<256> Include(Dir), LibDir(Dir);
  llvm::sys::path::append(Include, config::InstallIncludeRel);
  llvm::sys::path::append(LibDir, config::InstallLibraryDirRel);
  llvm::sys::path::remove_dots(Include, true);
  llvm::sys::path::remove_dots(LibDir, true);
  std::vector<std::string> Installed;
  for (const std::string &Name : split(config::RuntimeLibraryNames, ';')) {
    llvm::SmallString<256> L(LibDir);
    llvm::sys::path::append(L, Name);
    Installed.push_back(L.str().str());
  }
  llvm::SmallString<256> Probe(Include);
  llvm::sys::path::append(Probe, "poc", "poc.hpp");
  if (llvm::sys::fs::exists(Probe) && !Installed.empty() &&
      llvm::sys::fs::exists(Installed.front())) {
    T.RuntimeInclude = Include.str().str();
    T.RuntimeLibraries = Installed;
    llvm::SmallString<256> Parse(Dir);
    llvm::sys::path::append(Parse, config::InstallParseIncludeRel);
    llvm::sys::path::remove_dots(Parse, true);
    T.ParseInclude = Parse.str().str();
    llvm::SmallString<256> Pch(Dir);
    llvm::sys::path::append(Pch, config::InstallParsePchRel);
    llvm::sys::path::remove_dots(Pch, true);
    if (isFresh(Pch.str().str(),
                std::max(newestUnder(T.RuntimeInclude), newestUnder(T.ParseInclude))))
      T.ParsePch = Pch.str().str();
  } else {
    T.RuntimeInclude = config::BuildRuntimeInclude;
    T.RuntimeLibraries = split(config::BuildRuntimeLibraries, ';');
    T.ParseInclude = config::BuildParseInclude;
    auto Sources = std::max(newestUnder(T.RuntimeInclude), newestUnder(T.ParseInclude));
    if (isFresh(config::BuildParsePch, Sources))
      T.ParsePch = config::BuildParsePch;
    if (isFresh(std::string(config::BuildCxxPchDir) + "/" + config::GeneratedCodeHeader + ".gch",
                Sources))
      T.CxxPchDir = config::BuildCxxPchDir;
  }
  T.ClangResourceDir = config::ClangResourceDir;
  T.MpiIncludes = split(config::MpiIncludeDirs, ';');
  T.MpiLibraries = split(config::MpiLibraries, ';');
  T.Compiler = config::SystemCompiler;
  if (auto Env = llvm::sys::Process::GetEnv("POC_CXX"))
    T.Compiler = *Env;
  T.CompilerInProcess = T.Compiler == config::SystemCompiler;
  T.ObjCopy = config::ObjCopy;
  // The GCC precompiled header is made by and for the MPI wrapper.
  if (llvm::sys::path::filename(T.Compiler) != llvm::sys::path::filename(config::MpiCompiler))
    T.CxxPchDir.clear();
  T.RuntimeLinkFlags = split(config::RuntimeLinkFlags, ' ');
  T.RuntimeHeadersStamp = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              newestUnder(T.RuntimeInclude).time_since_epoch())
                              .count();
  return T;
}

std::vector<std::string> Toolchain::systemPrefixes() const {
  std::vector<std::string> P{"/usr/include/",      "/usr/lib/",        "/usr/local/include/",
                             RuntimeInclude + "/", ParseInclude + "/", ClangResourceDir + "/"};
  for (const std::string &M : MpiIncludes)
    P.push_back(M + "/");
  return P;
}

} // namespace pocc
