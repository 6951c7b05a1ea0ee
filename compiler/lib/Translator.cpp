//===- Translator.cpp - process-oriented C++ to C++ -----------------------===//
#include "pocc/Translator.h"
#include "pocc/DependentCalls.h"
#include "pocc/Diagnostics.h"
#include "pocc/InterfaceGen.h"
#include "pocc/LayoutHash.h"
#include "pocc/Persistence.h"
#include "pocc/RemoteModel.h"
#include "pocc/Serializability.h"
#include "pocc/SerializerGen.h"
#include "pocc/TypeNames.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Format/Format.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace pocc {

std::string formatCode(llvm::StringRef Code) {
  format::FormatStyle Style = format::getLLVMStyle();
  // Generated comments name files by path; a path broken across two
  // comment lines is useless to a reader and to a regression test.
  Style.ReflowComments = false;
  tooling::Range Whole(0, Code.size());
  tooling::Replacements R = format::reformat(Style, Code, {Whole});
  auto Formatted = tooling::applyAllReplacements(Code, R);
  if (!Formatted) {
    llvm::consumeError(Formatted.takeError());
    return Code.str();
  }
  return *Formatted;
}

namespace {

/// Marker replaced by a `#line` directive naming the generated file.
constexpr llvm::StringLiteral GenLineMarker = "#line @poc-generated@\n";

/// How an element of a possibly remote array (`p[i]`, `*p`) is used.
enum class ElementUse {
  Read,      ///< its value: becomes ::poc::element_value(p, i)
  Write,     ///< assigned, updated, incremented: ::poc::element(p, i)
  Address,   ///< `&p[i]`: an address, nothing is read
  Reference, ///< bound to a non-const reference: not supported
};

/// Nodes Sema wraps around an expression without changing its meaning.
bool isImplicitWrapper(const Stmt *S) {
  return isa<ExprWithCleanups>(S) || isa<ImplicitCastExpr>(S) || isa<CXXBindTemporaryExpr>(S) ||
         isa<MaterializeTemporaryExpr>(S) || isa<ParenExpr>(S);
}

/// An include directive of the translation unit: the file name as written
/// (with its quotes or brackets) and the file it named.
struct IncludeDirective {
  CharSourceRange Name;
  FileEntryRef Target;
};

/// Records every include directive that found a file, so that directives
/// naming a rewritten header can name its rewritten copy instead.
class IncludeRecorder : public PPCallbacks {
public:
  explicit IncludeRecorder(std::vector<IncludeDirective> &Out) : Out(Out) {}
  void InclusionDirective(SourceLocation, const Token &, StringRef, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, bool, SrcMgr::CharacteristicKind) override {
    if (File)
      Out.push_back({FilenameRange, *File});
  }

private:
  std::vector<IncludeDirective> &Out;
};

/// The consumer that does the translation once the file is parsed.
class TranslateConsumer : public ASTConsumer, public RecursiveASTVisitor<TranslateConsumer> {
public:
  TranslateConsumer(CompilerInstance &CI, const TranslateOptions &Opts, std::string &Output)
      : CI(CI), Opts(Opts), Output(Output), Diags(CI.getDiagnostics()) {}

  void HandleTranslationUnit(ASTContext &C) override;
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
  /// Where the preprocessor records the include directives.
  std::vector<IncludeDirective> &includes() { return Includes; }

  // RecursiveASTVisitor configuration and hooks.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseDecl(Decl *D);
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return traverseFunction(FD,
                            [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(FD); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(FD); });
  }
  /// Keeps the chain of enclosing statements, so that a rewrite can ask
  /// how an expression's value is used (the AST has no parent links; Clang's
  /// ParentMapContext would index the whole translation unit).
  bool TraverseStmt(Stmt *S) {
    Parents.push_back(S);
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    Parents.pop_back();
    return R;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true; // sizeof/alignof operands are not evaluated
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E);
  bool VisitCallExpr(CallExpr *E);
  bool VisitCXXNewExpr(CXXNewExpr *E);
  /// `new (m) T(args)` with a template parameter `T` (DependentCalls.h).
  void rewriteDependentNew(const CXXNewExpr *E, bool Started);
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E);
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E);
  bool VisitUnaryOperator(UnaryOperator *E);
  bool VisitMemberExpr(MemberExpr *E);
  bool VisitBinaryOperator(BinaryOperator *E);
  bool VisitDeclStmt(DeclStmt *S);
  bool VisitFunctionDecl(FunctionDecl *FD);
  bool VisitDeclRefExpr(DeclRefExpr *E);

