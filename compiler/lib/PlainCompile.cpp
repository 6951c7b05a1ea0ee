//===- PlainCompile.cpp - compiling a file exactly as clang++ does --------===//
#include "pocc/PlainCompile.h"
#include "pocc/ClassCalls.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/Tool.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/SARIFDiagnosticPrinter.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
/// True if \p Path (a real path) lies under one of the folders \p Dirs.
bool isUnder(StringRef Path, ArrayRef<std::string> Dirs) {
  for (const std::string &Dir : Dirs)
    if (Path.starts_with(Dir) && Path.size() > Dir.size() && Path[Dir.size()] == '/')
      return true;
  return false;
}

/// Records the classes a plain file calls methods of, and whether the file
/// reaches poc++'s API (poc++'s `poc` namespace, from an explicit include of
/// a poc++ header): such a file is translated, not compiled as plain C++.
/// A `poc` namespace of the user's own is plain C++.
class RecordingConsumer : public ASTConsumer {
public:
  RecordingConsumer(CompilerInstance &CI, PlainCompile &Result, ArrayRef<std::string> PocDirs)
      : CI(CI), Result(Result), PocDirs(PocDirs) {}
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    TopLevel.insert(TopLevel.end(), DG.begin(), DG.end());
    return true;
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("poc")))
      if (const auto *NS = dyn_cast<NamespaceDecl>(D))
        for (const NamespaceDecl *Each : NS->redecls())
          Result.UsesPoc |= isPocHeader(SM, Each->getLocation());
    Result.Calls = recordClassCalls(
        Ctx, TopLevel, [&SM](SourceLocation L) { return L.isValid() && !SM.isInSystemHeader(L); });
  }

private:
  bool isPocHeader(const SourceManager &SM, SourceLocation L) const {
    OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(L)));
    return File && isUnder(File->getFileEntry().tryGetRealPathName(), PocDirs);
  }

  CompilerInstance &CI;
  PlainCompile &Result;
  ArrayRef<std::string> PocDirs;
  std::vector<Decl *> TopLevel;
};

/// The action clang++ would run, with a RecordingConsumer beside it.
class RecordingAction : public WrapperFrontendAction {
public:
  RecordingAction(std::unique_ptr<FrontendAction> Wrapped, PlainCompile &Result,
                  ArrayRef<std::string> PocDirs)
      : WrapperFrontendAction(std::move(Wrapped)), Result(Result), PocDirs(PocDirs) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Inner = WrapperFrontendAction::CreateASTConsumer(CI, InFile);
    if (!Inner)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<RecordingConsumer>(CI, Result, PocDirs));
    Consumers.push_back(std::move(Inner));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  PlainCompile &Result;
  ArrayRef<std::string> PocDirs;
};

void initialiseTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
  });
}

/// Runs one `clang -cc1` job in this process, as cc1_main does; false if
/// it failed.
bool runCompilerJob(ArrayRef<const char *> Cc1Args, const char *Argv0, PlainCompile &Result,
                    ArrayRef<std::string> PocDirs, raw_ostream &DiagStream) {
  auto Clang = std::make_unique<CompilerInstance>();
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs);
  IntrusiveRefCntPtr<DiagnosticOptions> ArgDiagOpts(new DiagnosticOptions);
  auto *ArgDiags = new TextDiagnosticBuffer;
  DiagnosticsEngine ArgEngine(IDs, &*ArgDiagOpts, ArgDiags);
  bool Parsed =
      CompilerInvocation::CreateFromArgs(Clang->getInvocation(), Cc1Args, ArgEngine, Argv0);
  DiagnosticOptions &Opts = Clang->getDiagnosticOpts();
  // -fcolor-diagnostics colours the held text too.
  DiagStream.enable_colors(Opts.ShowColors);
  if (Opts.getFormat() == DiagnosticOptions::SARIF)
    Clang->createDiagnostics(new SARIFDiagnosticPrinter(DiagStream, &Opts));
  else
    Clang->createDiagnostics(new TextDiagnosticPrinter(DiagStream, &Opts));
  // "N errors generated." too is held back with the diagnostics (but with
  // -v, when nothing is held, cc1's version line comes first, as in clang++).
  Clang->setVerboseOutputStream(DiagStream);
  ArgDiags->FlushDiagnostics(Clang->getDiagnostics());
  if (!Parsed)
    return false;
  // -mllvm options, as cc1 passes them to LLVM.
  const std::vector<std::string> &LLVMArgs = Clang->getFrontendOpts().LLVMArgs;
  if (!LLVMArgs.empty()) {
    std::vector<const char *> Argv{"clang (LLVM option parsing)"};
    for (const std::string &A : LLVMArgs)
      Argv.push_back(A.c_str());
    cl::ParseCommandLineOptions(Argv.size(), Argv.data());
  }
  std::unique_ptr<FrontendAction> Act = CreateFrontendAction(*Clang);
  if (!Act)
    return false;
  RecordingAction Recording(std::move(Act), Result, PocDirs);
  return Clang->ExecuteAction(Recording);
}

