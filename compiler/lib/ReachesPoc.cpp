//===- ReachesPoc.cpp - does the user's code use poc++? -------------------===//
#include "pocc/ReachesPoc.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace llvm;

namespace pocc {

namespace {
/// Stops at the first reference to a declaration of poc++'s headers.
class PocReferenceFinder : public RecursiveASTVisitor<PocReferenceFinder> {
public:
  PocReferenceFinder(const SourceManager &SM, ArrayRef<std::string> Dirs) : SM(SM), Dirs(Dirs) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return !found(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return !found(E->getMemberDecl()); }
  bool VisitCXXNewExpr(CXXNewExpr *E) { return !found(E->getOperatorNew()); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) { return !found(E->getOperatorDelete()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) { return !found(E->getConstructor()); }
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) { return !found(D->getNominatedNamespace()); }
  bool VisitTypeLoc(TypeLoc TL) {
    const Type *T = TL.getTypePtr();
    if (const auto *TD = T->getAs<TypedefType>())
      return !found(TD->getDecl());
    if (const auto *TS = T->getAs<TemplateSpecializationType>())
      if (const TemplateDecl *Template = TS->getTemplateName().getAsTemplateDecl())
        if (found(Template))
          return false;
    return !found(T->getAsTagDecl());
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
    for (NestedNameSpecifierLoc Each = NNS; Each; Each = Each.getPrefix())
      if (const NamespaceDecl *NS = Each.getNestedNameSpecifier()->getAsNamespace(); found(NS))
        return false;
    return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(NNS);
  }

  bool Found = false;

private:
  /// True (and Found) if \p D is declared in one of poc++'s headers.
  bool found(const Decl *D) {
    if (!D || D->getLocation().isInvalid())
      return false;
    OptionalFileEntryRef File =
        SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(D->getLocation())));
    if (!File)
      return false;
    StringRef Name = File->getName();
    for (const std::string &Dir : Dirs)
      if (Name.starts_with(Dir) && Name.size() > Dir.size() && Name[Dir.size()] == '/')
        return Found = true;
    return false;
  }

  const SourceManager &SM;
  ArrayRef<std::string> Dirs;
};
} // namespace

bool reachesPoc(ASTContext &C, ArrayRef<Decl *> TopLevel,
                function_ref<bool(SourceLocation)> InUserFile, ArrayRef<std::string> PocDirs) {
  PocReferenceFinder Finder(C.getSourceManager(), PocDirs);
  for (Decl *D : TopLevel) {
    if (!InUserFile(D->getLocation()))
      continue;
    Finder.TraverseDecl(D);
    if (Finder.Found)
      return true;
  }
  return false;
}

} // namespace pocc