private:
  /// The statement enclosing the expression being visited (which is on top
  /// of Parents), skipping implicit wrappers; null at the top.
  const Stmt *parentOfCurrent() const {
    for (size_t I = Parents.size(); I-- > 1;)
      if (!isImplicitWrapper(Parents[I - 1]))
        return Parents[I - 1];
    return nullptr;
  }
  template <class F> bool traverseFunction(FunctionDecl *FD, F Traverse) {
    FunctionDecl *Saved = CurrentFunction;
    CurrentFunction = FD;
    bool R = Traverse();
    CurrentFunction = Saved;
    return R;
  }
  /// True if \p L is in a file poc++ rewrites: the main file or one of the
  /// user's own headers (not a system, MPI or poc header).
  bool inUserFile(SourceLocation L) const;
  /// Consumes a `start` keyword in front of \p Begin, if there is one.
  bool takeStart(SourceLocation Begin);
  /// True if the value of the expression being visited is not used (an
  /// expression statement).
  bool isDiscarded();
  /// Reports and returns false if \p E involves macros (not rewritable).
  bool rewritable(const Expr *E);
  /// How the expression \p E, which is Parents[At], is used (for an
  /// element `p[i]` or `*p`, or a member of one).
  ElementUse elementUse(const Expr *E, size_t At) const;
  /// Rewrites the element expression \p E of array \p Base at index
  /// \p Idx (null: `*Base`) for its use: reads become values, writes
  /// element references; a non-const reference binding is an error.
  void rewriteElement(const Expr *E, const Expr *Base, const Expr *Idx);
  SourceLocation afterToken(SourceLocation L) const {
    return Lexer::getLocForEndOfToken(L, 0, *SM, LangOpts);
  }
  void replace(SourceLocation B, SourceLocation E, llvm::StringRef Text) {
    R.ReplaceText(CharSourceRange::getCharRange(B, E), Text);
  }
  void noteUse(const RemoteClass &C);
  bool checkProblem(const RemoteMethod &M, const CallExpr *Call, const CXXConstructExpr *Ctor,
                    SourceLocation At);
  void checkArrayArgs(const RemoteMethod &M, llvm::ArrayRef<const Expr *> Args);
  void rewriteCallArgs(SourceLocation AfterCallee, const Expr *const *Args, unsigned NumArgs,
                       SourceLocation Close, bool HaveLeading);
  void startLocal(const Expr *E);
  /// A started call that is not remote runs as a local task.
  bool startLocalIfStarted(const Expr *E);
  /// Rewrites `p->f(args)` whose method is chosen when the template is
  /// instantiated (pocc/DependentCalls.h); false if \p E is not one.
  bool rewriteDependentCall(const CallExpr *E);
  /// Rewrites `(*p)(args)` and `(*p)[i]` on a process into calls of its
  /// operator's client wrapper (other operators are diagnosed); false if
  /// \p E is not an operator of an object that may be a process.
  bool rewriteProcessOperator(const CXXOperatorCallExpr *E);
  /// The opening of the client wrapper call that makes a call of \p M
  /// (method \p MD) beginning at \p Begin remote: `::poc_gen::C_client::
  /// key(`, with `_start`/`_future` if a `start` precedes it; notes the use.
  std::string clientWrapper(const clang::CXXMethodDecl *MD, const RemoteMethod &M,
                            SourceLocation Begin);
  DependentCalls &dependent();
  /// The remotable classes defined in the file's declarations.
  std::vector<const CXXRecordDecl *> remotableClasses() const;
  /// Declares \p C's interface before \p Top (null: at the end) unless it
  /// is declared before an earlier declaration already.
  void noteUseAt(const RemoteClass &C, const Decl *Top);
  /// Places the `remote<T>` specialisations dependent calls need right
  /// after their classes, before any code can instantiate a template.
  void placeSpecialisations();
  /// The interface and client declarations of \p C, and its `remote<T>`
  /// specialisation if it has one.
  std::string declarationsOf(const RemoteClass &C);
  /// Rewrites the marker of a `"poc://..."` literal (pocc/Persistence.h).
  void rewriteAddressLiteral(const CallExpr *E);
  /// Reports if processes of \p RD cannot be persistent.
  void checkPersistable(const CXXRecordDecl *RD, SourceLocation At);
  /// The main file as the user named it.
  std::string sourceName() const;
  /// A user file's name in `#line` directives: the main file as the user
  /// named it, a header by its absolute path.
  std::string fileName(FileID FID) const;
  std::string lineDirective(unsigned Line, llvm::StringRef File) const;
  /// Where the rewritten copy of header \p FID goes.
  std::string copyPath(FileID FID) const;
  /// Writes the rewritten copies of the user's headers (those poc++ changed
  /// and those including them) and points include directives at them;
  /// false on errors.
  bool copyHeaders();
  /// Replaces each marker line in \p Text by a `#line` directive naming
  /// \p Name, the file \p Text is written to.
  static std::string resolveGeneratedLines(llvm::StringRef Text, llvm::StringRef Name);
  std::string insertionBlock(const Decl *Top, llvm::StringRef Body);
  std::string forwardDeclaration(const CXXRecordDecl *RD) const;
  std::string generateEnd(const std::vector<const RemoteClass *> &Servers);
  void finish();

  CompilerInstance &CI;
  const TranslateOptions &Opts;
  std::string &Output;
  Diagnostics Diags;
  ASTContext *Ctx = nullptr;
  SourceManager *SM = nullptr;
  LangOptions LangOpts;
  Rewriter R;
  std::unique_ptr<RemoteModel> Model;
  std::unique_ptr<Serializability> Sendable;
  std::unique_ptr<InterfaceGen> Gen;
  std::unique_ptr<DependentCalls> Dependent;
  /// Classes with a `remote<T>` specialisation, by name.
  std::vector<const RemoteClass *> Specialised;

  /// Per user file: started expression offset -> keyword offset.
  std::map<FileID, std::map<unsigned, unsigned>> StartOffsets;
  /// Whether a file is a user file, by file.
  mutable std::map<FileID, bool> UserFiles;
  std::set<const CXXNewExpr *> StartedNews;
  FunctionDecl *CurrentFunction = nullptr;
  const Decl *CurrentTop = nullptr;
  /// The namespace-scope declarations rewritten, in order.
  std::vector<const Decl *> Tops;
  /// Units in order of first use, with the top-level declaration before
  /// which their declarations go.
  std::vector<std::pair<const RemoteClass *, const Decl *>> FirstUse;
  std::set<const RemoteClass *> Declared;
  const FunctionDecl *Main = nullptr;
  std::vector<const Stmt *> Parents;
  std::vector<IncludeDirective> Includes;
  /// The file's own top-level declarations, in order (not those of a
  /// precompiled header).
  std::vector<Decl *> TopLevel;
};

bool TranslateConsumer::TraverseDecl(Decl *D) {
  if (!D)
    return true;
  const DeclContext *DC = D->getLexicalDeclContext();
  bool TopLevel = DC && (DC->isFileContext() || isa<LinkageSpecDecl>(DC)) &&
                  !isa<NamespaceDecl>(D) && !isa<LinkageSpecDecl>(D) &&
                  !isa<TranslationUnitDecl>(D);
  if (TopLevel || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
    // System, MPI and poc headers are library code, read and not changed.
    if (!inUserFile(D->getLocation()))
      return true;
  }
  if (!TopLevel)
    return RecursiveASTVisitor::TraverseDecl(D);
  const Decl *Saved = CurrentTop;
  CurrentTop = D;
  Tops.push_back(D);
  bool Res = RecursiveASTVisitor::TraverseDecl(D);
  CurrentTop = Saved;
  return Res;
}

bool TranslateConsumer::inUserFile(SourceLocation L) const {
  if (L.isInvalid())
    return false;
  FileID FID = SM->getFileID(SM->getExpansionLoc(L));
  auto [It, New] = UserFiles.emplace(FID, false);
  if (New) {
    OptionalFileEntryRef FE = SM->getFileEntryRefForID(FID);
    // Headers found through system include paths are library code
    // wherever they are (the paths Clang names them by vary).
    It->second =
        FID == SM->getMainFileID() || (FE && Opts.Files && Opts.Files->isUserPath(FE->getName()) &&
                                       !SM->isInSystemHeader(SM->getLocForStartOfFile(FID)));
  }
  return It->second;
}

bool TranslateConsumer::takeStart(SourceLocation Begin) {
  if (StartOffsets.empty() || !inUserFile(Begin))
    return false;
  SourceLocation L = SM->getExpansionLoc(Begin);
  auto File = StartOffsets.find(SM->getFileID(L));
  if (File == StartOffsets.end())
    return false;
  unsigned Off = SM->getFileOffset(L);
  auto It = File->second.find(Off);
  if (It == File->second.end())
    return false;
  // Remove the blanks or the parse-only marker the pre-pass left.
  R.RemoveText(SM->getComposedLoc(File->first, It->second), Off - It->second);
  File->second.erase(It);
  return true;
}

bool TranslateConsumer::isDiscarded() {
  const Stmt *P = parentOfCurrent();
  // Used: an operand, an initialiser (DeclStmt) or a global initialiser.
  return P && !isa<Expr>(P) && !isa<DeclStmt>(P);
}

bool TranslateConsumer::rewritable(const Expr *E) {
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "process operations inside macro expansions; write them "
           "outside the macro";
    return false;
  }
  return true;
}

void TranslateConsumer::noteUse(const RemoteClass &C) { noteUseAt(C, CurrentTop); }

