//===- Driver.cpp - the poc++ command line --------------------------------===//
#include "pocc/Driver.h"
#include "pocc/Translator.h"
#include "pocc/UserFileSystem.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace pocc {

const char *usageText() {
  return R"(usage: poc++ [options] FILE.cpp... [-o OUT]

Compiles process-oriented C++ (new(machine) T, start, remote pointers) into
an executable for mpirun, like a C++ compiler driver.

  -o FILE                 output file (default a.out; with -c, FILE.o)
  -c                      compile to object files, do not link
  --translate-only        only translate: write the generated C++ to -o
                          (or standard output), and rewritten copies of
                          headers with process operations to -o's name
                          plus .headers/
  --emit-generated DIR    keep the generated C++ of every input in DIR
  -p DIR                  read compile_commands.json from DIR
  --program-source FILE   another source of the same program, read to find
                          the classes it creates remotely (repeatable)
  --depfile FILE          with --translate-only: write the headers the
                          translation read, for the build system
  -v                      print the commands poc++ runs
  -I -D -U -isystem -include -std=   passed to the parse and the compiler
  -O -g -W -f -m ...      passed to the system C++ compiler
  -L -l -Wl,...           passed to the linker
Environment: POC_CXX selects the system C++ compiler (default: the Clang
poc++ is built on, with MPI's flags added).
)";
}

namespace {
bool isSource(StringRef F) {
  StringRef Ext = sys::path::extension(F);
  return Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C" ||
         Ext == ".c++" || Ext == ".cp";
}

Error argError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Runs a command; prints it first with -v.
int run(const std::vector<std::string> &Cmd, bool Verbose) {
  auto Program = sys::findProgramByName(Cmd[0]);
  if (!Program) {
    errs() << "poc++: error: cannot find '" << Cmd[0]
           << "' (set POC_CXX to a C++ compiler)\n";
    return 1;
  }
  if (Verbose) {
    for (const std::string &A : Cmd)
      errs() << A << ' ';
    errs() << '\n';
  }
  std::vector<StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Err;
  int RC = sys::ExecuteAndWait(*Program, Args, std::nullopt, {}, 0, 0, &Err);
  if (RC < 0) {
    errs() << "poc++: error: running '" << Cmd[0] << "' failed: " << Err
           << "\n";
    return 1;
  }
  return RC;
}
} // namespace

Expected<DriverOptions> parseCommandLine(ArrayRef<std::string> Args) {
  DriverOptions O;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    auto value = [&](StringRef Flag) -> Expected<std::string> {
      if (A.size() > Flag.size())
        return A.substr(Flag.size()).ltrim('=').str();
      if (I + 1 >= Args.size())
        return argError("missing argument after '" + Flag + "'");
      return Args[++I];
    };
    if (A == "-h" || A == "--help") {
      O.Help = true;
    } else if (A == "-c") {
      O.CompileOnly = true;
    } else if (A == "-v") {
      O.Verbose = true;
    } else if (A == "--translate-only") {
      O.TranslateOnly = true;
    } else if (A.starts_with("--emit-generated")) {
      auto V = value("--emit-generated");
      if (!V)
        return V.takeError();
      O.EmitGeneratedDir = *V;
    } else if (A.starts_with("--program-source")) {
      auto V = value("--program-source");
      if (!V)
        return V.takeError();
      O.ProgramSources.push_back(*V);
    } else if (A.starts_with("--depfile")) {
      auto V = value("--depfile");
      if (!V)
        return V.takeError();
      O.DepFile = *V;
    } else if (A.starts_with("-o")) {
      auto V = value("-o");
      if (!V)
        return V.takeError();
      O.Output = *V;
    } else if (A == "-p" || (A.starts_with("-p") && !A.starts_with("-pthread") &&
                             !A.starts_with("-pedantic") && !A.starts_with("-pg") &&
                             !A.starts_with("-pipe"))) {
      auto V = value("-p");
      if (!V)
        return V.takeError();
      O.CompilationDbDir = *V;
    } else if (A.starts_with("-isystem") || A.starts_with("-include") ||
               A.starts_with("-I") || A.starts_with("-D") ||
               A.starts_with("-U")) {
      StringRef Flag = A.starts_with("-isystem")   ? "-isystem"
                       : A.starts_with("-include") ? "-include"
                                                   : A.take_front(2);
      auto V = value(Flag);
      if (!V)
        return V.takeError();
      for (auto *List : {&O.ParseFlags, &O.CompileFlags}) {
        List->push_back(Flag.str());
        List->push_back(*V);
      }
    } else if (A.starts_with("-std=")) {
      O.HasStd = true;
      O.ParseFlags.push_back(A.str());
      O.CompileFlags.push_back(A.str());
    } else if (A.starts_with("-L") || A.starts_with("-l")) {
      StringRef Flag = A.take_front(2);
      auto V = value(Flag);
      if (!V)
        return V.takeError();
      O.LinkFlags.push_back(Flag.str() + *V);
    } else if (A.starts_with("-Wl,") || A == "-shared" || A == "-rdynamic" ||
               A.starts_with("-static")) {
      O.LinkFlags.push_back(A.str());
    } else if (A.starts_with("-O") || A.starts_with("-g") ||
               A.starts_with("-W")) {
      O.CompileFlags.push_back(A.str());
    } else if (A.starts_with("-")) {
      // -pthread, -f..., -m...: meaningful to both compiling and linking.
      O.CompileFlags.push_back(A.str());
      O.LinkFlags.push_back(A.str());
    } else if (isSource(A)) {
      O.Sources.push_back(A.str());
    } else {
      O.LinkInputs.push_back(A.str());
    }
  }
  if (O.Help)
    return O;
  if (O.Sources.empty() && O.LinkInputs.empty())
    return argError("no input files");
  if ((O.CompileOnly || O.TranslateOnly) && !O.Output.empty() &&
      O.Sources.size() > 1)
    return argError("cannot specify -o with -c or --translate-only and "
                    "several input files");
  if (O.TranslateOnly && O.Sources.empty())
    return argError("--translate-only needs C++ source files");
  return O;
}

