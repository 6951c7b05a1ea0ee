//===- PlainCompile.cpp - compiling a file exactly as clang++ does --------===//
#include "pocc/PlainCompile.h"
#include "pocc/ClassCalls.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Tool.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
/// Records the classes a plain file calls methods of, and whether the file
/// reaches poc++'s API (a `poc` namespace, from an explicit include of a
/// poc++ header): such a file is translated, not compiled as plain C++.
class RecordingConsumer : public ASTConsumer {
public:
  RecordingConsumer(CompilerInstance &CI, PlainCompile &Result, bool &UsesPoc)
      : CI(CI), Result(Result), UsesPoc(UsesPoc) {}
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    TopLevel.insert(TopLevel.end(), DG.begin(), DG.end());
    return true;
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("poc")))
      UsesPoc |= isa<NamespaceDecl>(D);
    const SourceManager &SM = Ctx.getSourceManager();
    Result.Calls = recordClassCalls(
        Ctx, TopLevel, [&SM](SourceLocation L) { return L.isValid() && !SM.isInSystemHeader(L); });
  }

private:
  CompilerInstance &CI;
  PlainCompile &Result;
  bool &UsesPoc;
  std::vector<Decl *> TopLevel;
};

/// The action clang++ would run, with a RecordingConsumer beside it.
class RecordingAction : public WrapperFrontendAction {
public:
  RecordingAction(std::unique_ptr<FrontendAction> Wrapped, PlainCompile &Result, bool &UsesPoc)
      : WrapperFrontendAction(std::move(Wrapped)), Result(Result), UsesPoc(UsesPoc) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Inner = WrapperFrontendAction::CreateASTConsumer(CI, InFile);
    if (!Inner)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<RecordingConsumer>(CI, Result, UsesPoc));
    Consumers.push_back(std::move(Inner));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  PlainCompile &Result;
  bool &UsesPoc;
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
/// it failed or the file uses poc++'s API.
bool runCompilerJob(ArrayRef<const char *> Cc1Args, const char *Argv0, PlainCompile &Result,
                    raw_ostream &DiagStream) {
  auto Clang = std::make_unique<CompilerInstance>();
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs);
  IntrusiveRefCntPtr<DiagnosticOptions> ArgDiagOpts(new DiagnosticOptions);
  auto *ArgDiags = new TextDiagnosticBuffer;
  DiagnosticsEngine ArgEngine(IDs, &*ArgDiagOpts, ArgDiags);
  bool Parsed =
      CompilerInvocation::CreateFromArgs(Clang->getInvocation(), Cc1Args, ArgEngine, Argv0);
  Clang->createDiagnostics(new TextDiagnosticPrinter(DiagStream, &Clang->getDiagnosticOpts()));
  // "N errors generated." too is held back with the diagnostics.
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
  bool UsesPoc = false;
  RecordingAction Recording(std::move(Act), Result, UsesPoc);
  bool Success = Clang->ExecuteAction(Recording);
  return Success && !UsesPoc;
}
} // namespace

PlainCompile compilePlain(const std::string &ClangPath, ArrayRef<std::string> Args) {
  initialiseTargets();
  PlainCompile Result;
  raw_string_ostream DiagStream(Result.Diagnostics);
  IntrusiveRefCntPtr<DiagnosticOptions> DriverDiagOpts(new DiagnosticOptions);
  TextDiagnosticPrinter DriverPrinter(DiagStream, &*DriverDiagOpts);
  DriverPrinter.setPrefix("poc++");
  DiagnosticsEngine DriverDiags(new DiagnosticIDs, &*DriverDiagOpts, &DriverPrinter,
                                /*ShouldOwnClient=*/false);
  clang::driver::Driver D(ClangPath, sys::getDefaultTargetTriple(), DriverDiags);
  D.setTargetAndMode(clang::driver::ToolChain::getTargetAndModeFromProgramName(ClangPath));
  std::vector<const char *> Argv{ClangPath.c_str()};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(Argv));
  if (!C || C->containsError() || DriverDiags.hasErrorOccurred())
    return Result;
  for (const clang::driver::Command &Job : C->getJobs()) {
    const auto &JobArgs = Job.getArguments();
    if (StringRef(Job.getCreator().getName()) == "clang" && !JobArgs.empty() &&
        StringRef(JobArgs.front()) == "-cc1") {
      if (!runCompilerJob(ArrayRef<const char *>(JobArgs).drop_front(), Job.getExecutable(), Result,
                          DiagStream))
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

} // namespace pocc
