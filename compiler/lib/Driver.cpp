//===- Driver.cpp - the poc++ driver: translate, compile, link ------------===//
#include "pocc/Driver.h"
#include "pocc/Config.h"
#include "pocc/RuntimePch.h"
#include "pocc/Translator.h"
#include "pocc/UserFileSystem.h"
#include "pocc/UserSourcePrinter.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
/// Runs a command; prints it first with -v; with -### only prints it,
/// quoted as Clang's -### does.
int run(const std::vector<std::string> &Cmd, const DriverOptions &O) {
  if (O.DryRun) {
    for (const std::string &A : Cmd)
      errs() << ' ' << '"' << A << '"';
    errs() << '\n';
    return 0;
  }
  auto Program = sys::findProgramByName(Cmd[0]);
  if (!Program) {
    errs() << "poc++: error: cannot find '" << Cmd[0] << "' (set POC_CXX to a C++ compiler)\n";
    return 1;
  }
  if (O.Verbose) {
    for (const std::string &A : Cmd)
      errs() << A << ' ';
    errs() << '\n';
  }
  std::vector<StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Err;
  int RC = sys::ExecuteAndWait(*Program, Args, std::nullopt, {}, 0, 0, &Err);
  if (RC < 0) {
    errs() << "poc++: error: running '" << Cmd[0] << "' failed: " << Err << "\n";
    return 1;
  }
  return RC;
}
} // namespace

namespace {
/// Translates the sources of one invocation.
class Translation {
public:
  Translation(const DriverOptions &O, const Toolchain &TC) : O(O), TC(TC) {}

  /// Loads the compilation database (or makes a fixed one).
  bool init() {
    if (!O.CompilationDbDir.empty()) {
      std::string Err;
      DB = tooling::CompilationDatabase::loadFromDirectory(O.CompilationDbDir, Err);
      if (!DB) {
        errs() << "poc++: error: " << Err << "\n";
        return false;
      }
    } else {
      std::vector<std::string> Flags = O.ParseFlags;
      if (!O.HasStd)
        Flags.push_back("-std=c++20");
      DB = std::make_unique<tooling::FixedCompilationDatabase>(".", Flags);
    }
    return true;
  }

  /// Pass one for multi-file programs: which classes are created remotely.
  bool collect(std::set<std::string> &Names) {
    std::vector<std::string> All = O.Sources;
    All.insert(All.end(), O.ProgramSources.begin(), O.ProgramSources.end());
    for (const std::string &Src : All) {
      auto Tool = makeTool(Src);
      CollectFactory F(Names);
      if (Tool.first->run(&F) != 0)
        return false;
    }
    return true;
  }

