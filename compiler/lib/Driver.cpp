//===- Driver.cpp - the poc++ driver: translate, compile, link ------------===//
#include "pocc/Driver.h"
#include "pocc/Config.h"
#include "pocc/ObjectRecord.h"
#include "pocc/PlainCompile.h"
#include "pocc/ProgramLink.h"
#include "pocc/RuntimePch.h"
#include "pocc/StartKeyword.h"
#include "pocc/Translator.h"
#include "pocc/UserFileSystem.h"
#include "pocc/UserSourcePrinter.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
/// Prints \p Cmd as -v shows commands, or quoted as -### does.
void printCommand(const std::vector<std::string> &Cmd, bool Quoted) {
  for (const std::string &A : Cmd) {
    if (Quoted)
      errs() << ' ' << '"' << A << '"';
    else
      errs() << A << ' ';
  }
  errs() << '\n';
}

/// Runs a command; prints it first with -v (\p Shown); with -### only
/// prints it, quoted as Clang's -### does. The Clang poc++ is built on runs
/// in this process, as clang++ would run (pocc/PlainCompile.h).
int run(const std::vector<std::string> &Cmd, const DriverOptions &O, const Toolchain &TC,
        bool Shown = true) {
  if (O.DryRun) {
    printCommand(Cmd, true);
    return 0;
  }
  if (O.Verbose && Shown)
    printCommand(Cmd, false);
  if (TC.CompilerInProcess && Cmd[0] == TC.Compiler)
    return runClangDriver(Cmd[0], ArrayRef<std::string>(Cmd).drop_front());
  auto Program = sys::findProgramByName(Cmd[0]);
  if (!Program) {
    errs() << "poc++: error: cannot find '" << Cmd[0] << "' (set POC_CXX to a C++ compiler)\n";
    return 1;
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
/// The translation of one source and what goes with it.
struct TranslatedSource {
  /// The name the translation is written under, and the folder of its
  /// rewritten headers (empty: none may be needed).
  std::string GenName, HeaderDir;
  std::string Text;              ///< the translation
  std::vector<std::string> Deps; ///< the user files it read
  /// (path, text) of each rewritten header copy.
  std::vector<std::pair<std::string, std::string>> Headers;
  TranslationReport Report;
  /// The parse's diagnostics, when they were held back.
  std::string Diagnostics;
};

/// Where the translation of \p Src goes in \p GenDir: `<stem>.poc.cpp`,
/// with the rewritten headers beside it.
TranslatedSource generatedFiles(const std::string &GenDir, const std::string &Src);

/// \p Path made absolute.
std::string absolute(const std::string &Path);

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
      // Process operations need C++20; a file given an older standard is
      // parsed as C++20 to find out whether it has any (Build::translate).
      if (!O.HasStd || O.StdBeforeCxx20)
        Flags.push_back("-std=c++20");
      DB = std::make_unique<tooling::FixedCompilationDatabase>(".", Flags);
    }
    return true;
  }

  /// Pass one for multi-file programs: which classes are created remotely.
  /// A file that does not parse here creates none; its own compile shows
  /// its errors (a plain file's as clang++ shows them).
  void collect(std::set<std::string> &Names) {
    std::vector<std::string> All = O.ProgramSources;
    for (size_t I = 0; I < O.Sources.size(); ++I)
      if (!O.PlainOnly[I])
        All.push_back(O.Sources[I]);
    IgnoringDiagConsumer Silent;
    for (const std::string &Src : All) {
      auto Tool = makeTool(Src);
      Tool.first->setDiagnosticConsumer(&Silent);
      CollectFactory F(Names);
      (void)Tool.first->run(&F);
    }
  }

  /// Translates \p Src into \p Into (whose GenName and HeaderDir are
  /// set); false on errors (already reported, or with \p Hold kept in
  /// Into.Diagnostics).
  bool translate(const std::string &Src, const std::set<std::string> &Names, TranslatedSource &Into,
                 bool Hold = false) {
    auto [Tool, FS] = makeTool(Src);
    TranslateOptions TO;
    TO.PocHeaderDirs = {TC.RuntimeInclude, TC.ParseInclude};
    TO.Report = &Into.Report;
    if (O.StdBeforeCxx20)
      TO.OlderStandard = O.Std;
    TO.PortableNames = O.EmitGeneratedDir == "-";
    TO.ProgramRemotable = Names;
    TO.GeneratedName = Into.GenName;
    TO.SourceName = shownName(Src);
    TO.Files = FS.get();
    TO.Dependencies = &Into.Deps;
    TO.HeaderDir = Into.HeaderDir;
    TO.Headers = &Into.Headers;
    if (Hold)
      TO.Summary = &Printer.heldStream();
    TranslateFactory F(TO, Into.Text);
    Printer.holdBack(Hold);
    bool Done = Tool->run(&F) == 0 && !Into.Text.empty();
    Into.Diagnostics = Printer.takeHeldBack();
    Printer.holdBack(false);
    return Done;
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
  /// Diagnostics name source \p Src as the user named it (LibTooling
  /// parses it under its absolute path), as clang++ does.
  void showAsNamed(const std::string &Src) {
    if (!sys::path::is_absolute(Src))
      Printer.showFileAs(absolute(Src), Src);
  }

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

/// \p Flags without -v (a precompiled header is the same with or without).
std::vector<std::string> withoutVerbose(std::vector<std::string> Flags) {
  Flags.erase(std::remove(Flags.begin(), Flags.end(), "-v"), Flags.end());
  return Flags;
}

/// Source \p I checked with -fsyntax-only under the user's flags, in this
/// process: does it compile as plain C++? (For commands that parse nothing
/// themselves: -E, -M, -###.)
PlainCompile checkPlain(const DriverOptions &O, const Toolchain &TC, size_t I) {
  std::vector<std::string> Args = withoutVerbose(O.CompileFlags);
  if (!O.SourceLanguages[I].empty())
    Args.insert(Args.end(), {"-x", O.SourceLanguages[I]});
  Args.insert(Args.end(), {"-fsyntax-only", O.Sources[I]});
  return compilePlain(TC.Compiler, Args, {TC.RuntimeInclude, TC.ParseInclude});
}

/// True if the command's sources are all plain C++ under the user's flags
/// and its link inputs need no runtime: its -### is clang++'s.
bool allPlain(const DriverOptions &O, const Toolchain &TC) {
  if (!TC.CompilerInProcess || O.TranslateOnly || !O.ProcessClasses.empty() ||
      !O.EmitGeneratedDir.empty() || !O.CompilationDbDir.empty())
    return false;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    if (O.PlainOnly[I])
      continue;
    PlainCompile Check = checkPlain(O, TC, I);
    if (!Check.Compiled || Check.UsesPoc)
      return false;
  }
  Expected<LinkPlan> Plan = planLink(O.LinkInputs);
  if (!Plan) {
    consumeError(Plan.takeError());
    return false;
  }
  return !Plan->NeedsRuntime && Plan->Recompilations.empty();
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
  return run(Cmd, O, TC);
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

/// True if the main file \p Src names anything of poc++'s (the identifier
/// `poc`, `__POCXX__`, a `start` keyword) or uses a placement `new (`. Only
/// an order: such a file is parsed with poc++'s API first, which saves a
/// failed plain compile of a file with process operations; the answer is
/// still the parses' (Build::compileSource).
bool mentionsProcessOperations(const std::string &Src) {
  auto Buffer = MemoryBuffer::getFile(Src);
  if (!Buffer)
    return true;
  StringRef Text = (*Buffer)->getBuffer();
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus20 = true;
  if (!scanStartKeywords(Text, LO).ExprOffsets.empty())
    return true;
  Lexer L(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  Token Tok, Previous;
  Previous.startToken();
  while (!L.LexFromRawLexer(Tok)) {
    if (Tok.is(tok::raw_identifier)) {
      StringRef Id = Tok.getRawIdentifier();
      if (Id == "poc" || Id == "__POCXX__")
        return true;
    }
    if (Tok.is(tok::l_paren) && Previous.is(tok::raw_identifier) &&
        Previous.getRawIdentifier() == "new")
      return true;
    Previous = Tok;
  }
  return false;
}

TranslatedSource generatedFiles(const std::string &GenDir, const std::string &Src) {
  SmallString<256> Gen(GenDir);
  sys::path::append(Gen, stem(Src) + ".poc.cpp");
  TranslatedSource T;
  T.GenName = Gen.str().str();
  T.HeaderDir = absolute(T.GenName) + ".headers";
  return T;
}

/// --translate-only and --emit-generated -: translates every source and
/// writes the translations, compiling nothing.
int translateOnly(const DriverOptions &O, Translation &T, const std::string &GenDir,
                  const std::set<std::string> &Names) {
  bool Stream = O.EmitGeneratedDir == "-";
  for (const std::string &Src : O.Sources) {
    TranslatedSource Gen = generatedFiles(GenDir, Src);
    if (Stream) {
      Gen.GenName = sys::path::filename(Gen.GenName).str();
      Gen.HeaderDir = Gen.GenName + ".headers";
    } else if (O.EmitGeneratedDir.empty()) {
      Gen.GenName = O.Output;
      Gen.HeaderDir = absolute(O.Output) + ".headers";
    }
    if (!T.translate(Src, Names, Gen))
      return 1;
    if (!O.DepFile.empty()) {
      std::string Text = (O.Output.empty() ? Gen.GenName : O.Output) + ":";
      for (const std::string &D : Gen.Deps)
        Text += " \\\n  " + D;
      if (!writeFile(O.DepFile, Text + "\n"))
        return 1;
    }
    if (Stream) {
      writeGeneratedStream(Gen.GenName, Gen.Text, Gen.Headers);
      continue;
    }
    if (!writeHeaders(Gen.HeaderDir, Gen.Headers) || !writeFile(Gen.GenName, Gen.Text))
      return 1;
    if (!O.EmitGeneratedDir.empty() && !O.Output.empty() && !writeFile(O.Output, Gen.Text))
      return 1;
  }
  return 0;
}

/// One poc++ command: compiles each source (as plain C++ or translated)
/// and links.
class Build {
public:
  Build(const DriverOptions &O, const Toolchain &TC, Translation &T, std::string TempDir,
        std::string GenDir, std::set<std::string> Names)
      : O(O), TC(TC), T(T), TempDir(std::move(TempDir)), GenDir(std::move(GenDir)),
        Names(std::move(Names)) {}

  /// Compiles source \p I into \p Obj (or what -S, -E, -M, -fsyntax-only
  /// ask for); returns the exit code.
  int compileSource(size_t I, const std::string &Obj);
  /// Links \p Objects with the link inputs (pocc/ProgramLink.h).
  int link(const std::vector<std::string> &Objects);

private:
  /// poc++'s own files for source \p I, in the temporary folder.
  std::string temporary(size_t I, const std::string &Suffix) const {
    return TempDir + "/" + stem(O.Sources[I]) + Suffix;
  }
  /// True if source files may be compiled as plain C++ in this process.
  bool plainAllowed() const {
    return TC.CompilerInProcess && O.ProcessClasses.empty() && O.EmitGeneratedDir.empty() &&
           O.CompilationDbDir.empty();
  }
  /// clang++'s arguments for source \p I alone, as the user gave them.
  std::vector<std::string> plainArguments(size_t I, const std::string &Obj) const;
  /// Compiles source \p I exactly as clang++ does (in this process), its
  /// diagnostics held back in \p Result.
  PlainCompile compilePlainSource(size_t I, const std::string &Obj) const;
  /// Prints a plain compile's diagnostics (standard input named as
  /// clang++ names it).
  void printPlainDiagnostics(const PlainCompile &Plain) const;
  /// Prints the diagnostics of source \p I's plain compile and records
  /// its object; the exit code.
  int finishPlain(size_t I, const std::string &Obj, const PlainCompile &Plain) const;
  /// Compiles source \p I as clang++ (or POC_CXX) does: a file that cannot
  /// hold process operations, or one found to have none.
  int compilePlainOnly(size_t I, const std::string &Obj);
  /// The record of source \p I, without what its compile found.
  ObjectRecord recordOf(size_t I) const;
  bool attach(const std::string &Obj, const ObjectRecord &R) const;
  bool writesObject() const {
    return !O.Assemble && !O.Preprocess && !O.SyntaxOnly && !O.Deps.Only && !O.DryRun;
  }
  /// Compiles the translation of source \p I (written to \p Generated).
  int compileTranslation(size_t I, const std::string &Obj, const std::string &Generated,
                         const std::vector<std::string> &SourceDeps);
  /// Compiles the files of \p Plan.Recompilations again, and replaces
  /// their objects in \p Objects and the link inputs and flags.
  bool recompile(const LinkPlan &Plan, std::vector<std::string> &Objects,
                 std::vector<std::string> &LinkInputs, std::vector<std::string> &LinkFlags);

  const DriverOptions &O;
  const Toolchain &TC;
  Translation &T;
  std::string TempDir, GenDir;
  std::set<std::string> Names;
  /// True once a source was translated (what -### assumes of the link).
  bool AnyTranslated = false;
};

std::vector<std::string> Build::plainArguments(size_t I, const std::string &Obj) const {
  std::vector<std::string> A = O.CompileFlags;
  if (O.Deps.Write) {
    A.push_back(O.Deps.Only ? (O.Deps.UserOnly ? "-MM" : "-M")
                            : (O.Deps.UserOnly ? "-MMD" : "-MD"));
    if (!O.Deps.File.empty())
      A.insert(A.end(), {"-MF", O.Deps.File});
    for (const std::string &Target : O.Deps.Targets)
      A.insert(A.end(), {"-MT", Target});
    if (O.Deps.Phony)
      A.push_back("-MP");
  }
  if (!O.Deps.Only)
    A.push_back(O.SyntaxOnly ? "-fsyntax-only" : O.Preprocess ? "-E" : O.Assemble ? "-S" : "-c");
  // The source's language as the user gave it (a `.c` file is C++ to
  // clang++, with its warning).
  if (!O.SourceLanguages[I].empty())
    A.insert(A.end(), {"-x", O.SourceLanguages[I]});
  A.push_back(O.Sources[I]);
  bool ToStdout = (O.Preprocess || O.Deps.Only) && (O.Output.empty() || O.Output == "-");
  if (!O.SyntaxOnly && !ToStdout && !Obj.empty())
    A.insert(A.end(), {"-o", O.Preprocess || O.Deps.Only ? O.Output : Obj});
  return A;
}

ObjectRecord Build::recordOf(size_t I) const {
  ObjectRecord R;
  R.Source = T.shownName(O.Sources[I]) == "<stdin>" ? "<stdin>" : absolute(O.Sources[I]);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  R.Directory = Cwd.str().str();
  R.SourceHash = hashFile(O.Sources[I]);
  R.CompileFlags = O.CompileFlags;
  R.CompilationDbDir = O.CompilationDbDir;
  return R;
}

bool Build::attach(const std::string &Obj, const ObjectRecord &R) const {
  // Only an object file holds the record: not bitcode (-flto), a
  // precompiled header, or /dev/null.
  if (!writesObject() || !canHoldRecord(Obj))
    return true;
  if (Error E = attachRecord(TC.ObjCopy, Obj, R)) {
    errs() << "poc++: error: " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

PlainCompile Build::compilePlainSource(size_t I, const std::string &Obj) const {
  return compilePlain(TC.Compiler, plainArguments(I, Obj), {TC.RuntimeInclude, TC.ParseInclude});
}

void Build::printPlainDiagnostics(const PlainCompile &Plain) const {
  std::string Text = Plain.Diagnostics;
  if (!T.StdinCopy.empty())
    for (size_t At = Text.find(T.StdinCopy); At != std::string::npos;
         At = Text.find(T.StdinCopy, At))
      Text.replace(At, T.StdinCopy.size(), "<stdin>");
  errs() << Text;
}

int Build::finishPlain(size_t I, const std::string &Obj, const PlainCompile &Plain) const {
  printPlainDiagnostics(Plain);
  ObjectRecord R = recordOf(I);
  R.Calls = Plain.Calls;
  return attach(Obj, R) ? 0 : 1;
}

int Build::compilePlainOnly(size_t I, const std::string &Obj) {
  if (TC.CompilerInProcess && !O.DryRun) {
    PlainCompile Plain = compilePlainSource(I, Obj);
    if (!Plain.Compiled) {
      printPlainDiagnostics(Plain);
      return 1;
    }
    return finishPlain(I, Obj, Plain);
  }
  std::vector<std::string> Cmd{TC.Compiler};
  std::vector<std::string> Args = plainArguments(I, Obj);
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  return run(Cmd, O, TC);
}

int Build::compileSource(size_t I, const std::string &Obj) {
  if (O.PlainOnly[I])
    return compilePlainOnly(I, Obj);
  const std::string &Src = O.Sources[I];
  // Whether a file has process operations is decided by the file as the
  // user's flags parse it: if it compiles as clang++ compiles it, without
  // poc++'s API, it is plain C++ and that compile was its only parse.
  // -E, -M and -### parse nothing, so a syntax check asks first.
  // A file whose text mentions poc++ is parsed with its API first (that
  // parse decides, and a file without process operations is still
  // compiled as clang++ compiles it).
  bool TriedPlain = plainAllowed();
  bool Parses = !O.Preprocess && !O.Deps.Only && !O.DryRun;
  bool PlainFirst = !Parses || !mentionsProcessOperations(Src);
  PlainCompile Plain;
  if (TriedPlain && PlainFirst) {
    Plain = Parses ? compilePlainSource(I, Obj) : checkPlain(O, TC, I);
    if (Plain.Compiled && !Plain.UsesPoc)
      return Parses ? finishPlain(I, Obj, Plain) : compilePlainOnly(I, Obj);
  }

  // Otherwise the parse with poc++'s API (under C++20 unless the user chose
  // a standard) tells; its diagnostics are held back until it has.
  TranslatedSource Gen = generatedFiles(GenDir, Src);
  bool Translated = T.translate(Src, Names, Gen, /*Hold=*/TriedPlain);
  if (TriedPlain && !Gen.Report.ProcessOperations && !Gen.Report.ReachesPoc) {
    // No process operation, and nothing of poc++'s: the file's own answer
    // under its own flags, as clang++ gives it.
    if (!Parses || !PlainFirst)
      return compilePlainOnly(I, Obj);
    if (Plain.Compiled)
      return finishPlain(I, Obj, Plain);
    printPlainDiagnostics(Plain);
    return 1;
  }
  errs() << Gen.Diagnostics;
  if (!Translated)
    return 1;
  if (!writeHeaders(Gen.HeaderDir, Gen.Headers) || !writeFile(Gen.GenName, Gen.Text))
    return 1;
  AnyTranslated = true;
  if (int RC = compileTranslation(I, Obj, Gen.GenName, Gen.Deps))
    return RC;
  ObjectRecord R = recordOf(I);
  R.Translated = true;
  R.DefinesMain = Gen.Report.DefinesMain;
  R.Creates = Gen.Report.Creates;
  R.Calls = Gen.Report.Calls;
  return attach(Obj, R) ? 0 : 1;
}

int Build::compileTranslation(size_t I, const std::string &Obj, const std::string &Generated,
                              const std::vector<std::string> &SourceDeps) {
  std::vector<std::string> Cmd{TC.Compiler};
  if (!O.HasStd)
    Cmd.push_back("-std=c++20");
  // The object of a translation must hold the record the link reads: an
  // ELF section, which LTO's bitcode cannot hold, so it is compiled without
  // LTO (the plain files of the program keep it).
  std::copy_if(O.CompileFlags.begin(), O.CompileFlags.end(), std::back_inserter(Cmd),
               [](StringRef F) { return F != "-flto" && !F.starts_with("-flto="); });
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
    if (std::string Pch = runtimePch(TC, withoutVerbose({Cmd.begin() + 1, Cmd.end()}));
        !Pch.empty())
      Cmd.insert(Cmd.end(), {"-include-pch", Pch});
  Cmd.insert(Cmd.end(), {"-iquote", SrcDir.str().str()});
  // The system compiler lists what the translation includes; poc++ turns
  // that into the dependencies of the user's source.
  std::string CompilerDeps = temporary(I, ".compiler.d");
  if (O.Deps.Write)
    Cmd.insert(Cmd.end(),
               {O.Deps.Only ? (O.Deps.UserOnly ? "-MM" : "-M") : (O.Deps.UserOnly ? "-MMD" : "-MD"),
                "-MF", CompilerDeps});
  if (!O.Deps.Only)
    Cmd.push_back(O.SyntaxOnly ? "-fsyntax-only" : O.Preprocess ? "-E" : O.Assemble ? "-S" : "-c");
  Cmd.push_back(Generated);
  // -E: preprocessed into a file of ours, whose line markers then name
  // the user's source instead of the translation.
  std::string Preprocessed = temporary(I, ".ii");
  if (O.Preprocess && !O.Deps.Only)
    Cmd.insert(Cmd.end(), {"-o", Preprocessed});
  else if (!O.Deps.Only && !O.SyntaxOnly)
    Cmd.insert(Cmd.end(), {"-o", Obj});
  if (int RC = run(Cmd, O, TC))
    return RC;
  if (O.Preprocess && !O.Deps.Only && !O.DryRun &&
      !writePreprocessed(Preprocessed, Generated, T.shownName(O.Sources[I]), O.Output))
    return 1;
  if (O.Deps.Write && !O.DryRun &&
      !writeDependencies(O, O.Sources[I], Obj, CompilerDeps, GenDir, SourceDeps))
    return 1;
  return 0;
}

bool Build::recompile(const LinkPlan &Plan, std::vector<std::string> &Objects,
                      std::vector<std::string> &LinkInputs, std::vector<std::string> &LinkFlags) {
  std::map<std::string, std::map<std::string, std::string>> ArchiveMembers;
  std::map<std::string, std::string> NewObjects;
  for (size_t K = 0; K < Plan.Recompilations.size(); ++K) {
    const Recompilation &R = Plan.Recompilations[K];
    if (Error E = checkRecompilable(R)) {
      errs() << "poc++: error: " << toString(std::move(E)) << "\n";
      return false;
    }
    if (O.Verbose)
      errs() << "poc++: compiling " << R.Record.Source << " again: " << describeUnrewrittenCall(R)
             << "\n";
    // The recorded command line, read again, with the program's process
    // classes: its -std, includes and definitions mean what they meant.
    std::vector<std::string> Args = R.Record.CompileFlags;
    if (!R.Record.CompilationDbDir.empty())
      Args.insert(Args.end(), {"-p", R.Record.CompilationDbDir});
    std::string Output = TempDir + "/again." + std::to_string(K) + ".o";
    Args.insert(Args.end(), {"-c", "-x", "c++", R.Record.Source, "-o", Output});
    Expected<DriverOptions> Again = parseCommandLine(Args);
    if (!Again) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R)
             << "; its recorded flags: " << toString(Again.takeError()) << "\n";
      return false;
    }
    Again->ProcessClasses = Plan.ProcessClasses;
    Again->Verbose = O.Verbose;
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    // The recorded flags name files relative to the original compile's folder.
    if (std::error_code EC = sys::fs::set_current_path(R.Record.Directory)) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R) << "; cannot enter "
             << R.Record.Directory << " to compile it again: " << EC.message() << "\n";
      return false;
    }
    int RC = runDriver(*Again, TC);
    (void)sys::fs::set_current_path(Cwd);
    if (RC != 0) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R) << "; compiling " << R.Record.Source
             << " again for this link failed\n";
      return false;
    }
    if (R.Member.empty())
      NewObjects[R.Input] = Output;
    else
      ArchiveMembers[R.Input][R.Member] = Output;
  }
  for (std::string &Obj : Objects)
    if (auto It = NewObjects.find(Obj); It != NewObjects.end())
      Obj = It->second;
  for (std::string &In : LinkInputs)
    if (auto It = NewObjects.find(In); It != NewObjects.end())
      In = It->second;
  // An archive is copied with the members replaced, and the copy linked.
  size_t Copies = 0;
  std::map<std::string, std::string> NewArchives;
  for (const auto &[Archive, Members] : ArchiveMembers) {
    std::string Copy =
        TempDir + "/archive." + std::to_string(Copies++) + "/" + sys::path::filename(Archive).str();
    if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Copy))) {
      errs() << "poc++: error: cannot create a temporary folder: " << EC.message() << "\n";
      return false;
    }
    if (Error E = copyArchiveReplacing(Archive, Members, Copy)) {
      errs() << "poc++: error: " << Archive << ": " << toString(std::move(E)) << "\n";
      return false;
    }
    NewArchives[Archive] = Copy;
  }
  for (std::string &In : LinkInputs)
    if (auto It = NewArchives.find(In); It != NewArchives.end())
      In = It->second;
  for (const auto &[Index, Archive] : librariesOfLibraryFlags(LinkFlags))
    if (auto It = NewArchives.find(Archive); It != NewArchives.end())
      LinkFlags[Index] = It->second;
  return true;
}

