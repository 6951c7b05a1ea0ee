//===- RuntimePch.cpp - a precompiled runtime header for the backend ------===//
#include "pocc/RuntimePch.h"
#include "pocc/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>

using namespace llvm;

namespace pocc {

namespace {
/// The cache folder, created if need be; empty if there is none.
std::string cacheFolder() {
  SmallString<256> Dir;
  if (const char *P = std::getenv("POC_PCH_CACHE"); P && *P)
    Dir = P;
  else if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    sys::path::append(Dir, X, "poc++");
  else if (const char *H = std::getenv("HOME"); H && *H)
    sys::path::append(Dir, H, ".cache", "poc++");
  else
    return "";
  if (sys::fs::create_directories(Dir))
    return "";
  return Dir.str().str();
}

/// Writes \p Text to \p Path through a temporary file and a rename, so that
/// concurrent compilations never see half a file.
bool writeAtomically(const std::string &Path, StringRef Text) {
  SmallString<256> Tmp;
  int FD = -1;
  if (sys::fs::createUniqueFile(Path + ".%%%%%%.tmp", FD, Tmp))
    return false;
  {
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
  }
  return !sys::fs::rename(Tmp, Path) || (sys::fs::remove(Tmp), false);
}

/// The cache keeps the precompiled headers used last: every change of the
/// runtime's headers and every new flag set makes a new one (about 19 MB),
/// and a cache that only grows filled gigabytes in a day of development.
constexpr size_t KeptPchs = 32;
/// One not used for this long is nobody's current build, so removing it
/// cannot pull a file from under a compile that has just chosen it.
constexpr std::chrono::hours IdleBeforeRemoval{1};

/// Removes the least recently used precompiled headers of \p Dir (and the
/// prefix headers beside them) beyond KeptPchs, sparing any used within
/// IdleBeforeRemoval. A use renews a file's modification time (runtimePch).
void trimCache(const std::string &Dir) {
  std::vector<std::pair<sys::TimePoint<>, std::string>> Pchs;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    sys::fs::file_status Status;
    if (Name.starts_with("poc-") && Name.ends_with(".pch") && !sys::fs::status(It->path(), Status))
      Pchs.emplace_back(Status.getLastModificationTime(), It->path());
  }
  if (Pchs.size() <= KeptPchs)
    return;
  std::sort(Pchs.begin(), Pchs.end(), std::greater<>());
  auto Now = std::chrono::system_clock::now();
  for (size_t I = KeptPchs; I < Pchs.size(); ++I) {
    if (Now - Pchs[I].first < IdleBeforeRemoval)
      continue;
    sys::fs::remove(Pchs[I].second);
    sys::fs::remove(StringRef(Pchs[I].second).drop_back(3).str() + "hpp");
  }
}
} // namespace

std::string runtimePch(const Toolchain &TC, const std::vector<std::string> &Flags) {
  if (const char *Off = std::getenv("POC_PCH"); Off && StringRef(Off) == "0")
    return "";
  if (!sys::path::filename(TC.Compiler).starts_with("clang"))
    return ""; // other compilers get Toolchain::CxxPchDir, if anything
  std::string Dir = cacheFolder();
  if (Dir.empty())
    return "";
  // The key: the header, the compiler, the flags and the runtime headers'
  // newest change (Clang also checks the headers a precompiled header was
  // made from, but reports a changed one as an error, so a changed header
  // needs a new key).
  std::string Include = std::string("#include <") + config::GeneratedCodeHeader + ">\n";
  std::string Key = Include + '\0' + TC.Compiler + '\0' + std::to_string(TC.RuntimeHeadersStamp);
  for (const std::string &F : Flags)
    Key += '\0' + F;
  SmallString<32> Name;
  raw_svector_ostream(Name) << "poc-" << format_hex_no_prefix(xxh3_64bits(Key), 16);
  std::string Base = Dir + "/" + Name.str().str();
  std::string Pch = Base + ".pch";
  if (sys::fs::exists(Pch)) {
    // Renewed, so that the cache's trimming keeps what is in use.
    ::utimensat(AT_FDCWD, Pch.c_str(), nullptr, 0);
    return Pch;
  }
  // The header it is made from stays beside it: Clang checks that too.
  std::string Prefix = Base + ".hpp";
  if (!sys::fs::exists(Prefix) && !writeAtomically(Prefix, Include))
    return "";
  SmallString<256> Tmp;
  if (sys::fs::createUniqueFile(Pch + ".%%%%%%.tmp", Tmp))
    return "";
  auto Program = sys::findProgramByName(TC.Compiler);
  if (!Program)
    return "";
  std::vector<StringRef> Args{TC.Compiler};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  for (StringRef A : {"-x", "c++-header", "-Xclang", "-fno-pch-timestamp"})
    Args.push_back(A);
  Args.insert(Args.end(), {Prefix, "-o", Tmp});
  std::optional<StringRef> Quiet[] = {std::nullopt, StringRef(""), StringRef("")};
  if (sys::ExecuteAndWait(*Program, Args, std::nullopt, Quiet) != 0 || sys::fs::rename(Tmp, Pch)) {
    sys::fs::remove(Tmp);
    return "";
  }
  trimCache(Dir);
  return Pch;
}

} // namespace pocc