void TranslateConsumer::noteUseAt(const RemoteClass &C, const Decl *Top) {
  if (Declared.insert(&C).second) {
    FirstUse.emplace_back(&C, Top);
    return;
  }
  for (auto &[Unit, At] : FirstUse)
    if (Unit == &C && Top &&
        (!At || SM->isBeforeInTranslationUnit(Top->getBeginLoc(), At->getBeginLoc())))
      At = Top;
}

bool TranslateConsumer::checkProblem(const RemoteMethod &M, const CallExpr *Call,
                                     const CXXConstructExpr *Ctor, SourceLocation At) {
  if (!M.Problem)
    return true;
  std::string Name = M.Decl ? M.Decl->getQualifiedNameAsString() : "";
  if (M.ProblemParam) {
    unsigned Index = M.ProblemParam->getFunctionScopeIndex();
    const Expr *Arg = nullptr;
    if (Call && Index < Call->getNumArgs())
      Arg = Call->getArg(Index);
    if (Ctor && Index < Ctor->getNumArgs())
      Arg = Ctor->getArg(Index);
    SourceLocation L = Arg && !isa<CXXDefaultArgExpr>(Arg) ? Arg->getBeginLoc() : At;
    Diags.report(L, Diag::UnsendableParam)
        << Name << M.ProblemParam->getName() << M.ProblemParam->getType() << M.Problem->Reason;
    Diags.report(M.ProblemParam->getLocation(), Diag::DeclaredHere) << M.ProblemParam->getName();
  } else {
    Diags.report(At, Diag::UnsendableResult)
        << Name << M.Decl->getReturnType() << M.Problem->Reason;
  }
  if (M.Problem->Culprit && M.Problem->Culprit != M.ProblemParam)
    Diags.report(M.Problem->Culprit->getLocation(), Diag::DeclaredHere)
        << M.Problem->Culprit->getName();
  return false;
}

void TranslateConsumer::checkArrayArgs(const RemoteMethod &M, llvm::ArrayRef<const Expr *> Args) {
  for (size_t I = 0; I < M.Params.size() && I < Args.size(); ++I) {
    if (M.Params[I].Kind != ParamKind::RemoteArray)
      continue;
    const Expr *A = Args[I]->IgnoreParenImpCasts();
    if (isa<CXXDefaultArgExpr>(A) || isa<CXXNullPtrLiteralExpr>(A) || isa<GNUNullExpr>(A) ||
        A->isNullPointerConstant(*Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    if (!Model->mayBeRemoteArray(Args[I]))
      Diags.report(Args[I]->getBeginLoc(), Diag::LocalPointerToRemote)
          << M.Params[I].Decl->getName() << (M.Decl ? M.Decl->getQualifiedNameAsString() : "");
  }
}

void TranslateConsumer::rewriteCallArgs(SourceLocation AfterCallee, const Expr *const *Args,
                                        unsigned NumArgs, SourceLocation Close, bool HaveLeading) {
  // The first explicit argument; default arguments have no source.
  const Expr *First = nullptr;
  for (unsigned I = 0; I < NumArgs; ++I)
    if (!isa<CXXDefaultArgExpr>(Args[I])) {
      First = Args[I];
      break;
    }
  if (First)
    replace(AfterCallee, SM->getExpansionLoc(First->getBeginLoc()), HaveLeading ? ", " : "");
  else
    replace(AfterCallee, Close, "");
}

bool TranslateConsumer::VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const CXXMethodDecl *MD = E->getMethodDecl();
  const auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
  if (!MD || !ME || MD->isStatic())
    return true;
  const Expr *Base = ME->getBase();
  bool Deref = false;
  if (!ME->isArrow()) {
    const auto *UO = dyn_cast<UnaryOperator>(Base->IgnoreParens());
    if (!UO || UO->getOpcode() != UO_Deref)
      return startLocalIfStarted(E);
    Deref = true;
  } else if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts())) {
    return startLocalIfStarted(E);
  }
  QualType PT =
      Deref ? cast<UnaryOperator>(Base->IgnoreParens())->getSubExpr()->getType() : Base->getType();
  const CXXRecordDecl *Pointee =
      PT->isPointerType() ? PT->getPointeeType()->getAsCXXRecordDecl() : nullptr;
  if (!Pointee || !Model->isRemotable(Pointee))
    return startLocalIfStarted(E);
  if (!rewritable(E))
    return true;
  const RemoteMethod *M = Gen->methodFor(MD);
  if (!M) {
    if (MD->getAccess() != AS_public)
      Diags.report(ME->getMemberLoc(), Diag::RemoteCallToPrivate)
          << MD->getName() << MD->getParent()->getName();
    else
      Diags.report(ME->getMemberLoc(), Diag::Unsupported)
          << ("calling '" + MD->getNameAsString() +
              "' through a pointer that may refer to another process");
    return true;
  }
  if (!checkProblem(*M, E, nullptr, ME->getMemberLoc()))
    return true;
  checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs(), E->getNumArgs()));
  R.InsertTextBefore(SM->getExpansionLoc(Base->getBeginLoc()),
                     clientWrapper(MD, *M, E->getBeginLoc()) + (Deref ? "&" : ""));
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(), E->getNumArgs(),
                  SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

std::string TranslateConsumer::clientWrapper(const CXXMethodDecl *MD, const RemoteMethod &M,
                                             SourceLocation Begin) {
  std::string Variant;
  if (takeStart(Begin))
    Variant = isDiscarded() ? "_start" : "_future";
  const RemoteClass &Unit = Gen->unitFor(MD);
  Gen->use(Unit, M, Variant);
  noteUse(Unit);
  return "::poc_gen::" + Unit.Id + "_client::" + M.Key + Variant + "(";
}

bool TranslateConsumer::rewriteProcessOperator(const CXXOperatorCallExpr *E) {
  // A member operator of the object `*p`.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  if (!MD || MD->isStatic() || E->getNumArgs() == 0)
    return false;
  const Expr *Object = E->getArg(0);
  // A const operator sees `*p` converted to const: look through that too.
  const auto *UO = dyn_cast<UnaryOperator>(Object->IgnoreParenImpCasts());
  // `*this` is the process's own object, never another process.
  if (!UO || UO->getOpcode() != UO_Deref ||
      isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
    return false;
  const CXXRecordDecl *Pointee = UO->getSubExpr()->getType()->getPointeeCXXRecordDecl();
  if (!Pointee || !Model->isRemotable(Pointee))
    return false;
  const OverloadedOperatorKind Op = E->getOperator();
  const RemoteMethod *M = Op == OO_Call || Op == OO_Subscript ? Gen->methodFor(MD) : nullptr;
  if (!M) {
    Diags.report(E->getOperatorLoc(), Diag::Unsupported)
        << ("calling '" + MD->getNameAsString() +
            "' through a pointer that may refer to another process (only "
            "operator() and operator[] are remote calls); call a named method "
            "instead");
    return true;
  }
  if (!rewritable(E) || !checkProblem(*M, nullptr, nullptr, E->getOperatorLoc()))
    return true;
  checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs() + 1, E->getNumArgs() - 1));
  R.InsertTextBefore(SM->getExpansionLoc(Object->getBeginLoc()),
                     clientWrapper(MD, *M, E->getBeginLoc()) + "&");
  // What follows the object: "(args)" or "[index]"; its closing token
  // becomes the wrapper's closing parenthesis.
  SourceLocation Close = SM->getExpansionLoc(E->getEndLoc());
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Object->getEndLoc())), E->getArgs() + 1,
                  E->getNumArgs() - 1, Close, true);
  if (Op == OO_Subscript)
    replace(Close, afterToken(Close), ")");
  return true;
}

