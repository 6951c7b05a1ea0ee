//===- InterfaceGen.h - T_interface, T_client and T_server ------*- C++ -*-===//
//
// Builds the remote interface of a class (the paper's section 5.1) and emits
// its three parts on the runtime's API (docs/runtime.md section 3):
//  * T_interface: the class name and one method id per remotely callable
//    method and constructor;
//  * T_client: one static wrapper per method (synchronous, `_start` and
//    `_future` variants) and per constructor (`create_k`, `start_create_k`)
//    that calls a local object directly and a remote one through poc::Call;
//  * T_server: dispatch and construct, plus the class registration.
// The interface is complete (every public method with sendable parameters,
// in declaration order), so it is the same in every translation unit that
// mentions the class.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_INTERFACEGEN_H
#define POCC_INTERFACEGEN_H

#include "pocc/Serializability.h"
#include "clang/AST/DeclCXX.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pocc {

/// One parameter of a remotely callable method or constructor.
struct RemoteParam {
  const clang::ParmVarDecl *Decl;
  std::string Name;    ///< name in the generated wrapper
  std::string Type;    ///< spelled for generated code
  std::string Default; ///< default argument text, or empty
  std::string Count;   ///< POC_COUNT: wrapper name of the count parameter
  ParamKind Kind;
  bool CopiesBack;  ///< the server writes it back (non-const & or *)
  bool MoveLocally; ///< by-value class: std::move into the local call
};

/// A remotely callable method or constructor.
struct RemoteMethod {
  const clang::CXXMethodDecl *Decl;
  std::string Key;       ///< enum member and wrapper name, e.g. `f_0`
  std::string Signature; ///< canonical signature, e.g. `ns::T::f(const ns::P&)`
  /// What the id hashes: the signature, then `|` and the layouts of the user
  /// classes its arguments and result carry, if any (escaped for a literal).
  std::string Identity;
  std::string Result; ///< result type spelled for generated code
  bool IsCtor = false;
  /// Marked POC_NONBLOCKING: the server lets its requests run where they
  /// arrive.
  bool Nonblocking = false;
  std::vector<RemoteParam> Params;
  /// Why it cannot be called remotely, if it cannot; then it is left out of
  /// the interface and a remote call to it is an error.
  std::optional<Unsendable> Problem;
  const clang::ParmVarDecl *ProblemParam = nullptr;
  bool hasCopyBack() const;
};

/// The remote interface of a class, or of one specialisation of a member
/// function template (an interface *unit* of its own, so that the class's
/// interface does not depend on which specialisations a file uses).
struct RemoteClass {
  const clang::CXXRecordDecl *Decl;
  std::string Name; ///< className, e.g. `ns::T`
  std::string Id;   ///< identifier for generated names, e.g. `ns_T`
  std::string Type; ///< `::ns::T`
  std::vector<RemoteMethod> Methods;
  std::vector<RemoteMethod> Ctors;
  bool Concrete = false;
  /// Member template specialisations this class's server also serves, as
  /// (signature, member pointer expression): SetProcessGroup<X>.
  std::vector<std::pair<std::string, std::string>> ExtraServed;
};

/// Builds interfaces on demand and emits code for them.
class InterfaceGen {
public:
  InterfaceGen(clang::ASTContext &Ctx, Serializability &Sendable);

  /// The interface unit a method belongs to (its class's, or a member
  /// template specialisation's own unit).
  const RemoteClass &unitFor(const clang::CXXMethodDecl *MD);
  /// The interface of a class.
  const RemoteClass &classFor(const clang::CXXRecordDecl *RD);
  /// The model of one method (or constructor) within its unit; null if it
  /// is not part of any remote interface (private, copy constructor, ...).
  const RemoteMethod *methodFor(const clang::CXXMethodDecl *MD);

  /// Marks a client wrapper as used in this file, so that it is defined.
  void use(const RemoteClass &C, const RemoteMethod &M, llvm::StringRef Variant);

  /// T_interface and the T_client declaration.
  std::string emitDeclarations(const RemoteClass &C);
  /// Definitions of the wrappers marked used.
  std::string emitClientDefinitions(const RemoteClass &C);
  /// For a unit that is a specialisation of a member function template: the
  /// registration that lets every server of its class run it (servers list
  /// only the methods their class declares). Empty for anything else.
  std::string emitMethodRegistration(const RemoteClass &Unit);
  /// T_server and the registration.
  std::string emitServer(const RemoteClass &C);
  /// Where the emitted code came from, for its comments.
  std::string origin(const clang::Decl *D) const;

  /// Pieces of a method wrapper's declaration: the `self` parameter, the
  /// method's parameters (`, T a, U b`), and the result of \p Variant
  /// ("", "_start" or "_future").
  std::string selfParam(const RemoteClass &C, const RemoteMethod &M) const;
  std::string wrapperParams(const RemoteMethod &M, bool WithDefaults) const;
  std::string wrapperResult(const RemoteMethod &M, llvm::StringRef Variant) const;
  /// The wrapper's parameters passed on to another call (by-value classes
  /// moved), each preceded by `, ` if \p Leading, else comma-separated.
  std::string forwardedArgs(const RemoteMethod &M, bool Leading) const;

private:
  RemoteMethod buildMethod(const clang::CXXMethodDecl *MD, std::string Key);
  std::string localCall(const RemoteMethod &M) const;
  /// `::poc::<Start>(self, [captures](auto *) mutable { return <localCall>; });`:
  /// a started call on a local object, queued on it (start_on, start_on_future).
  std::string startedLocally(const RemoteMethod &M, llvm::StringRef Start) const;
  /// The arguments of `call.args(...)`; \p Move: by-value parameters of
  /// class type are moved (a started call keeps what it was given to move
  /// until sent, instead of copying it).
  std::string sendArgs(const RemoteMethod &M, bool Move) const;
  std::string copyBacks(const RemoteMethod &M) const;
  std::string memberPointer(const RemoteMethod &M) const;
  void addGroupSpecialisations(RemoteClass &C);
  /// The methods of \p RD's public bases (and theirs) that a server of
  /// \p RD also serves, each base once.
  void servedByBases(const clang::CXXRecordDecl *RD, std::vector<const RemoteMethod *> &Out,
                     std::set<const clang::CXXRecordDecl *> &Seen);

  clang::ASTContext &Ctx;
  Serializability &Sendable;
  std::map<const clang::CXXRecordDecl *, std::unique_ptr<RemoteClass>> Classes;
  std::map<const clang::CXXMethodDecl *, std::unique_ptr<RemoteClass>> Specs;
  std::set<std::string> Used; ///< "<unit id>::<wrapper>"
};

} // namespace pocc

#endif
