//===- Translator.cpp - process-oriented C++ to C++ -----------------------===//
//
// The translation of one file, once it is parsed: the RewriteVisitor
// rewrites the user's process operations, the TranslationLayout places the
// generated declarations and code, and HeaderCopies writes the rewritten
// headers (see those files).
//
//===----------------------------------------------------------------------===//
#include "pocc/Translator.h"
#include "pocc/ClassCalls.h"
#include "pocc/Diagnostics.h"
#include "pocc/EncodedTypes.h"
#include "pocc/HeaderCopies.h"
#include "pocc/InterfaceGen.h"
#include "pocc/ReachesPoc.h"
#include "pocc/RemoteModel.h"
#include "pocc/RewriteVisitor.h"
#include "pocc/Serializability.h"
#include "pocc/TranslationLayout.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <algorithm>

using namespace clang;

namespace pocc {

namespace {

/// Whether the parse may skip the body of \p D: a function of a system
/// header, library code that poc++ never rewrites (RewriteContext::inUserFile)
/// and the system compiler parses again (13% of the parse of fft3d's
/// main.cpp). Sema keeps the bodies it needs to go on: constexpr functions
/// and those whose return type is deduced (Sema::canSkipFunctionBody).
bool isLibraryFunction(const CompilerInstance &CI, const Decl *D) {
  return CI.getSourceManager().isInSystemHeader(D->getLocation());
}

/// The consumer that does the translation once the file is parsed.
class TranslateConsumer : public ASTConsumer {
public:
  TranslateConsumer(CompilerInstance &CI, const TranslateOptions &Opts, std::string &Output)
      : CI(CI), Opts(Opts), Output(Output), Diags(CI.getDiagnostics()) {}

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    // Sema hands over function template instantiations it had to make
    // early (a deduced return type); they share their template's source,
    // which is rewritten once, from the template.
    for (Decl *D : DG) {
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->isTemplateInstantiation())
        TopLevel.push_back(D);
    }
    return true;
  }
  /// Declarations loaded from a precompiled header are library code.
  void HandleInterestingDecl(DeclGroupRef) override {}
  bool shouldSkipFunctionBody(Decl *D) override { return isLibraryFunction(CI, D); }
  void HandleTranslationUnit(ASTContext &C) override;
  /// Where the preprocessor records the include directives.
  std::vector<IncludeDirective> &includes() { return Includes; }

private:
  /// The client's count: errors it showed (not one it knows to be valid
  /// poc++, UserSourcePrinter::isStartedVoidCall).
  bool hasErrors() const { return CI.getDiagnostics().getClient()->getNumErrors() != 0; }
  /// Where the pre-pass blanked `start` keywords, by file of this parse.
  StartKeywordOffsets startOffsets(const SourceManager &SM) const;
  /// Reports whether the user's code holds a `start` or reaches poc++'s
  /// API (TranslationReport::ReachesPoc).
  void reportReachesPoc(ASTContext &C) const;

  CompilerInstance &CI;
  const TranslateOptions &Opts;
  std::string &Output;
  Diagnostics Diags;
  std::vector<IncludeDirective> Includes;
  /// The file's own top-level declarations, in order (not those of a
  /// precompiled header).
  std::vector<Decl *> TopLevel;
};

StartKeywordOffsets TranslateConsumer::startOffsets(const SourceManager &SM) const {
  StartKeywordOffsets Offsets;
  if (!Opts.Files)
    return Offsets;
  for (const auto &[ID, InFile] : Opts.Files->startOffsets()) {
    OptionalFileEntryRef FE;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (It->first.getUniqueID() == ID)
        FE = It->first;
    if (FE)
      Offsets[SM.translateFile(*FE)] = InFile;
  }
  return Offsets;
}

void TranslateConsumer::reportReachesPoc(ASTContext &C) const {
  if (!Opts.Report)
    return;
  const SourceManager &SM = C.getSourceManager();
  Opts.Report->ReachesPoc =
      (Opts.Files && !Opts.Files->startOffsets().empty()) ||
      reachesPoc(
          C, TopLevel, [&SM](SourceLocation L) { return L.isValid() && !SM.isInSystemHeader(L); },
          Opts.PocHeaderDirs);
}

