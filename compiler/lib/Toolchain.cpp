//===- Toolchain.cpp - where poc++ finds headers, libraries, compilers ----===//
#include "pocc/Toolchain.h"
#include "pocc/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace pocc {

namespace {
std::vector<std::string> split(llvm::StringRef S, char Sep) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  S.split(Parts, Sep, -1, false);
  return {Parts.begin(), Parts.end()};
}
} // namespace

Toolchain Toolchain::detect(const char *Argv0) {
  Toolchain T;
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&Toolchain::detect));
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::SmallString<256> Include(Dir), Library(Dir);
  llvm::sys::path::append(Include, config::InstallIncludeRel);
  llvm::sys::path::append(Library, config::InstallLibraryRel);
  llvm::SmallString<256> Probe(Include);
  llvm::sys::path::append(Probe, "poc", "poc.hpp");
  if (llvm::sys::fs::exists(Probe) && llvm::sys::fs::exists(Library)) {
    llvm::sys::path::remove_dots(Include, true);
    llvm::sys::path::remove_dots(Library, true);
    T.RuntimeInclude = Include.str().str();
    T.RuntimeLibrary = Library.str().str();
    llvm::SmallString<256> Parse(Dir);
    llvm::sys::path::append(Parse, config::InstallParseIncludeRel);
    llvm::sys::path::remove_dots(Parse, true);
    T.ParseInclude = Parse.str().str();
  } else {
    T.RuntimeInclude = config::BuildRuntimeInclude;
    T.RuntimeLibrary = config::BuildRuntimeLibrary;
    T.ParseInclude = config::BuildParseInclude;
    if (llvm::sys::fs::exists(config::BuildParsePch))
      T.ParsePch = config::BuildParsePch;
    if (llvm::sys::fs::exists(std::string(config::BuildCxxPchDir) +
                              "/poc/poc.hpp.gch"))
      T.CxxPchDir = config::BuildCxxPchDir;
  }
  T.ClangResourceDir = config::ClangResourceDir;
  T.MpiIncludes = split(config::MpiIncludeDirs, ';');
  T.Compiler = config::SystemCompiler;
  if (auto Env = llvm::sys::Process::GetEnv("POC_CXX")) {
    T.Compiler = *Env;
    T.CxxPchDir.clear(); // made by and for the default compiler
  }
  T.RuntimeLinkFlags = split(config::RuntimeLinkFlags, ' ');
  return T;
}

std::vector<std::string> Toolchain::systemPrefixes() const {
  std::vector<std::string> P{"/usr/include/", "/usr/lib/",
                             "/usr/local/include/", RuntimeInclude + "/", ParseInclude + "/",
                             ClangResourceDir + "/"};
  for (const std::string &M : MpiIncludes)
    P.push_back(M + "/");
  return P;
}

} // namespace pocc