namespace {
/// Translates the sources of one invocation.
class Translation {
public:
  Translation(const DriverOptions &O, const Toolchain &TC) : O(O), TC(TC) {}

  /// Loads the compilation database (or makes a fixed one).
  bool init() {
    if (!O.CompilationDbDir.empty()) {
      std::string Err;
      DB = tooling::CompilationDatabase::loadFromDirectory(O.CompilationDbDir,
                                                           Err);
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
    TO.ProgramRemotable = Names;
    TO.GeneratedName = GenName;
    TO.SourceName = Src;
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
    TranslateFactory(const TranslateOptions &TO, std::string &Out)
        : TO(TO), Out(Out) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<TranslateAction>(TO, Out);
    }
  };

  std::pair<std::unique_ptr<tooling::ClangTool>,
            IntrusiveRefCntPtr<UserFileSystem>>
  makeTool(const std::string &Src) {
    auto FS = makeIntrusiveRefCnt<UserFileSystem>(vfs::getRealFileSystem(),
                                                  TC.systemPrefixes());
    auto Tool = std::make_unique<tooling::ClangTool>(
        *DB, ArrayRef<std::string>{Src},
        std::make_shared<PCHContainerOperations>(), FS);
    std::vector<std::string> Extra{"-xc++", "-resource-dir",
                                   TC.ClangResourceDir, "-isystem",
                                   TC.RuntimeInclude, "-isystem",
                                   TC.ParseInclude, "-D__POCXX__=1", "-w"};
    // The precompiled prefix was made for the default language options.
    if (!TC.ParsePch.empty() && !O.HasStd && O.CompilationDbDir.empty())
      Extra.insert(Extra.end(), {"-include-pch", TC.ParsePch});
    else
      Extra.insert(Extra.end(), {"-include", "poc_parse_prefix.hpp"});
    for (const std::string &M : TC.MpiIncludes)
      Extra.insert(Extra.end(), {"-isystem", M});
    Tool->appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
    Tool->appendArgumentsAdjuster(
        tooling::getClangStripDependencyFileAdjuster());
    Tool->appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
    Tool->appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        Extra, tooling::ArgumentInsertPosition::BEGIN));
    return {std::move(Tool), FS};
  }

  const DriverOptions &O;
  const Toolchain &TC;
  std::unique_ptr<tooling::CompilationDatabase> DB;
};

bool writeFile(const std::string &Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    errs() << "poc++: error: cannot write '" << Path << "': " << EC.message()
           << "\n";
    return false;
  }
  OS << Text;
  return true;
}

std::string stem(const std::string &Src) {
  return sys::path::stem(Src).str();
}

std::string absolute(const std::string &Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  return Abs.str().str();
}

/// Writes the rewritten copies of headers into \p Dir, replacing any
/// earlier ones (a header that no longer needs a copy must not keep one).
bool writeHeaders(const std::string &Dir,
                  const std::vector<std::pair<std::string, std::string>> &Headers) {
  sys::fs::remove_directories(Dir);
  for (const auto &[Path, Text] : Headers) {
    if (auto EC = sys::fs::create_directories(sys::path::parent_path(Path))) {
      errs() << "poc++: error: cannot create '"
             << sys::path::parent_path(Path) << "': " << EC.message() << "\n";
      return false;
    }
    if (!writeFile(Path, Text))
      return false;
  }
  return true;
}
} // namespace