  /// Translates \p Src into \p Out; false on errors (already reported).
  /// Rewritten headers go under \p HeaderDir (empty: none may be needed).
  bool translate(const std::string &Src, const std::string &GenName,
                 const std::set<std::string> &Names, std::string &Out,
                 std::vector<std::string> &Deps, const std::string &HeaderDir,
                 std::vector<std::pair<std::string, std::string>> &Headers) {
    auto [Tool, FS] = makeTool(Src);
    TranslateOptions TO;
    TO.PortableNames = O.EmitGeneratedDir == "-";
    TO.ProgramRemotable = Names;
    TO.GeneratedName = GenName;
    TO.SourceName = shownName(Src);
    TO.Files = FS.get();
    TO.Dependencies = &Deps;
    TO.HeaderDir = HeaderDir;
    TO.Headers = &Headers;
    TranslateFactory F(TO, Out);
    return Tool->run(&F) == 0 && !Out.empty();
  }

private:
  struct CollectFactory : tooling::FrontendActionFactory {
    std::set<std::string> &Names;
    explicit CollectFactory(std::set<std::string> &N) : Names(N) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<CollectRemotableAction>(Names);
    }
  };
  struct TranslateFactory : tooling::FrontendActionFactory {
    const TranslateOptions &TO;
    std::string &Out;
    TranslateFactory(const TranslateOptions &TO, std::string &Out) : TO(TO), Out(Out) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<TranslateAction>(TO, Out);
    }
  };

  std::pair<std::unique_ptr<tooling::ClangTool>, IntrusiveRefCntPtr<UserFileSystem>>
  makeTool(const std::string &Src) {
    auto FS = makeIntrusiveRefCnt<UserFileSystem>(vfs::getRealFileSystem(), TC.systemPrefixes());
    auto Tool = std::make_unique<tooling::ClangTool>(
        *DB, ArrayRef<std::string>{Src}, std::make_shared<PCHContainerOperations>(), FS);
    std::vector<std::string> Extra{"-xc++",         "-resource-dir",   TC.ClangResourceDir,
                                   "-isystem",      TC.RuntimeInclude, "-isystem",
                                   TC.ParseInclude, "-D__POCXX__=1"};
    // The precompiled prefix was made for the default language options.
    if (!TC.ParsePch.empty() && !O.HasStd && O.CompilationDbDir.empty())
      Extra.insert(Extra.end(), {"-include-pch", TC.ParsePch});
    else
      Extra.insert(Extra.end(), {"-include", "poc_parse_prefix.hpp"});
    for (const std::string &M : TC.MpiIncludes)
      Extra.insert(Extra.end(), {"-isystem", M});
    // A failed parse has printed its diagnostics; LibTooling's own
    // "Error while processing" line would only add noise after them.
    Tool->setPrintErrorMessage(false);
    Tool->setDiagnosticConsumer(&Printer);
    Tool->appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
    Tool->appendArgumentsAdjuster(tooling::getClangStripDependencyFileAdjuster());
    Tool->appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
    Tool->appendArgumentsAdjuster(
        tooling::getInsertArgumentAdjuster(Extra, tooling::ArgumentInsertPosition::BEGIN));
    return {std::move(Tool), FS};
  }

  const DriverOptions &O;
  const Toolchain &TC;
  std::unique_ptr<tooling::CompilationDatabase> DB;

public:
  /// The file that holds standard input (source "-"); see shownName.
  std::string StdinCopy;
  /// Makes \p Path the copy of standard input, which diagnostics show as
  /// clang++ does.
  void takeStdinCopy(std::string Path) {
    StdinCopy = std::move(Path);
    Printer.showFileAs(StdinCopy, shownName(StdinCopy));
  }
  /// How `#line`, line markers and diagnostics name source \p Src.
  std::string shownName(const std::string &Src) const { return Src == StdinCopy ? "<stdin>" : Src; }

private:
  UserSourcePrinter Printer;
};

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

/// The prerequisites of a Makefile rule file written by a compiler's -MD:
/// continuation lines joined, escaped spaces kept in their paths.
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

/// Writes the dependency file the -M options asked for: the rule for the
/// target(s) (-MT/-MQ, or \p Object), with the user's \p Source, the user
/// headers the translation read (\p SourceDeps) and what the system
/// compiler reported in \p CompilerDeps, less poc++'s own files in
/// \p GenDir (the translation and rewritten header copies).
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

/// Writes the rewritten copies of headers into \p Dir, replacing any
/// earlier ones (a header that no longer needs a copy must not keep one).
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
/// Writes a translation and its header copies to standard output, each
/// after a line naming it (--emit-generated -): the translation first, the
/// copies in the order of their names.
void writeGeneratedStream(const std::string &Name, StringRef Text,
                          const std::vector<std::pair<std::string, std::string>> &Headers) {
  auto file = [](StringRef FileName, StringRef FileText) {
    outs() << "// ==== poc++ generated file: " << FileName << " ====\n" << FileText;
  };
  file(Name, Text);
  for (const auto &[Path, HeaderText] : Headers)
    file(Path, HeaderText);
}

/// Copies the preprocessed translation \p Path to \p Output (standard
/// output if empty), its line markers naming \p Source where they named
/// the translation \p Generated, and the user's header where they named
/// its rewritten copy (under Generated.headers/, at the header's path).
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

/// Answers --version, -dumpversion, -print-file-name=, ... as the system
/// compiler does (poc++'s own version line first, for --version).
int answerCompilerQuery(const DriverOptions &O, const Toolchain &TC) {
  if (O.Version)
    outs() << "poc++ version " << config::Version << " (process-oriented C++ on "
           << sys::path::filename(TC.Compiler) << ")\n";
  outs().flush();
  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), O.CompilerQuery.begin(), O.CompilerQuery.end());
  return run(Cmd, O);
}