int Build::link(const std::vector<std::string> &Given) {
  std::vector<std::string> Objects = Given, LinkInputs = O.LinkInputs, LinkFlags = O.LinkFlags;
  std::vector<std::string> Inputs = Objects;
  Inputs.insert(Inputs.end(), LinkInputs.begin(), LinkInputs.end());
  for (const auto &[Index, Library] : librariesOfLibraryFlags(LinkFlags))
    Inputs.push_back(Library);
  LinkPlan Plan;
  // -### compiled nothing, so there are no records: the link is shown as
  // the sources being translated suggest.
  Plan.NeedsRuntime = AnyTranslated;
  if (!O.DryRun) {
    Expected<LinkPlan> Planned = planLink(Inputs);
    if (!Planned) {
      errs() << "poc++: error: " << toString(Planned.takeError()) << "\n";
      return 1;
    }
    Plan = std::move(*Planned);
  }
  if (!Plan.Recompilations.empty() && !recompile(Plan, Objects, LinkInputs, LinkFlags))
    return 1;
  // The calls of the files compiled again reach their processes now.
  for (const Recompilation &R : Plan.Recompilations)
    for (ObjectRecord &Rec : Plan.Records)
      if (Rec.Source == R.Record.Source)
        for (ClassCall &C : Rec.Calls)
          C.Rewritten |= Plan.ProcessClasses.count(C.Class) > 0;
  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), Objects.begin(), Objects.end());
  Cmd.insert(Cmd.end(), LinkInputs.begin(), LinkInputs.end());
  Cmd.insert(Cmd.end(), {"-o", O.Output.empty() ? "a.out" : O.Output});
  Cmd.insert(Cmd.end(), LinkFlags.begin(), LinkFlags.end());
  // A plain C++ program is linked exactly as clang++ links it; a shared
  // library leaves the runtime to the program that loads it.
  bool Shared = std::find(LinkFlags.begin(), LinkFlags.end(), "-shared") != LinkFlags.end();
  if (Plan.NeedsRuntime && !Shared) {
    Cmd.insert(Cmd.end(), TC.RuntimeLibraries.begin(), TC.RuntimeLibraries.end());
    Cmd.insert(Cmd.end(), TC.RuntimeLinkFlags.begin(), TC.RuntimeLinkFlags.end());
    if (Plan.WrapMain)
      Cmd.push_back("-Wl,--wrap=main");
    Cmd.insert(Cmd.end(), TC.MpiLibraries.begin(), TC.MpiLibraries.end());
  }
  // clang++ -v shows the link itself; poc++ adds no line of its own.
  if (int RC = run(Cmd, O, TC, /*Shown=*/!TC.CompilerInProcess))
    return RC;
  bool Calls = std::any_of(Plan.Records.begin(), Plan.Records.end(),
                           [](const ObjectRecord &R) { return !R.Calls.empty(); });
  if (Shared && Calls && !O.DryRun)
    if (Error E =
            attachLibraryRecords(TC.ObjCopy, O.Output.empty() ? "a.out" : O.Output, Plan.Records)) {
      errs() << "poc++: error: " << toString(std::move(E)) << "\n";
      return 1;
    }
  return 0;
}
} // namespace

