//===- UserSourcePrinter.cpp - diagnostics that quote the user's text -----===//
#include "pocc/UserSourcePrinter.h"

#include "clang/AST/Type.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <cstdlib>

using namespace clang;
using namespace llvm;

namespace pocc {

UserSourcePrinter::UserSourcePrinter() : Options(new DiagnosticOptions) {
  Options->ShowColors = llvm::sys::Process::StandardErrHasColors();
  Printer = std::make_unique<TextDiagnosticPrinter>(Out, Options.get());
}

UserSourcePrinter::~UserSourcePrinter() = default;

void UserSourcePrinter::BeginSourceFile(const LangOptions &LangOpts, const Preprocessor *PP) {
  // After a fatal error Clang keeps parsing but shows nothing more, not even
  // the sign of a runaway recursion. So fatal errors reach this printer as
  // errors, and it drops what Clang would have suppressed, all but that sign.
  if (PP)
    PP->getDiagnostics().setFatalsAsError(true);
  Printer->BeginSourceFile(LangOpts, PP);
}

void UserSourcePrinter::EndSourceFile() { Printer->EndSourceFile(); }

void UserSourcePrinter::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  // Warnings are the backend compiler's to give (it sees the same code), so
  // the parse drops them and their notes, all but the one sign of Clang's
  // runaway recursion. (`-w` would drop that one too, and
  // `-Wno-everything` also the warnings that are errors by default, such
  // as -Wreturn-mismatch.)
  if (isStartedVoidCall(Info)) {
    DroppingNotes = true; // and its notes on the candidates
    return;
  }
  bool StackSign = Info.getID() == diag::warn_stack_exhausted;
  // (poc++'s own diagnostics have custom ids, which have no default mapping.)
  if (Level == DiagnosticsEngine::Error && Info.getID() < diag::DIAG_UPPER_LIMIT &&
      DiagnosticIDs::getDefaultMapping(Info.getID()).getSeverity() == diag::Severity::Fatal)
    Level = DiagnosticsEngine::Fatal; // shown as clang++ shows it
  bool Warning = Level == DiagnosticsEngine::Warning || Level == DiagnosticsEngine::Remark;
  if (Level != DiagnosticsEngine::Note)
    DroppingNotes = !StackSign && (Warning || FatalSeen);
  if (DroppingNotes)
    return;
  DiagnosticConsumer::HandleDiagnostic(Level, Info); // counts errors and warnings
  Printer->HandleDiagnostic(Level, Info);
  Out.flush();
  std::string Text = restoreSource(Buffer, Info);
  Buffer.clear();
  for (const auto &[Path, Name] : ShownAs)
    for (size_t At = Text.find(Path); At != std::string::npos;
         At = Text.find(Path, At + Name.size()))
      Text.replace(At, Path.size(), Name);
  if (Holding)
    HeldOut << Text;
  else
    errs() << Text;
  FatalSeen |= Level == DiagnosticsEngine::Fatal;
  if (StackSign)
    stopRunawayRecursion(Info);
}