bool TranslateConsumer::startLocalIfStarted(const Expr *E) {
  if (takeStart(E->getBeginLoc()))
    startLocal(E);
  return true;
}

void TranslateConsumer::startLocal(const Expr *E) {
  if (!rewritable(E))
    return;
  if (!isDiscarded()) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "the result of a started local call; use 'start' as a "
           "statement and poc::sync(), or start a method of a process";
    return;
  }
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CurrentFunction);
  bool HasThis = MD && MD->isInstance();
  R.InsertTextBefore(SM->getExpansionLoc(E->getBeginLoc()),
                     HasThis ? "::poc::start_local([=, this]() mutable { "
                             : "::poc::start_local([=]() mutable { ");
  R.InsertTextAfterToken(SM->getExpansionLoc(E->getEndLoc()), "; })");
}

bool TranslateConsumer::VisitCallExpr(CallExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  if (isAddressLiteral(E)) {
    rewriteAddressLiteral(E);
    return true;
  }
  if (const CXXRecordDecl *RD = persistentClass(E))
    checkPersistable(RD, E->getBeginLoc());
  if (isa<CXXMemberCallExpr>(E))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && rewriteProcessOperator(Op))
    return true;
  if (rewriteDependentCall(E))
    return true;
  return startLocalIfStarted(E);
}

bool TranslateConsumer::rewriteDependentCall(const CallExpr *E) {
  // The callee of a call whose method overload resolution has not chosen
  // yet: a member of a dependent type, an overload set, or a method called
  // with type-dependent arguments.
  const Expr *Callee = E->getCallee()->IgnoreParens();
  const Expr *Base = nullptr;
  DeclarationName Name;
  bool Arrow = false, Implicit = false, Explicit = false;
  // The two kinds of unresolved member reference have the same accessors.
  auto unresolved = [&](const auto *Member, DeclarationName MemberName) {
    Implicit = Member->isImplicitAccess();
    Base = Member->getBase();
    Name = MemberName;
    Arrow = Member->isArrow();
    Explicit = Member->hasExplicitTemplateArgs();
  };
  if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    unresolved(D, D->getMember());
  } else if (const auto *U = dyn_cast<UnresolvedMemberExpr>(Callee)) {
    unresolved(U, U->getMemberName());
  } else if (const auto *M = dyn_cast<MemberExpr>(Callee)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
    if (!MD || MD->isStatic())
      return false;
    Base = M->getBase();
    Name = MD->getDeclName();
    Arrow = M->isArrow();
    Explicit = M->hasExplicitTemplateArgs();
  } else {
    return false;
  }
  if (Implicit || !Base || Explicit || !Name.isIdentifier() ||
      isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return false;
  // Through a pointer: `p->f()` or `(*p).f()`.
  const Expr *Pointer = Base;
  if (!Arrow) {
    const auto *UO = dyn_cast<UnaryOperator>(Base->IgnoreParens());
    if (!UO || UO->getOpcode() != UO_Deref)
      return false;
    Pointer = UO->getSubExpr();
  }
  QualType PT = Pointer->getType();
  if (!PT->isDependentType()) {
    const CXXRecordDecl *RD =
        PT->isPointerType() ? PT->getPointeeType()->getAsCXXRecordDecl() : nullptr;
    if (!RD || !Model->isRemotable(RD))
      return false;
  }
  llvm::StringRef Method = Name.getAsIdentifierInfo()->getName();
  if (!dependent().isRemoteName(Method))
    return false; // no process has such a method: always a local call
  if (!rewritable(E))
    return true;
  std::string Variant;
  if (takeStart(E->getBeginLoc()))
    Variant = isDiscarded() ? "_start" : "_future";
  R.InsertTextBefore(SM->getExpansionLoc(Base->getBeginLoc()),
                     dependent().use(Method, Variant) + "(" + (Arrow ? "" : "&"));
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(), E->getNumArgs(),
                  SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

void TranslateConsumer::rewriteAddressLiteral(const CallExpr *E) {
  // The conversion that consumes the marker's value, if any, is among the
  // enclosing expressions (Parents.back() is E itself).
  const CXXRecordDecl *RD = nullptr;
  for (size_t I = Parents.size() - 1; I-- > 0;) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Parents[I])) {
      RD = persistentClass(MC);
      break;
    }
    if (!isImplicitWrapper(Parents[I]) && !isa<MemberExpr>(Parents[I]))
      break;
  }
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation End = afterToken(SM->getExpansionLoc(E->getEndLoc()));
  // The marker is one character shorter than the literal; drop its padding.
  if (*SM->getCharacterData(End) == ' ')
    End = End.getLocWithOffset(1);
  // The marker's argument is the address as the user wrote it, quoted.
  llvm::StringRef Quoted = Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getArg(0)->getSourceRange()), *SM, LangOpts);
  if (!RD) {
    // Not a class pointer: the literal was an ordinary string.
    replace(Begin, End, "\"poc://" + Quoted.drop_front(1).str());
    return;
  }
  checkPersistable(RD, Begin);
  replace(Begin, End,
          "::poc::persistent<" + codeSpelling(Ctx->getRecordType(RD), *Ctx) + ">(" + Quoted.str() +
              ")");
}

void TranslateConsumer::checkPersistable(const CXXRecordDecl *RD, SourceLocation At) {
  if (!RD->hasDefinition())
    return; // Clang has reported the incomplete type
  RD = RD->getDefinition();
  if (auto U = Sendable->checkState(RD)) {
    Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << U->Reason + "; or give the class poc_write/poc_read members "
                       "(docs/serialization.md)";
    if (U->Culprit)
      Diags.report(U->Culprit->getLocation(), Diag::DeclaredHere) << U->Culprit->getName();
  } else if (!RD->hasDefaultConstructor()) {
    Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << "it has no default constructor, which activation needs to make "
           "the object its saved state is loaded into";
  }
}