int runDriver(const DriverOptions &Given, const Toolchain &TC) {
  if (Given.Sources.empty() && Given.LinkInputs.empty())
    return answerCompilerQuery(Given, TC);
  // -### of plain C++: the jobs clang++ would run.
  if (Given.DryRun && !llvm::is_contained(Given.Sources, "-") && allPlain(Given, TC))
    return runClangDriver(TC.Compiler, Given.ClangArguments);
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
    } else {
      T.showAsNamed(Src);
    }
  }
  if (!T.init())
    return 1;

  std::set<std::string> Names = O.ProcessClasses;
  if (O.Sources.size() + O.ProgramSources.size() > 1)
    T.collect(Names);

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

  if (O.TranslateOnly)
    return translateOnly(O, T, GenDir, Names);

  Build B(O, TC, T, TempDir.str().str(), GenDir, Names);
  std::vector<std::string> Objects;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    const char *Ext = O.Assemble ? ".s" : ".o";
    std::string Obj;
    // A file only clang++ compiles gets its default output name from it
    // (`x.hpp.gch` for a header).
    if ((O.CompileOnly || O.Deps.Only) && O.Output.empty() && O.PlainOnly[I])
      Obj = "";
    else if (O.CompileOnly || O.Deps.Only)
      Obj = !O.Output.empty() ? O.Output : stem(O.Sources[I]) + Ext;
    else
      Obj = TempDir.str().str() + "/" + stem(O.Sources[I]) + "." + std::to_string(I) + ".o";
    if (int RC = B.compileSource(I, Obj))
      return RC;
    Objects.push_back(Obj);
  }
  if (O.CompileOnly || O.Deps.Only)
    return 0;
  return B.link(Objects);
}

} // namespace pocc