/// Copies standard input to a temporary file; empty on failure (reported).
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
} // namespace

int runDriver(const DriverOptions &Given, const Toolchain &TC) {
  if (Given.Sources.empty() && Given.LinkInputs.empty())
    return answerCompilerQuery(Given, TC);
  DriverOptions O = Given;
  Translation T(O, TC);
  // `-x c++ -`: the source is standard input, kept in a temporary file.
  struct RemoveStdinCopy {
    std::string &Path;
    ~RemoveStdinCopy() {
      if (!Path.empty())
        sys::fs::remove(Path);
    }
  } R{T.StdinCopy};
  for (std::string &Src : O.Sources) {
    if (Src == "-") {
      if (T.StdinCopy.empty()) {
        std::string Copy = copyStandardInput();
        if (Copy.empty())
          return 1;
        T.takeStdinCopy(std::move(Copy));
      }
      Src = T.StdinCopy;
    } else if (!sys::fs::exists(Src)) {
      errs() << "poc++: error: no such file or directory: '" << Src << "'\n";
      return 1;
    }
  }
  if (!T.init())
    return 1;

  std::set<std::string> Names;
  if (O.Sources.size() + O.ProgramSources.size() > 1 && !T.collect(Names))
    return 1;

  // Generated sources go to --emit-generated DIR or a temporary folder,
  // objects to the temporary folder.
  bool Stream = O.EmitGeneratedDir == "-";
  SmallString<128> TempDir;
  if (!Stream && !O.TranslateOnly) {
    if (auto EC = sys::fs::createUniqueDirectory("poc++", TempDir)) {
      errs() << "poc++: error: cannot create a temporary directory: " << EC.message() << "\n";
      return 1;
    }
  }
  struct Cleanup {
    SmallString<128> &Dir;
    ~Cleanup() {
      if (!Dir.empty())
        sys::fs::remove_directories(Dir);
    }
  } C{TempDir};
  std::string GenDir = Stream ? "" : O.EmitGeneratedDir;
  if (!GenDir.empty()) {
    if (auto EC = sys::fs::create_directories(GenDir)) {
      errs() << "poc++: error: cannot create '" << GenDir << "': " << EC.message() << "\n";
      return 1;
    }
  } else {
    GenDir = TempDir.str().str();
  }

  std::vector<std::string> Generated;
  std::vector<std::vector<std::string>> SourceDeps;
  for (const std::string &Src : O.Sources) {
    std::string Name = stem(Src) + ".poc.cpp";
    SmallString<256> Gen(GenDir);
    sys::path::append(Gen, Name);
    // Rewritten headers go beside the translation that includes them.
    std::string GenName = Gen.str().str(), HeaderDir = absolute(GenName) + ".headers";
    if (Stream) {
      GenName = Name;
      HeaderDir = Name + ".headers";
    } else if (O.TranslateOnly && O.EmitGeneratedDir.empty()) {
      GenName = O.Output;
      HeaderDir = absolute(O.Output) + ".headers";
    }
    std::string Out;
    std::vector<std::string> Deps;
    std::vector<std::pair<std::string, std::string>> Headers;
    if (!T.translate(Src, GenName, Names, Out, Deps, HeaderDir, Headers))
      return 1;
    if (!O.DepFile.empty()) {
      std::string Text = (O.Output.empty() ? GenName : O.Output) + ":";
      for (const std::string &D : Deps)
        Text += " \\\n  " + D;
      if (!writeFile(O.DepFile, Text + "\n"))
        return 1;
    }
    if (Stream) {
      writeGeneratedStream(GenName, Out, Headers);
      continue;
    }
    if (!writeHeaders(HeaderDir, Headers))
      return 1;
    if (!writeFile(GenName, Out))
      return 1;
    if (O.TranslateOnly && !O.EmitGeneratedDir.empty() && !O.Output.empty() &&
        !writeFile(O.Output, Out))
      return 1;
    Generated.push_back(GenName);
    SourceDeps.push_back(std::move(Deps));
  }
  if (O.TranslateOnly)
    return 0;

  // Compile each translation with the system compiler.
  std::vector<std::string> Objects;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    const char *Ext = O.Assemble ? ".s" : ".o";
    // poc++'s own files for this source, in the temporary folder.
    auto temporary = [&](const std::string &Suffix) {
      return TempDir.str().str() + "/" + stem(O.Sources[I]) + Suffix;
    };
    std::string Obj;
    if (O.CompileOnly || O.Deps.Only)
      Obj = !O.Output.empty() ? O.Output : stem(O.Sources[I]) + Ext;
    else
      Obj = temporary("." + std::to_string(I) + ".o");
    std::vector<std::string> Cmd{TC.Compiler};
    if (!O.HasStd)
      Cmd.push_back("-std=c++20");
    Cmd.insert(Cmd.end(), O.CompileFlags.begin(), O.CompileFlags.end());
    SmallString<256> SrcDir(sys::path::parent_path(O.Sources[I]));
    if (SrcDir.empty())
      SrcDir = ".";
    if (!TC.CxxPchDir.empty())
      Cmd.insert(Cmd.end(), {"-isystem", TC.CxxPchDir});
    for (const std::string &M : TC.MpiIncludes)
      Cmd.insert(Cmd.end(), {"-isystem", M});
    Cmd.insert(Cmd.end(), {"-isystem", TC.RuntimeInclude});
    // The runtime's header precompiled for exactly these flags (not for -E,
    // whose output must hold the header's text).
    if (!O.Preprocess && !O.Deps.Only && !O.DryRun)
      if (std::string Pch = runtimePch(TC, {Cmd.begin() + 1, Cmd.end()}); !Pch.empty())
        Cmd.insert(Cmd.end(), {"-include-pch", Pch});
    Cmd.insert(Cmd.end(), {"-iquote", SrcDir.str().str()});
    // The system compiler lists what the translation includes; poc++ turns
    // that into the dependencies of the user's source.
    std::string CompilerDeps = temporary(".compiler.d");
    if (O.Deps.Write)
      Cmd.insert(Cmd.end(), {O.Deps.Only ? (O.Deps.UserOnly ? "-MM" : "-M")
                                         : (O.Deps.UserOnly ? "-MMD" : "-MD"),
                             "-MF", CompilerDeps});
    if (!O.Deps.Only)
      Cmd.push_back(O.SyntaxOnly   ? "-fsyntax-only"
                    : O.Preprocess ? "-E"
                    : O.Assemble   ? "-S"
                                   : "-c");
    Cmd.push_back(Generated[I]);
    // -E: preprocessed into a file of ours, whose line markers then name
    // the user's source instead of the translation.
    std::string Preprocessed = temporary(".ii");
    if (O.Preprocess && !O.Deps.Only)
      Cmd.insert(Cmd.end(), {"-o", Preprocessed});
    else if (!O.Deps.Only && !O.SyntaxOnly)
      Cmd.insert(Cmd.end(), {"-o", Obj});
    if (int RC = run(Cmd, O))
      return RC;
    if (O.Preprocess && !O.Deps.Only && !O.DryRun &&
        !writePreprocessed(Preprocessed, Generated[I], T.shownName(O.Sources[I]), O.Output))
      return 1;
    if (O.Deps.Write && !O.DryRun &&
        !writeDependencies(O, O.Sources[I], Obj, CompilerDeps, GenDir, SourceDeps[I]))
      return 1;
    Objects.push_back(Obj);
  }
  if (O.CompileOnly || O.Deps.Only)
    return 0;

  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), Objects.begin(), Objects.end());
  Cmd.insert(Cmd.end(), O.LinkInputs.begin(), O.LinkInputs.end());
  Cmd.insert(Cmd.end(), {"-o", O.Output.empty() ? "a.out" : O.Output});
  Cmd.insert(Cmd.end(), O.LinkFlags.begin(), O.LinkFlags.end());
  Cmd.insert(Cmd.end(), TC.RuntimeLibraries.begin(), TC.RuntimeLibraries.end());
  Cmd.insert(Cmd.end(), TC.RuntimeLinkFlags.begin(), TC.RuntimeLinkFlags.end());
  Cmd.insert(Cmd.end(), TC.MpiLibraries.begin(), TC.MpiLibraries.end());
  return run(Cmd, O);
}

} // namespace pocc
