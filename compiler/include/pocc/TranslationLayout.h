//===- TranslationLayout.h - Where generated code goes ----------*- C++ -*-===//
//
// The layout of a translation: each class's interface and client
// declarations go right before the first namespace-scope declaration that
// uses it (leaving and re-entering the namespaces it is in), or right after
// the class when that use is in another file (so they are in the file that
// declares the class, a header's copy if that is a header), the `remote<T>`
// specialisations dependent calls need go right after their classes, and
// the serializers, client wrappers, servers, registrations and the
// generated `main` go at the end. assemble() puts the rewritten file and
// the generated code together.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_TRANSLATIONLAYOUT_H
#define POCC_TRANSLATIONLAYOUT_H

#include "pocc/DependentCalls.h"
#include "pocc/HeaderCopies.h"
#include "pocc/InterfaceGen.h"
#include "pocc/Serializability.h"

#include "clang/AST/Decl.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pocc {

class TranslationLayout {
public:
  /// \p ForReaders: the generated code is laid out by clang-format
  /// (TranslateOptions::ForReaders).
  TranslationLayout(const clang::SourceManager &SM, clang::Rewriter &R, InterfaceGen &Gen,
                    Serializability &Sendable, HeaderCopies &Copies, bool ForReaders)
      : SM(SM), R(R), Gen(Gen), Sendable(Sendable), Copies(Copies), ForReaders(ForReaders) {}

  /// A namespace-scope declaration of the user's, in file order.
  void noteTop(const clang::Decl *Top) { Tops.push_back(Top); }
  /// The user's `main`: the translation ends with a `main` that runs it.
  void noteMain(const clang::FunctionDecl *FD) { Main = FD; }
  /// True if the file defines `main` (the translation then defines the
  /// program's `main`, which runs it).
  bool definesMain() const { return Main != nullptr; }
  /// Declares \p C's interface before \p Top (null: at the end) unless it
  /// is declared before an earlier declaration already.
  void noteUseAt(const RemoteClass &C, const clang::Decl *Top);

  /// Puts the translation together in \p Output: the declarations before
  /// their first uses, the rewritten main file, the header copies (through
  /// \p Includes), and the generated code of \p Servers at the end, with
  /// `#line` directives naming \p GeneratedName for generated lines.
  /// \p Dependent (may be null) holds the dependent calls. False if a
  /// header cannot be copied (diagnosed).
  bool assemble(const std::vector<const RemoteClass *> &Servers, DependentCalls *Dependent,
                const std::vector<IncludeDirective> &Includes, llvm::StringRef GeneratedName,
                std::string &Output);

private:
  /// \p Code formatted for a reader, or as generated if nobody reads it.
  std::string laidOut(llvm::StringRef Code) const;
  /// Places the `remote<T>` specialisations dependent calls need right
  /// after their classes, before any code can instantiate a template.
  void placeSpecialisations(DependentCalls &Dependent);
  /// The interface and client declarations of \p C, and its `remote<T>`
  /// specialisation if it has one.
  std::string declarationsOf(const RemoteClass &C, DependentCalls *Dependent);
  /// Where a block of declarations is inserted, and the namespace-scope
  /// declaration whose namespaces it leaves and re-enters.
  struct Insertion {
    clang::SourceLocation At;
    const clang::Decl *Scope;
  };
  /// Where \p C's declarations go, given the namespace-scope declaration
  /// \p FirstUse that uses it first: before FirstUse; or, if FirstUse is in
  /// another file than C and after the declaration that defines C, right
  /// after that definition's `;`, unless C is a template's instance (whose
  /// arguments may be declared later) or a member template's unit, or its
  /// file cannot be copied (copyable).
  Insertion placementOf(const RemoteClass &C, const clang::Decl *FirstUse,
                        const std::vector<IncludeDirective> &Includes) const;
  /// True if file \p FID is the main file or a header that every directive
  /// naming it can name a copy of instead: included by a directive written
  /// in a file (not through `-include`), its name not made by a macro.
  bool copyable(clang::FileID FID, const std::vector<IncludeDirective> &Includes) const;
  /// `class C;` in C's namespaces (empty for a nested class).
  std::string forwardDeclaration(const clang::CXXRecordDecl *RD) const;
  /// \p Body placed at namespace scope before \p Top: its namespaces left
  /// before and re-entered after.
  std::string insertionBlock(const clang::Decl *Top, llvm::StringRef Body) const;
  /// The code generated at the end of the file.
  std::string generateEnd(const std::vector<const RemoteClass *> &Servers,
                          DependentCalls *Dependent);

  const clang::SourceManager &SM;
  clang::Rewriter &R;
  InterfaceGen &Gen;
  Serializability &Sendable;
  HeaderCopies &Copies;
  const bool ForReaders;
  /// The namespace-scope declarations rewritten, in order.
  std::vector<const clang::Decl *> Tops;
  /// Units in order of first use, with the top-level declaration before
  /// which their declarations go.
  std::vector<std::pair<const RemoteClass *, const clang::Decl *>> FirstUse;
  std::set<const RemoteClass *> Declared;
  /// Classes with a `remote<T>` specialisation.
  std::vector<const RemoteClass *> Specialised;
  const clang::FunctionDecl *Main = nullptr;
};

} // namespace pocc

#endif