bool TranslateConsumer::VisitBinaryOperator(BinaryOperator *E) {
  // `start p = new(m) T(...)`: the creation is what is started.
  if (E->getOpcode() != BO_Assign || !inUserFile(E->getBeginLoc()))
    return true;
  const auto *New = dyn_cast<CXXNewExpr>(E->getRHS()->IgnoreParenImpCasts());
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && takeStart(E->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

bool TranslateConsumer::VisitDeclStmt(DeclStmt *S) {
  // `start T* p = new(m) T(...)`.
  if (!S->isSingleDecl() || !inUserFile(S->getBeginLoc()))
    return true;
  const auto *VD = dyn_cast<VarDecl>(S->getSingleDecl());
  const auto *New =
      VD && VD->getInit() ? dyn_cast<CXXNewExpr>(VD->getInit()->IgnoreParenImpCasts()) : nullptr;
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && takeStart(S->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

void TranslateConsumer::rewriteDependentNew(const CXXNewExpr *E, bool Started) {
  if (E->getInitializationStyle() == CXXNewInitializationStyle::Braces) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a template parameter type with braces; write "
           "'new (m) T(args)'";
    return;
  }
  std::string Type =
      Lexer::getSourceText(CharSourceRange::getTokenRange(
                               E->getAllocatedTypeSourceInfo()->getTypeLoc().getSourceRange()),
                           *SM, LangOpts)
          .str();
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = afterToken(SM->getExpansionLoc(Where->getEndLoc()));
  replace(Begin, WhereBegin, dependent().useCreation(Started) + "<" + Type + ">(");
  SourceRange Parens = E->getDirectInitRange();
  if (Parens.isInvalid()) { // `new (m) T`: the default constructor
    replace(WhereEnd, afterToken(SM->getExpansionLoc(E->getEndLoc())), ")");
    return;
  }
  unsigned Args = 0;
  if (const auto *List = dyn_cast_or_null<ParenListExpr>(E->getInitializer()))
    Args = List->getNumExprs();
  else if (E->getInitializer())
    Args = 1;
  // `) T(` becomes `, ` (or nothing); the arguments and `)` stay.
  replace(WhereEnd, afterToken(SM->getExpansionLoc(Parens.getBegin())), Args ? ", " : "");
}

bool TranslateConsumer::VisitCXXNewExpr(CXXNewExpr *E) {
  if (inUserFile(E->getBeginLoc()) && isDependentRemoteNew(E) && rewritable(E)) {
    rewriteDependentNew(E, StartedNews.count(E) || takeStart(E->getBeginLoc()));
    return true;
  }
  if (!inUserFile(E->getBeginLoc()) || !isRemoteNew(E) || !rewritable(E))
    return true;
  bool Started = StartedNews.count(E) || takeStart(E->getBeginLoc());
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = afterToken(SM->getExpansionLoc(Where->getEndLoc()));
  SourceLocation End = afterToken(SM->getExpansionLoc(E->getEndLoc()));
  if (E->isArray()) {
    QualType Elem = E->getAllocatedType();
    if (!Elem.isTriviallyCopyableType(*Ctx) || Elem->isPointerType()) {
      Diags.report(E->getBeginLoc(), Diag::RemoteArrayElement) << Elem;
      return true;
    }
    const Expr *Size = *E->getArraySize();
    replace(Begin, WhereBegin, "::poc::create_array<" + codeSpelling(Elem, *Ctx) + ">(");
    replace(WhereEnd, SM->getExpansionLoc(Size->getBeginLoc()), ", ");
    replace(afterToken(SM->getExpansionLoc(Size->getEndLoc())), End, ")");
    return true;
  }
  const CXXConstructExpr *CE = E->getConstructExpr();
  if (!CE) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a class without a constructor call "
           "(aggregate initialisation); declare a constructor";
    return true;
  }
  const RemoteClass &C = Gen->classFor(E->getAllocatedType()->getAsCXXRecordDecl());
  if (!C.Concrete) {
    // Abstract classes are Clang's error already; this is the system header.
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getQualifiedNameAsString() +
               "', which is declared in a system header (a header found through "
               "-isystem or a system directory); include its folder with -I";
    return true;
  }
  if (C.Decl->isLocalClass()) {
    // Its interface and server are generated at namespace scope.
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getNameAsString() +
               "', a class defined inside a function; define it at namespace scope";
    return true;
  }
  const RemoteMethod *M = Gen->methodFor(CE->getConstructor());
  if (!M) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process with a copy, move or non-public constructor";
    return true;
  }
  if (!checkProblem(*M, nullptr, CE, E->getBeginLoc()))
    return true;
  llvm::SmallVector<const Expr *, 4> Args(CE->arg_begin(), CE->arg_end());
  checkArrayArgs(*M, Args);
  bool Persistent = isPersistentNew(E);
  if (Persistent && Started) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "'start' before a persistent creation (its state is saved before "
           "it returns); create it, then start calls on it";
    return true;
  }
  if (Persistent)
    checkPersistable(C.Decl, E->getBeginLoc());
  std::string Kind = Persistent ? "make_persistent" : Started ? "start_create" : "create";
  Gen->use(C, *M, Kind);
  noteUse(C);
  replace(Begin, WhereBegin,
          "::poc_gen::" + C.Id + "_client::" + Kind + "_" + M->Key.substr(5) + "(");
  const Expr *Last = nullptr;
  const Expr *First = nullptr;
  for (const Expr *A : Args)
    if (!isa<CXXDefaultArgExpr>(A)) {
      if (!First)
        First = A;
      Last = A;
    }
  if (First) {
    replace(WhereEnd, SM->getExpansionLoc(First->getBeginLoc()), ", ");
    replace(afterToken(SM->getExpansionLoc(Last->getEndLoc())), End, ")");
  } else {
    replace(WhereEnd, End, ")");
  }
  return true;
}

bool TranslateConsumer::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Arg = E->getArgument();
  QualType T = Arg->IgnoreImpCasts()->getType();
  const char *Fn = nullptr;
  if (T->isDependentType()) {
    // In a template, `delete p` of a dependent `T*` may end a process:
    // ::poc::destroy deletes a local object and ends a remote one.
    if (!E->isArrayForm())
      Fn = "::poc::destroy(";
  } else if (!T->isPointerType()) {
    return true;
  } else if (E->isArrayForm()) {
    if (isScalarPointer(T) && Model->mayBeRemoteArray(Arg))
      Fn = "::poc::destroy_array(";
  } else if (const auto *RD = T->getPointeeType()->getAsCXXRecordDecl()) {
    if (Model->isRemotable(RD))
      Fn = "::poc::destroy(";
  }
  if (!Fn || !rewritable(E))
    return true;
  replace(SM->getExpansionLoc(E->getBeginLoc()), SM->getExpansionLoc(Arg->getBeginLoc()), Fn);
  R.InsertTextAfterToken(SM->getExpansionLoc(Arg->getEndLoc()), ")");
  return true;
}

bool TranslateConsumer::VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Base = E->getBase();
  if (Base != E->getLHS() || !isScalarPointer(Base->getType()) || !Model->mayBeRemoteArray(Base))
    return true;
  rewriteElement(E, Base, E->getIdx());
  return true;
}

