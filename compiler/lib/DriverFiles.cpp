//===- DriverFiles.cpp - files the driver reads and writes ----------------===//
#include "pocc/DriverFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace pocc {

bool writeFile(const std::string &Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    errs() << "poc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << Text;
  return true;
}

std::string stem(const std::string &Src) { return sys::path::stem(Src).str(); }

std::string absolute(const std::string &Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  return Abs.str().str();
}

std::vector<std::string> readMakeDependencies(StringRef Text) {
  std::vector<std::string> Paths;
  size_t Colon = Text.find(": ");
  if (Colon == StringRef::npos)
    return Paths;
  std::string Current;
  for (size_t I = Colon + 2; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size() && (Text[I + 1] == ' ' || Text[I + 1] == '\n')) {
      if (Text[I + 1] == ' ')
        Current += ' ';
      ++I;
      continue;
    }
    if (C == ' ' || C == '\n' || C == '\t') {
      if (!Current.empty())
        Paths.push_back(std::move(Current));
      Current.clear();
      continue;
    }
    Current += C;
  }
  if (!Current.empty())
    Paths.push_back(std::move(Current));
  return Paths;
}

namespace {
/// \p Path as a Makefile rule writes it.
std::string escapeMakePath(StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

} // namespace

bool writeDependencies(const DriverOptions &O, const std::string &Source, const std::string &Object,
                       const std::string &CompilerDeps, const std::string &GenDir,
                       const std::vector<std::string> &SourceDeps) {
  auto Buffer = MemoryBuffer::getFile(CompilerDeps);
  if (!Buffer) {
    errs() << "poc++: error: the compiler wrote no dependency file '" << CompilerDeps << "'\n";
    return false;
  }
  std::vector<std::string> Paths{Source};
  std::set<std::string> Seen{absolute(Source)};
  auto add = [&](const std::string &P) {
    if (!StringRef(P).starts_with(GenDir) && Seen.insert(absolute(P)).second)
      Paths.push_back(P);
  };
  for (const std::string &P : SourceDeps)
    add(P);
  for (const std::string &P : readMakeDependencies((*Buffer)->getBuffer()))
    add(P);

  std::string Targets;
  for (const std::string &T :
       O.Deps.Targets.empty() ? std::vector<std::string>{Object} : O.Deps.Targets)
    Targets += (Targets.empty() ? "" : " ") + escapeMakePath(T);
  std::string Text = Targets + ":";
  for (const std::string &P : Paths)
    Text += " \\\n  " + escapeMakePath(P);
  Text += "\n";
  if (O.Deps.Phony)
    for (size_t I = 1; I < Paths.size(); ++I)
      Text += "\n" + escapeMakePath(Paths[I]) + ":\n";

  std::string File = O.Deps.File;
  if (File.empty() && !O.Deps.Only) {
    SmallString<256> D(Object);
    sys::path::replace_extension(D, ".d");
    File = D.str().str();
  }
  if (File.empty() || File == "-") {
    outs() << Text;
    return true;
  }
  return writeFile(File, Text);
}

bool writeHeaders(const std::string &Dir,
                  const std::vector<std::pair<std::string, std::string>> &Headers) {
  sys::fs::remove_directories(Dir);
  for (const auto &[Path, Text] : Headers) {
    if (auto EC = sys::fs::create_directories(sys::path::parent_path(Path))) {
      errs() << "poc++: error: cannot create '" << sys::path::parent_path(Path)
             << "': " << EC.message() << "\n";
      return false;
    }
    if (!writeFile(Path, Text))
      return false;
  }
  return true;
}
void writeGeneratedStream(const std::string &Name, StringRef Text,
                          const std::vector<std::pair<std::string, std::string>> &Headers) {
  auto file = [](StringRef FileName, StringRef FileText) {
    outs() << "// ==== poc++ generated file: " << FileName << " ====\n" << FileText;
  };
  file(Name, Text);
  for (const auto &[Path, HeaderText] : Headers)
    file(Path, HeaderText);
}

bool writePreprocessed(const std::string &Path, StringRef Generated, StringRef Source,
                       const std::string &Output) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer) {
    errs() << "poc++: error: the compiler wrote no preprocessed file '" << Path << "'\n";
    return false;
  }
  const std::pair<std::string, std::string> Names[] = {
      {"\"" + Generated.str() + "\"", "\"" + Source.str() + "\""},
      {"\"" + absolute(Generated.str()) + ".headers/", "\"/"}};
  std::string Text;
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    std::string L = Lines[I].str();
    if (StringRef(L).starts_with("# "))
      for (const auto &[From, To] : Names)
        if (size_t At = L.find(From); At != std::string::npos)
          L.replace(At, From.size(), To);
    Text += L;
    if (I + 1 < Lines.size())
      Text += '\n';
  }
  if (Output.empty() || Output == "-") {
    outs() << Text;
    return true;
  }
  return writeFile(Output, Text);
}

std::string copyStandardInput() {
  SmallString<256> Path;
  int FD = -1;
  if (auto EC = sys::fs::createTemporaryFile("poc-stdin", "cpp", FD, Path)) {
    errs() << "poc++: error: cannot create a temporary file: " << EC.message() << "\n";
    return "";
  }
  auto Input = MemoryBuffer::getSTDIN();
  raw_fd_ostream Out(FD, /*shouldClose=*/true);
  if (!Input) {
    errs() << "poc++: error: cannot read standard input: " << Input.getError().message() << "\n";
    return "";
  }
  Out << (*Input)->getBuffer();
  return Path.str().str();
}

} // namespace pocc