bool UserSourcePrinter::isStartedVoidCall(const Diagnostic &Info) {
  // The parse sees `auto f = start p->g()` as `auto f = _Pst^ p->g()`, whose
  // type is a future of g's result (pocc/StartKeyword.h); no operator takes a
  // void operand, so for a void g Sema reports the `^` and recovers with the
  // call kept in the tree, where the translation finds it. The started call
  // is valid poc++ (a poc::future<void>), so that error is not the user's.
  // Nor is Sema's error on `1 + start p->g()`, which the parse sees without
  // the `start` (blanked): the translation reports the started call as an
  // operand, as it does whatever g returns (StartRewriter::takeStartOf).
  bool Binary = Info.getID() == diag::err_typecheck_invalid_operands && Info.getNumArgs() >= 2;
  bool Unary = Info.getID() == diag::err_typecheck_unary_expr && Info.getNumArgs() >= 1;
  unsigned Operand = Binary ? 1 : 0;
  if ((!Binary && !Unary) || Info.getArgKind(Operand) != DiagnosticsEngine::ak_qualtype ||
      !Info.hasSourceManager() || Info.getNumRanges() <= Operand)
    return false;
  QualType Type = QualType::getFromOpaquePtr(reinterpret_cast<void *>(Info.getRawArg(Operand)));
  if (!Type->isVoidType())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation Op = SM.getExpansionLoc(Info.getLocation());
  unsigned Offset = SM.getFileOffset(Op);
  StringRef Parsed = SM.getBufferData(SM.getFileID(Op));
  if (Binary && Offset >= 4 && Parsed.substr(Offset - 4, 5) == "_Pst^")
    return true;
  // The void operand: is a blanked `start` right before it?
  SourceLocation Begin = SM.getExpansionLoc(Info.getRange(Operand).getBegin());
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(Begin));
  if (!Entry)
    return false;
  auto Original = MemoryBuffer::getFile(Entry->getName());
  unsigned At = SM.getFileOffset(Begin);
  if (!Original || (*Original)->getBuffer().size() != Parsed.size())
    return false;
  StringRef Own = (*Original)->getBuffer().take_front(At).rtrim();
  StringRef Seen = Parsed.take_front(At).rtrim();
  return Own.ends_with("start") && Seen.size() + 5 <= Own.size();
}

void UserSourcePrinter::stopRunawayRecursion(const Diagnostic &Info) {
  // Clang 19 recurses without end on some inputs (e.g. a default member
  // initializer that creates an object of its own class with `new`, which
  // the mutation fuzzer found), taking a fresh 8 MiB stack each time it runs
  // low: the compilation would never end and would take all memory. The
  // first "stack nearly exhausted" is the only sign, so poc++ stops there,
  // on Clang's own thread, since unwinding through Sema is not possible.
  std::string Where = "poc++";
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    PresumedLoc P = Info.getSourceManager().getPresumedLoc(
        Info.getSourceManager().getExpansionLoc(Info.getLocation()));
    if (P.isValid())
      Where = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
              std::to_string(P.getColumn());
  }
  errs() << Where
         << ": error: poc++ stops here: Clang ran out of stack space analysing this code "
            "and would recurse without end (a known Clang 19 defect, e.g. with a default "
            "member initializer that creates an object of its own class)\n";
  errs().flush();
  std::_Exit(1);
}

namespace {
/// Line \p N (1-based) of \p Text, without its end of line; empty if none.
StringRef lineOf(StringRef Text, unsigned N) {
  for (unsigned I = 1; I < N && !Text.empty(); ++I)
    Text = Text.split('\n').second;
  return Text.split('\n').first.rtrim('\r');
}
} // namespace

std::string UserSourcePrinter::restoreSource(const std::string &Rendered,
                                             const Diagnostic &Info) const {
  if (!Info.hasSourceManager() || !Info.getLocation().isValid())
    return Rendered;
  const SourceManager &SM = Info.getSourceManager();
  FileID File = SM.getFileID(SM.getExpansionLoc(Info.getLocation()));
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return Rendered;
  StringRef Parsed = SM.getBufferData(File);
  auto Original = MemoryBuffer::getFile(Entry->getName());
  if (!Original || (*Original)->getBuffer() == Parsed)
    return Rendered;
  // Quoted lines look like "   12 | text"; one is replaced only where it
  // shows line 12 of the parsed copy and the file's line 12 differs from it.
  std::string Result;
  SmallVector<StringRef, 8> Lines;
  StringRef(Rendered).split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    size_t Bar = L.find(" | ");
    unsigned Number = 0;
    if (Bar != StringRef::npos && !L.take_front(Bar).trim().getAsInteger(10, Number) &&
        Number > 0 && L.drop_front(Bar + 3) == lineOf(Parsed, Number)) {
      StringRef Own = lineOf((*Original)->getBuffer(), Number);
      if (Own.size() == lineOf(Parsed, Number).size())
        L = Own, Result += Lines[I].take_front(Bar + 3).str();
    }
    Result += L.str();
    if (I + 1 < Lines.size())
      Result += '\n';
  }
  return Result;
}

} // namespace pocc