bool TranslateConsumer::VisitUnaryOperator(UnaryOperator *E) {
  if (E->getOpcode() != UO_Deref || !inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Sub = E->getSubExpr();
  if (!isScalarPointer(Sub->getType()) || !Model->mayBeRemoteArray(Sub))
    return true;
  rewriteElement(E, Sub, nullptr);
  return true;
}

ElementUse TranslateConsumer::elementUse(const Expr *E, size_t At) const {
  // The innermost enclosing node that is neither parentheses nor a
  // conversion to const (which keeps the lvalue for a const reference):
  // another implicit conversion (lvalue-to-rvalue) means the value is used;
  // so does anything else that does not bind the lvalue.
  const Stmt *Parent = nullptr;
  const Expr *Operand = E;
  while (At-- > 0) {
    Parent = Parents[At];
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent);
    if (!isa<ParenExpr>(Parent) && !(Cast && Cast->getCastKind() == CK_NoOp))
      break;
    Operand = cast<Expr>(Parent);
    Parent = nullptr;
  }
  if (!Parent || isa<ImplicitCastExpr>(Parent))
    return ElementUse::Read;
  if (const auto *ME = dyn_cast<MemberExpr>(Parent)) {
    // A member of an element: reading a field or calling a const method
    // reads the element; anything that would change it in place cannot be
    // done on a copy.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
      return MD->isConst() || MD->isStatic() ? ElementUse::Read : ElementUse::Reference;
    ElementUse MemberUse = elementUse(ME, At);
    return MemberUse == ElementUse::Read ? ElementUse::Read : ElementUse::Reference;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
    if (Op->getNumArgs() > 0 && Op->getArg(0) == Operand &&
        (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
         Op->getOperator() == OO_MinusMinus))
      return ElementUse::Write;
  if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
    if (UO->getOpcode() == UO_AddrOf)
      return ElementUse::Address;
    return UO->isIncrementDecrementOp() ? ElementUse::Write : ElementUse::Read;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
    return BO->isAssignmentOp() && BO->getLHS() == Operand ? ElementUse::Write : ElementUse::Read;
  auto bindsMutable = [](QualType T) {
    return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified();
  };
  // Parameter \p I of \p FD binds the lvalue for writing; a forwarding
  // reference (T&& in the template) takes the value read just as well.
  auto paramBindsMutable = [&](const FunctionDecl *FD, unsigned I) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    if (Pattern && I < Pattern->getNumParams() &&
        Pattern->getParamDecl(I)->getType()->isRValueReferenceType())
      return false;
    return bindsMutable(FD->getParamDecl(I)->getType());
  };
  if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getInit() == Operand) {
          // decltype(auto) x = p[i] is a copy: the rewritten read is a prvalue.
          const AutoType *AT = VD->getType()->getContainedAutoType();
          if (AT && AT->isDecltypeAuto())
            return ElementUse::Read;
          // A reference variable, even a const one, would see later writes
          // to a local element but not to a remote one: refuse both alike.
          return VD->getType()->isReferenceType() ? ElementUse::Reference : ElementUse::Read;
        }
    return ElementUse::Read;
  }
  if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
    const auto *FD = Call->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = 0; FD && I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Operand && I >= Shift && I - Shift < FD->getNumParams())
        return paramBindsMutable(FD, I - Shift) ? ElementUse::Reference : ElementUse::Read;
    return ElementUse::Read;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      if (Construct->getArg(I) == Operand)
        return paramBindsMutable(Ctor, I) ? ElementUse::Reference : ElementUse::Read;
    return ElementUse::Read;
  }
  if (isa<ReturnStmt>(Parent) && CurrentFunction && bindsMutable(CurrentFunction->getReturnType()))
    return ElementUse::Reference;
  return ElementUse::Read;
}

void TranslateConsumer::rewriteElement(const Expr *E, const Expr *Base, const Expr *Idx) {
  ElementUse Use = elementUse(E, Parents.size() - 1);
  if (Use == ElementUse::Address)
    return; // &data[i] computes an address, it reads nothing
  if (Use == ElementUse::Reference) {
    Diags.report(E->getBeginLoc(), Diag::RemoteElementReference);
    return;
  }
  if (!rewritable(E))
    return;
  llvm::StringRef Fn = Use == ElementUse::Write ? "::poc::element(" : "::poc::element_value(";
  SourceLocation BaseBegin = SM->getExpansionLoc(Base->getBeginLoc());
  SourceLocation BaseEnd = afterToken(SM->getExpansionLoc(Base->getEndLoc()));
  if (!Idx) {
    // *p -> fn(p, 0)
    replace(SM->getExpansionLoc(E->getBeginLoc()), BaseBegin, Fn);
    R.InsertTextAfterToken(SM->getExpansionLoc(Base->getEndLoc()), ", 0)");
    return;
  }
  // p[i] -> fn(p, i)
  R.InsertTextBefore(BaseBegin, Fn);
  replace(BaseEnd, SM->getExpansionLoc(Idx->getBeginLoc()), ", ");
  replace(afterToken(SM->getExpansionLoc(Idx->getEndLoc())),
          afterToken(SM->getExpansionLoc(cast<ArraySubscriptExpr>(E)->getRBracketLoc())), ")");
}

bool TranslateConsumer::VisitMemberExpr(MemberExpr *E) {
  if (!inUserFile(E->getBeginLoc()) || !E->isArrow())
    return true;
  const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl());
  const Expr *Base = E->getBase();
  if (!FD || isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return true;
  const auto *RD = Base->getType()->getPointeeCXXRecordDecl();
  if (RD && Model->isRemotable(RD))
    Diags.report(E->getMemberLoc(), Diag::RemoteFieldAccess) << FD->getName() << RD->getName();
  return true;
}

bool TranslateConsumer::VisitFunctionDecl(FunctionDecl *FD) {
  if (!FD->isMain() || !SM->isWrittenInMainFile(FD->getLocation()))
    return true;
  // Every declaration is renamed, so that a use after a forward
  // declaration finds the renamed function (VisitDeclRefExpr).
  R.ReplaceText(FD->getLocation(), 4, "poc_user_main");
  if (!FD->doesThisDeclarationHaveABody())
    return true;
  Main = FD;
  // Only `main` may fall off its end; poc_user_main must return.
  const auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (Body && (Body->body_empty() || !isa<ReturnStmt>(Body->body_back())))
    R.InsertTextBefore(Body->getRBracLoc(), "return 0; ");
  return true;
}

bool TranslateConsumer::VisitDeclRefExpr(DeclRefExpr *E) {
  // A program may name `main` (Clang accepts it as an extension), e.g. as a
  // function pointer; it now means the renamed user main.
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (FD && FD->isMain() && SM->isWrittenInMainFile(E->getLocation()) &&
      !E->getLocation().isMacroID())
    R.ReplaceText(E->getLocation(), 4, "poc_user_main");
  return true;
}

std::string TranslateConsumer::sourceName() const {
  if (!Opts.SourceName.empty())
    return Opts.SourceName;
  return SM->getFileEntryRefForID(SM->getMainFileID())->getName().str();
}

