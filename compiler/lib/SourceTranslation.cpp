//===- SourceTranslation.cpp - translating one command's sources ----------===//
#include "pocc/SourceTranslation.h"
#include "pocc/DriverFiles.h"
#include "pocc/StartKeyword.h"
#include "pocc/Translator.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
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
} // namespace

Translation::~Translation() {
  if (!StdinCopy.empty())
    sys::fs::remove(StdinCopy);
}

bool Translation::init() {
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
    // parsed as C++20 to find out whether it has any (Build::compileSource).
    if (!O.HasStd || O.StdBeforeCxx20)
      Flags.push_back("-std=c++20");
    DB = std::make_unique<tooling::FixedCompilationDatabase>(".", Flags);
  }
  return true;
}

void Translation::collect(std::set<std::string> &Names) {
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

bool Translation::translate(const std::string &Src, const std::set<std::string> &Names,
                            TranslatedSource &Into, bool Hold) {
  auto [Tool, FS] = makeTool(Src);
  TranslateOptions TO;
  TO.PocHeaderDirs = {TC.RuntimeInclude, TC.ParseInclude};
  TO.Report = &Into.Report;
  if (O.StdBeforeCxx20)
    TO.OlderStandard = O.Std;
  TO.PortableNames = O.EmitGeneratedDir == "-";
  // Read by someone: --emit-generated, --translate-only and -E's output.
  TO.ForReaders = !O.EmitGeneratedDir.empty() || O.TranslateOnly || O.Preprocess;
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

std::pair<std::unique_ptr<tooling::ClangTool>, IntrusiveRefCntPtr<UserFileSystem>>
Translation::makeTool(const std::string &Src) {
  auto FS = makeIntrusiveRefCnt<UserFileSystem>(vfs::getRealFileSystem(), TC.systemPrefixes());
  auto Tool = std::make_unique<tooling::ClangTool>(*DB, ArrayRef<std::string>{Src},
                                                   std::make_shared<PCHContainerOperations>(), FS);
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

void Translation::takeStdinCopy(std::string Path) {
  StdinCopy = std::move(Path);
  Printer.showFileAs(StdinCopy, shownName(StdinCopy));
}

void Translation::showAsNamed(const std::string &Src) {
  if (!sys::path::is_absolute(Src))
    Printer.showFileAs(absolute(Src), Src);
}

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

} // namespace pocc