/// The real paths of \p Dirs.
std::vector<std::string> realPaths(ArrayRef<std::string> Dirs) {
  std::vector<std::string> Real;
  for (const std::string &Dir : Dirs) {
    SmallString<256> Path;
    if (!sys::fs::real_path(Dir, Path))
      Real.push_back(Path.str().str());
  }
  return Real;
}

/// Clang's driver, as clang++ runs it, its diagnostics printed to \p OS
/// under poc++'s name (the driver the user ran).
class InProcessDriver {
public:
  InProcessDriver(const std::string &ClangPath, ArrayRef<std::string> Args, raw_ostream &OS)
      : Argv{ClangPath.c_str()} {
    // clang++ is a link to clang: its mode (C++) comes from the name it was
    // run by, as an argument, and its jobs name the real program.
    clang::driver::ParsedClangName Name =
        clang::driver::ToolChain::getTargetAndModeFromProgramName(ClangPath);
    if (Name.DriverMode)
      Argv.push_back(Name.DriverMode);
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    // -fcolor-diagnostics, -Werror, -fdiagnostics-format=..., as clang++
    // reads them for its own diagnostics.
    DiagOpts = CreateAndPopulateDiagOpts(Argv).release();
    OS.enable_colors(DiagOpts->ShowColors);
    Printer = std::make_unique<TextDiagnosticPrinter>(OS, DiagOpts.get());
    Printer->setPrefix("poc++");
    Diags = std::make_unique<DiagnosticsEngine>(new DiagnosticIDs, DiagOpts, Printer.get(),
                                                /*ShouldOwnClient=*/false);
    ProcessWarningOptions(*Diags, *DiagOpts, /*ReportDiags=*/false);
    SmallString<256> Real;
    if (sys::fs::real_path(ClangPath, Real))
      Real = ClangPath;
    D = std::make_unique<clang::driver::Driver>(Real.str(), sys::getDefaultTargetTriple(), *Diags);
    D->setTargetAndMode(Name);
  }
  /// The compilation's jobs, or null after an error (reported).
  std::unique_ptr<clang::driver::Compilation> build() {
    std::unique_ptr<clang::driver::Compilation> C(D->BuildCompilation(Argv));
    if (!C || C->containsError() || Diags->hasErrorOccurred())
      return nullptr;
    return C;
  }
  clang::driver::Driver &driver() { return *D; }
  bool hasErrors() const { return Diags->hasErrorOccurred(); }

private:
  std::vector<const char *> Argv;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
  std::unique_ptr<DiagnosticsEngine> Diags;
  std::unique_ptr<clang::driver::Driver> D;
};
} // namespace

PlainCompile compilePlain(const std::string &ClangPath, ArrayRef<std::string> Args,
                          ArrayRef<std::string> PocHeaderDirs) {
  initialiseTargets();
  PlainCompile Result;
  // With -v, whose output is clang++'s own steps in order, nothing is held.
  raw_string_ostream Held(Result.Diagnostics);
  bool Verbose = llvm::is_contained(Args, "-v");
  raw_ostream &DiagStream = Verbose ? static_cast<raw_ostream &>(errs()) : Held;
  InProcessDriver Driver(ClangPath, Args, DiagStream);
  std::unique_ptr<clang::driver::Compilation> C = Driver.build();
  if (!C)
    return Result;
  std::vector<std::string> PocDirs = realPaths(PocHeaderDirs);
  for (const clang::driver::Command &Job : C->getJobs()) {
    // -v shows each job before it runs, as clang++ does.
    if (Verbose) {
      if (StringRef(Job.getCreator().getName()) == "clang")
        errs() << " (in-process)\n";
      Job.Print(errs(), "\n", /*Quote=*/false);
    }
    const auto &JobArgs = Job.getArguments();
    if (StringRef(Job.getCreator().getName()) == "clang" && !JobArgs.empty() &&
        StringRef(JobArgs.front()) == "-cc1") {
      if (!runCompilerJob(ArrayRef<const char *>(JobArgs).drop_front(), Job.getExecutable(), Result,
                          PocDirs, DiagStream))
        return Result;
      continue;
    }
    // Jobs other than the compiler's own (an external assembler) run as
    // clang++ runs them.
    std::string Err;
    bool Failed = false;
    if (Job.Execute({}, &Err, &Failed) != 0) {
      DiagStream << "poc++: error: " << Job.getExecutable() << " failed"
                 << (Err.empty() ? "" : ": " + Err) << "\n";
      return Result;
    }
  }
  Result.Compiled = true;
  return Result;
}

int runClangDriver(const std::string &ClangPath, ArrayRef<std::string> Args) {
  initialiseTargets(); // -print-targets lists them
  InProcessDriver Driver(ClangPath, Args, errs());
  std::unique_ptr<clang::driver::Compilation> C = Driver.build();
  if (!C)
    return 1;
  SmallVector<std::pair<int, const clang::driver::Command *>, 4> Failing;
  int RC = Driver.driver().ExecuteCompilation(*C, Failing);
  for (const auto &[Code, Command] : Failing)
    if (RC == 0)
      RC = Code;
  return RC != 0 ? RC : Driver.hasErrors() ? 1 : 0;
}

} // namespace pocc