namespace {
std::string absolutePath(llvm::StringRef Name) {
  llvm::SmallString<256> Path(Name);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// \p Text as the contents of a C++ string literal.
std::string quoted(llvm::StringRef Text) {
  std::string S = "\"";
  for (char C : Text) {
    if (C == '\\' || C == '"')
      S += '\\';
    S += C;
  }
  return S + "\"";
}
} // namespace

std::string TranslateConsumer::fileName(FileID FID) const {
  if (FID == SM->getMainFileID())
    return sourceName();
  return absolutePath(SM->getFileEntryRefForID(FID)->getName());
}

std::string TranslateConsumer::lineDirective(unsigned Line, llvm::StringRef File) const {
  return "#line " + std::to_string(Line) + " " + quoted(File) + "\n";
}

std::string TranslateConsumer::copyPath(FileID FID) const {
  // The original's absolute path under the directory: unique, and it
  // says which header a copy is.
  return Opts.HeaderDir + fileName(FID);
}

bool TranslateConsumer::copyHeaders() {
  FileID Main = SM->getMainFileID();
  // The headers poc++ changed, by file.
  std::map<const FileEntry *, FileID> Copied;
  for (auto It = R.buffer_begin(); It != R.buffer_end(); ++It) {
    OptionalFileEntryRef FE = SM->getFileEntryRefForID(It->first);
    if (It->first == Main || !FE)
      continue;
    if (!Copied.emplace(&FE->getFileEntry(), It->first).second) {
      Diags.report(SM->getIncludeLoc(It->first), Diag::Unsupported)
          << "including a header with process operations twice in one "
             "file; give it an include guard or '#pragma once'";
      return false;
    }
  }
  if (Copied.empty())
    return true;
  if (Opts.HeaderDir.empty() || !Opts.Headers) {
    Diags.report(SM->getLocForStartOfFile(Copied.begin()->second), Diag::Unsupported)
        << "process operations in a header when the translation is written "
           "to standard output (the header's translation is a file of its "
           "own); use -o FILE";
    return false;
  }
  // A user header that includes a copied header is copied too, so that
  // its directive can name the copy.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const IncludeDirective &I : Includes) {
      FileID From = SM->getFileID(I.Name.getBegin());
      OptionalFileEntryRef FE = SM->getFileEntryRefForID(From);
      if (From != Main && FE && Copied.count(&I.Target.getFileEntry()) &&
          Copied.emplace(&FE->getFileEntry(), From).second)
        Grew = true;
    }
  }
  // In the main file and the copies, directives name the copies; in the
  // copies, the user's other headers are named by absolute path, as a copy
  // is not in its original's directory.
  for (const IncludeDirective &I : Includes) {
    FileID From = SM->getFileID(I.Name.getBegin());
    OptionalFileEntryRef FE = SM->getFileEntryRefForID(From);
    bool InCopy = FE && Copied.count(&FE->getFileEntry()) && Copied[&FE->getFileEntry()] == From;
    if (From != Main && !InCopy)
      continue;
    auto Target = Copied.find(&I.Target.getFileEntry());
    if (Target != Copied.end())
      R.ReplaceText(I.Name, quoted(copyPath(Target->second)));
    else if (InCopy && Opts.Files->isUserPath(I.Target.getName()))
      R.ReplaceText(I.Name, quoted(absolutePath(I.Target.getName())));
  }
  for (const auto &[FE, FID] : Copied) {
    const RewriteBuffer *Buf = R.getRewriteBufferFor(FID);
    std::string Body = Buf ? std::string(Buf->begin(), Buf->end()) : SM->getBufferData(FID).str();
    std::string Path = copyPath(FID);
    Opts.Headers->emplace_back(Path,
                               resolveGeneratedLines(lineDirective(1, fileName(FID)) + Body, Path));
  }
  std::sort(Opts.Headers->begin(), Opts.Headers->end());
  return true;
}

std::string TranslateConsumer::resolveGeneratedLines(llvm::StringRef Text, llvm::StringRef Name) {
  std::string Out;
  unsigned Line = 1;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t NL = Text.find('\n', Pos);
    if (NL == llvm::StringRef::npos)
      NL = Text.size() - 1;
    llvm::StringRef L = Text.slice(Pos, NL + 1);
    if (L == GenLineMarker)
      Out += "#line " + std::to_string(Line + 1) + " " + quoted(Name) + "\n";
    else
      Out += L.str();
    ++Line;
    Pos = NL + 1;
  }
  return Out;
}

std::string TranslateConsumer::forwardDeclaration(const CXXRecordDecl *RD) const {
  std::string Open, Close;
  for (const DeclContext *DC = RD->getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS)
      return {}; // nested classes cannot be declared from outside
    Open = (NS->isInline() ? "inline namespace " : "namespace ") + NS->getNameAsString() + " {\n" +
           Open;
    Close += "}\n";
  }
  return Open + (RD->isStruct() ? "struct " : "class ") + RD->getNameAsString() + ";\n" + Close;
}

std::string TranslateConsumer::insertionBlock(const Decl *Top, llvm::StringRef Body) {
  // Leave the namespaces the declaration is in, and re-enter them after.
  std::string Close, Open;
  for (const DeclContext *DC = Top->getLexicalDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      Close += "} // namespace " + NS->getNameAsString() + "\n";
      Open = (NS->isInline() ? "inline namespace " : "namespace ") + NS->getNameAsString() +
             (NS->isAnonymousNamespace() ? "" : " ") + "{\n" + Open;
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      Close += "}\n";
      Open = std::string(LS->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\" {\n"
                                                                        : "extern \"C++\" {\n") +
             Open;
    }
  }
  return Close + Body.str() + Open;
}

std::string TranslateConsumer::generateEnd(const std::vector<const RemoteClass *> &Servers) {
  std::string Decls, Access, Serial, Clients, ServerCode;
  for (const auto &[C, Top] : FirstUse)
    if (!Top)
      Decls += declarationsOf(*C);
  for (const RemoteClass *C : Servers)
    if (Declared.insert(C).second)
      Decls += declarationsOf(*C);
  for (const auto &[C, Top] : FirstUse)
    Clients += Gen->emitClientDefinitions(*C) + Gen->emitMethodRegistration(*C);
  for (const RemoteClass *C : Specialised)
    Clients += Dependent->emitDefinitions(*C);
  for (const RemoteClass *C : Servers)
    ServerCode += Gen->emitServer(*C);
  // Every served class whose state can be saved gets a Serializer, so any
  // process can be made persistent, by this program or by another one.
  for (const RemoteClass *C : Servers)
    Sendable->checkState(C->Decl);
  bool NeedsAccess = false;
  for (const CXXRecordDecl *RD : Sendable->classes()) {
    Serial += emitSerializer(RD) + emitLayoutHash(RD);
    for (const FieldDecl *F : RD->fields())
      NeedsAccess |= F->getAccess() != AS_public;
  }
  if (NeedsAccess)
    Access = emitFieldAccessPrelude();
  std::string End = "\n// poc++: code generated for " + sourceName() + ".\n" + Decls + Access +
                    Serial + Clients + ServerCode;
  if (Main)
    End += "// poc++: the program starts the runtime, which runs the user's "
           "main.\nint main(int argc, char **argv) {\nreturn ::poc::run(argc, "
           "argv, &poc_user_main);\n}\n";
  return formatCode(End);
}