int runDriver(const DriverOptions &O, const Toolchain &TC) {
  Translation T(O, TC);
  if (!O.Sources.empty() && !T.init())
    return 1;

  std::set<std::string> Names;
  if (O.Sources.size() + O.ProgramSources.size() > 1 && !T.collect(Names))
    return 1;

  // Where generated sources go: --emit-generated DIR, or a temporary one.
  SmallString<128> TempDir;
  std::string GenDir = O.EmitGeneratedDir;
  if (!GenDir.empty()) {
    if (auto EC = sys::fs::create_directories(GenDir)) {
      errs() << "poc++: error: cannot create '" << GenDir
             << "': " << EC.message() << "\n";
      return 1;
    }
  } else if (!O.TranslateOnly) {
    if (auto EC = sys::fs::createUniqueDirectory("poc++", TempDir)) {
      errs() << "poc++: error: cannot create a temporary directory: "
             << EC.message() << "\n";
      return 1;
    }
    GenDir = TempDir.str().str();
  }
  struct Cleanup {
    SmallString<128> &Dir;
    ~Cleanup() {
      if (!Dir.empty())
        sys::fs::remove_directories(Dir);
    }
  } C{TempDir};

  std::vector<std::string> Generated;
  for (const std::string &Src : O.Sources) {
    SmallString<256> Gen(GenDir);
    sys::path::append(Gen, stem(Src) + ".poc.cpp");
    std::string GenName = Gen.str().str();
    if (O.TranslateOnly)
      GenName = O.Output.empty() ? "<stdout>" : O.Output;
    // Rewritten headers go beside the translation that includes them.
    std::string HeaderDir;
    if (!O.TranslateOnly || !O.EmitGeneratedDir.empty())
      HeaderDir = absolute(Gen.str().str()) + ".headers";
    if (O.TranslateOnly && !O.Output.empty() && O.Output != "-")
      HeaderDir = absolute(O.Output) + ".headers";
    std::string Out;
    std::vector<std::string> Deps;
    std::vector<std::pair<std::string, std::string>> Headers;
    if (!T.translate(Src, GenName, Names, Out, Deps, HeaderDir, Headers))
      return 1;
    if (!HeaderDir.empty() && !writeHeaders(HeaderDir, Headers))
      return 1;
    if (!O.DepFile.empty()) {
      std::string Text = (O.Output.empty() ? GenName : O.Output) + ":";
      for (const std::string &D : Deps)
        Text += " \\\n  " + D;
      if (!writeFile(O.DepFile, Text + "\n"))
        return 1;
    }
    if (!O.EmitGeneratedDir.empty() || !O.TranslateOnly)
      if (!writeFile(Gen.str().str(), Out))
        return 1;
    if (O.TranslateOnly) {
      if (O.Output.empty() || O.Output == "-")
        outs() << Out;
      else if (!writeFile(O.Output, Out))
        return 1;
    }
    Generated.push_back(Gen.str().str());
  }
  if (O.TranslateOnly)
    return 0;

  // Compile each translation with the system compiler.
  std::vector<std::string> Objects;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    std::string Obj;
    if (O.CompileOnly)
      Obj = !O.Output.empty() ? O.Output : stem(O.Sources[I]) + ".o";
    else
      Obj = GenDir + "/" + stem(O.Sources[I]) + "." + std::to_string(I) + ".o";
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
    Cmd.insert(Cmd.end(), {"-iquote", SrcDir.str().str(), "-isystem",
                           TC.RuntimeInclude, "-c", Generated[I], "-o", Obj});
    if (int RC = run(Cmd, O.Verbose))
      return RC;
    Objects.push_back(Obj);
  }
  if (O.CompileOnly)
    return 0;

  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), Objects.begin(), Objects.end());
  Cmd.insert(Cmd.end(), O.LinkInputs.begin(), O.LinkInputs.end());
  Cmd.insert(Cmd.end(), {"-o", O.Output.empty() ? "a.out" : O.Output});
  Cmd.insert(Cmd.end(), O.LinkFlags.begin(), O.LinkFlags.end());
  Cmd.insert(Cmd.end(), TC.RuntimeLibraries.begin(), TC.RuntimeLibraries.end());
  Cmd.insert(Cmd.end(), TC.RuntimeLinkFlags.begin(), TC.RuntimeLinkFlags.end());
  Cmd.insert(Cmd.end(), TC.MpiLibraries.begin(), TC.MpiLibraries.end());
  return run(Cmd, O.Verbose);
}

} // namespace pocc
