//===- Serializability.h - what can be sent to another process --*- C++ -*-===//
#ifndef POCC_SERIALIZABILITY_H
#define POCC_SERIALIZABILITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include <functional>
#include <optional>
#include <string>

namespace pocc {

/// Why a type cannot be sent, and which declaration (a member, if the
/// problem is inside a class) to point a note at.
struct Unsendable {
  std::string Reason;
  const clang::NamedDecl *Culprit = nullptr;
};

/// How a parameter travels.
enum class ParamKind {
  Value,       ///< serialised by value (also const& and const T*)
  CopyBack,    ///< non-const T& or T* to a class: sent and copied back
  RemoteArray, ///< pointer to scalar data: sent as a remote array reference
  Counted,     ///< pointer annotated POC_COUNT(n): n elements are sent
};

/// Decides sendability of types and records the user classes that need a
/// generated poc::Serializer.
class Serializability {
public:
  /// \p IsRemotable: calls through pointers to such classes are remote, so
  /// a pointer to one is sent as a reference.
  Serializability(clang::ASTContext &Ctx,
                  std::function<bool(const clang::CXXRecordDecl *)> IsRemotable)
      : Ctx(Ctx), IsRemotable(std::move(IsRemotable)) {}

  /// Checks a parameter of a remotely callable method or constructor.
  std::optional<Unsendable> checkParam(const clang::ParmVarDecl *P, ParamKind &Kind);

  /// Checks a result type.
  std::optional<Unsendable> checkResult(clang::QualType T);

  /// Checks that the state of a process of class \p RD (its bases and
  /// fields) can be saved, as persistence does; records the class for a
  /// generated Serializer if it needs one.
  std::optional<Unsendable> checkState(const clang::CXXRecordDecl *RD) { return checkRecord(RD); }

  /// True if \p RD is a process class (a pointer to one is sent as a reference).
  bool isRemotable(const clang::CXXRecordDecl *RD) const { return IsRemotable(RD); }

  /// The count expression of a POC_COUNT annotation, or empty.
  static std::string countOf(const clang::Decl *D);

  /// User classes reached by value that need a generated Serializer, in
  /// dependency order (a class after the classes of its fields and bases).
  const llvm::SetVector<const clang::CXXRecordDecl *> &classes() const { return Ordered; }

private:
  std::optional<Unsendable> check(clang::QualType T);
  std::optional<Unsendable> checkRecord(const clang::CXXRecordDecl *RD);
  std::optional<Unsendable> checkStdRecord(const clang::CXXRecordDecl *RD);

  clang::ASTContext &Ctx;
  std::function<bool(const clang::CXXRecordDecl *)> IsRemotable;
  /// Memo: nullopt = sendable. Classes being checked count as sendable so
  /// that recursive types terminate.
  llvm::DenseMap<const clang::CXXRecordDecl *, std::optional<Unsendable>> Memo;
  llvm::SetVector<const clang::CXXRecordDecl *> Ordered;
};

/// True if \p RD is serialised by code the user wrote: its own
/// poc_write/poc_read members, or a poc::Serializer specialisation of the
/// program. Such a class gets no generated Serializer.
bool serializesItself(const clang::CXXRecordDecl *RD);

} // namespace pocc

#endif