void TranslateConsumer::HandleTranslationUnit(ASTContext &C) {
  // The client's count: errors it showed (not one it knows to be valid
  // poc++, UserSourcePrinter::isStartedVoidCall).
  if (CI.getDiagnostics().getClient()->getNumErrors())
    return;
  Ctx = &C;
  SM = &C.getSourceManager();
  LangOpts = C.getLangOpts();
  R.setSourceMgr(*SM, LangOpts);

  // `start` keywords the pre-pass found, in the main file and in headers.
  if (Opts.Files) {
    for (const auto &[ID, Offsets] : Opts.Files->startOffsets()) {
      OptionalFileEntryRef FE;
      for (auto It = SM->fileinfo_begin(); It != SM->fileinfo_end(); ++It)
        if (It->first.getUniqueID() == ID)
          FE = It->first;
      if (!FE)
        continue;
      StartOffsets[SM->translateFile(*FE)] = Offsets;
    }
  }

  if (Opts.Dependencies)
    for (auto It = SM->fileinfo_begin(); It != SM->fileinfo_end(); ++It)
      if (!Opts.Files || Opts.Files->isUserPath(It->first.getName()))
        Opts.Dependencies->push_back(It->first.getName().str());
  if (Opts.Dependencies)
    std::sort(Opts.Dependencies->begin(), Opts.Dependencies->end());

  Model = std::make_unique<RemoteModel>(C, Opts.ProgramRemotable, TopLevel);
  Sendable = std::make_unique<Serializability>(
      C, [this](const CXXRecordDecl *RD) { return Model->isRemotable(RD); });
  Gen = std::make_unique<InterfaceGen>(C, *Sendable);
  for (Decl *D : TopLevel)
    TraverseDecl(D);

  for (const auto &[FID, Offsets] : StartOffsets)
    for (const auto &Started : Offsets)
      Diags.report(SM->getComposedLoc(FID, Started.second), Diag::StartNotACall);
  // The client's count: errors it showed (not one it knows to be valid
  // poc++, UserSourcePrinter::isStartedVoidCall).
  if (CI.getDiagnostics().getClient()->getNumErrors())
    return;
  finish();
}

/// Finds the remotable classes the file defines (or instantiates).
class RemotableCollector : public RecursiveASTVisitor<RemotableCollector> {
public:
  RemotableCollector(const RemoteModel &M, const SourceManager &SM) : M(M), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    // Library classes are never served by generated code.
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isDependentContext() && !RD->isLambda() &&
        !SM.isInSystemHeader(RD->getLocation()) && M.isRemotable(RD) &&
        (!isa<ClassTemplateSpecializationDecl>(RD) ||
         cast<ClassTemplateSpecializationDecl>(RD)->getTemplateSpecializationKind() !=
             TSK_Undeclared))
      Found.push_back(RD);
    return true;
  }
  std::vector<const CXXRecordDecl *> Found;

private:
  const RemoteModel &M;
  const SourceManager &SM;
};

std::vector<const CXXRecordDecl *> TranslateConsumer::remotableClasses() const {
  RemotableCollector Collector(*Model, *SM);
  for (Decl *D : TopLevel)
    Collector.TraverseDecl(D);
  return Collector.Found;
}

DependentCalls &TranslateConsumer::dependent() {
  if (!Dependent)
    Dependent = std::make_unique<DependentCalls>(*Gen, remotableClasses());
  return *Dependent;
}

void TranslateConsumer::placeSpecialisations() {
  if (!Dependent || Dependent->empty())
    return;
  Specialised = Dependent->specialisedClasses();
  for (const RemoteClass *C : Specialised) {
    // The first declaration after the class (templates are instantiated
    // by code that comes after it), unless the class is used earlier.
    const Decl *After = nullptr;
    for (const Decl *Top : Tops)
      if (SM->isBeforeInTranslationUnit(C->Decl->getEndLoc(), Top->getBeginLoc())) {
        After = Top;
        break;
      }
    for (const RemoteClass *Unit : Dependent->unitsCalledBy(*C))
      noteUseAt(*Unit, After);
    noteUseAt(*C, After);
  }
}

std::string TranslateConsumer::declarationsOf(const RemoteClass &C) {
  std::string S = Gen->emitDeclarations(C);
  if (std::find(Specialised.begin(), Specialised.end(), &C) != Specialised.end())
    S += Dependent->emitSpecialisation(C);
  return S;
}

void TranslateConsumer::finish() {
  std::vector<const RemoteClass *> Servers;
  for (const CXXRecordDecl *RD : remotableClasses()) {
    const RemoteClass &C = Gen->classFor(RD);
    if (C.Concrete)
      Servers.push_back(&C);
  }
  std::sort(Servers.begin(), Servers.end(),
            [](const RemoteClass *A, const RemoteClass *B) { return A->Name < B->Name; });
  Servers.erase(std::unique(Servers.begin(), Servers.end()), Servers.end());

  // Interface and client declarations before the first use of each unit.
  std::map<const Decl *, std::string> Blocks;
  std::vector<const Decl *> Order;
  placeSpecialisations();
  for (const auto &[C, Top] : FirstUse) {
    if (!Top)
      continue; // declared at the end
    std::string Fwd;
    if (SM->isBeforeInTranslationUnit(Top->getBeginLoc(), C->Decl->getBeginLoc()) ||
        Top->getBeginLoc() == C->Decl->getBeginLoc())
      Fwd = forwardDeclaration(C->Decl);
    if (!Blocks.count(Top))
      Order.push_back(Top);
    Blocks[Top] += Fwd + declarationsOf(*C);
  }
  std::string End = generateEnd(Servers);
  for (const Decl *Top : Order) {
    SourceLocation Begin = SM->getExpansionLoc(Top->getBeginLoc());
    unsigned Line = SM->getExpansionLineNumber(Begin);
    unsigned Col = SM->getExpansionColumnNumber(Begin);
    std::string Text = GenLineMarker.str() + formatCode(insertionBlock(Top, Blocks[Top])) +
                       lineDirective(Line, fileName(SM->getFileID(Begin)));
    if (Col == 1)
      R.InsertTextBefore(Begin, Text);
    else
      R.InsertTextBefore(Begin, "\n" + Text + std::string(Col - 1, ' '));
  }

  if (!copyHeaders())
    return;
  const RewriteBuffer *Buf = R.getRewriteBufferFor(SM->getMainFileID());
  std::string Body =
      Buf ? std::string(Buf->begin(), Buf->end()) : SM->getBufferData(SM->getMainFileID()).str();
  if (!Body.empty() && Body.back() != '\n')
    Body += '\n';
  std::string Text =
      "// Generated by poc++ from " + sourceName() +
      ". Do not edit: edit the source and regenerate.\n"
      "#include <poc/poc.hpp>\n" +
      (Dependent && !Dependent->empty() ? GenLineMarker.str() + formatCode(Dependent->emitHelpers())
                                        : "") +
      lineDirective(1, sourceName()) + Body + GenLineMarker.str() + End;
  // Resolve the markers now that the generated file's lines are known.
  Output = resolveGeneratedLines(Text, Opts.GeneratedName.empty() ? "<poc++ generated>"
                                                                  : Opts.GeneratedName);
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

} // namespace

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