void TranslateConsumer::HandleTranslationUnit(ASTContext &C) {
  if (hasErrors()) {
    reportReachesPoc(C);
    return;
  }
  SourceManager &SM = C.getSourceManager();
  if (Opts.Dependencies) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (!Opts.Files || Opts.Files->isUserPath(It->first.getName()))
        Opts.Dependencies->push_back(It->first.getName().str());
    std::sort(Opts.Dependencies->begin(), Opts.Dependencies->end());
  }

  Rewriter R(SM, C.getLangOpts());
  RemoteModel Model(C, Opts.ProgramRemotable, TopLevel);
  Serializability Sendable(C, [&Model](const CXXRecordDecl *RD) { return Model.isRemotable(RD); });
  InterfaceGen Gen(C, Sendable);
  HeaderCopies Copies(SM, Opts, Diags);
  TranslationLayout Layout(SM, R, Gen, Sendable, Copies, Opts.ForReaders);
  RewriteVisitor Visitor(C, R, Diags, Opts, Model, Sendable, Gen, Layout, TopLevel,
                         startOffsets(SM));
  for (Decl *D : TopLevel)
    Visitor.TraverseDecl(D);
  Visitor.reportStrayStarts();
  collectEncodedTypes(C, CI.getSema(), Sendable, Diags,
                      [&Visitor](SourceLocation L) { return Visitor.inUserFile(L); });
  if (hasErrors()) {
    reportReachesPoc(C);
    return;
  }

  // Every concrete remotable class the file defines is served.
  std::vector<const RemoteClass *> Servers;
  for (const CXXRecordDecl *RD : definedRemotableClasses(Model, SM, TopLevel)) {
    const RemoteClass &RC = Gen.classFor(RD);
    if (RC.Concrete)
      Servers.push_back(&RC);
  }
  std::sort(Servers.begin(), Servers.end(),
            [](const RemoteClass *A, const RemoteClass *B) { return A->Name < B->Name; });
  Servers.erase(std::unique(Servers.begin(), Servers.end()), Servers.end());
  bool ProcessOperations = R.buffer_begin() != R.buffer_end() || !Servers.empty();
  if (!ProcessOperations)
    reportReachesPoc(C);
  if (ProcessOperations && !Opts.OlderStandard.empty()) {
    if (Opts.Report)
      Opts.Report->ProcessOperations = true;
    SourceLocation At = Visitor.firstOperation();
    Diags.report(At.isValid() ? At : SM.getLocForStartOfFile(SM.getMainFileID()), Diag::NeedsCxx20)
        << Opts.OlderStandard;
    return;
  }
  if (TranslationReport *Report = Opts.Report) {
    Report->ProcessOperations = ProcessOperations;
    Report->DefinesMain = Layout.definesMain();
    Report->Creates = collectRemotableNames(C, TopLevel);
    Report->Calls = recordClassCalls(
        C, TopLevel, [&Visitor](SourceLocation L) { return Visitor.inUserFile(L); },
        [&Model](const CXXRecordDecl *RD) { return Model.isRemotable(RD); });
  }
  Visitor.renameMain();
  Layout.assemble(Servers, Visitor.dependentCalls(), Includes, Opts.GeneratedName, Output);
}

/// Pass-one consumer.
class CollectConsumer : public ASTConsumer {
public:
  CollectConsumer(CompilerInstance &CI, std::set<std::string> &Names) : CI(CI), Names(Names) {}
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    TopLevel.insert(TopLevel.end(), DG.begin(), DG.end());
    return true;
  }
  /// Declarations loaded from a precompiled header are library code.
  void HandleInterestingDecl(DeclGroupRef) override {}
  bool shouldSkipFunctionBody(Decl *D) override { return isLibraryFunction(CI, D); }
  void HandleTranslationUnit(ASTContext &C) override {
    // The client's count: errors it showed (not one it knows to be valid
    // poc++, UserSourcePrinter::isStartedVoidCall).
    if (CI.getDiagnostics().getClient()->getNumErrors())
      return;
    std::set<std::string> Found = collectRemotableNames(C, TopLevel);
    Names.insert(Found.begin(), Found.end());
  }

private:
  CompilerInstance &CI;
  std::set<std::string> &Names;
  std::vector<Decl *> TopLevel;
};

/// Asks the parser to offer the consumer each function body to skip.
bool offerBodiesToSkip(CompilerInstance &CI) {
  CI.getFrontendOpts().SkipFunctionBodies = true;
  return true;
}

} // namespace

bool TranslateAction::BeginSourceFileAction(CompilerInstance &CI) {
  if (Opts.Summary)
    CI.setVerboseOutputStream(*Opts.Summary);
  return offerBodiesToSkip(CI);
}

bool CollectRemotableAction::BeginSourceFileAction(CompilerInstance &CI) {
  return offerBodiesToSkip(CI);
}

std::unique_ptr<ASTConsumer> TranslateAction::CreateASTConsumer(CompilerInstance &CI,
                                                                llvm::StringRef) {
  auto Consumer = std::make_unique<TranslateConsumer>(CI, Opts, Output);
  CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeRecorder>(Consumer->includes()));
  return Consumer;
}

std::unique_ptr<ASTConsumer> CollectRemotableAction::CreateASTConsumer(CompilerInstance &CI,
                                                                       llvm::StringRef) {
  return std::make_unique<CollectConsumer>(CI, Names);
}

} // namespace pocc
