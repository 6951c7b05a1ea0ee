//===- DependentCalls.h - remote calls in templates -------------*- C++ -*-===//
//
// In a template, `p->f(args)` with a type-dependent `p` (a `T*`) names no
// method until the template is instantiated, so poc++ cannot choose a
// client wrapper. It rewrites the call to a helper named after the method,
// `::poc_gen::call_f(p, args)` (`start_f`, `future_f` for started calls),
// which chooses when the system compiler instantiates it:
//
//  * if `p` points to a class that has a specialisation of the trait
//    `poc_gen::remote<T>`, the call goes to `remote<T>::poc_call::f`, an
//    overload set of forwarders to the class's client wrappers (one per
//    method `f` that a call through `T*` reaches), so C++ overload
//    resolution picks the method, and the wrapper makes it remote;
//  * otherwise it is the plain call `p->f(args)` (a started one runs as a
//    local task, a future one is a ready future).
//
// `remote<T>` is specialised for every remotable class of the file that has
// a public method of a name used this way.
//
// `new (m) T(args)` with a template parameter `T` becomes
// `::poc_gen::create<T>(m, args)` (`start_create` when started), which goes
// to `remote<T>::poc_create`, an overload set of forwarders to the class's
// creation wrappers (one per public constructor), so C++ overload
// resolution picks the constructor. The classes are the arguments for `T`
// that the file names (RemoteModel's dependentCreationClasses); any other
// `T` fails to compile with a static_assert that says so.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_DEPENDENTCALLS_H
#define POCC_DEPENDENTCALLS_H

#include "pocc/InterfaceGen.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pocc {

/// The dependent calls of one file and the code they need.
class DependentCalls {
public:
  /// \p Remotable: the remotable classes of the file (their bases are
  /// considered too).
  DependentCalls(InterfaceGen &Gen, const std::vector<const clang::CXXRecordDecl *> &Remotable);

  /// True if some remotable class has a public method named \p Name; calls
  /// of other names are always local and are left as written.
  bool isRemoteName(llvm::StringRef Name) const { return RemoteNames.count(Name.str()) != 0; }
  /// Notes a call of method \p Name, \p Variant "" (a call), "_start" or
  /// "_future"; returns the helper to call instead.
  std::string use(llvm::StringRef Name, llvm::StringRef Variant);
  /// Notes a creation `new (m) T(...)` with a dependent `T`, started or
  /// not; returns the helper to call instead.
  std::string useCreation(bool Started);
  bool empty() const { return Uses.empty() && Creations.empty(); }

  /// The classes that get a `remote<T>` specialisation, in a stable order.
  std::vector<const RemoteClass *> specialisedClasses();
  /// The interface units whose wrappers \p C's specialisation calls (the
  /// class's and its bases'); their wrappers are marked used.
  std::vector<const RemoteClass *> unitsCalledBy(const RemoteClass &C);

  /// The trait's primary template and the helpers (top of the translation).
  std::string emitHelpers() const;
  /// The `remote<T>` specialisation (with the class's declarations).
  std::string emitSpecialisation(const RemoteClass &C);
  /// Definitions of its forwarders (with the client definitions).
  std::string emitDefinitions(const RemoteClass &C);

private:
  /// A method reached by `p->Name(...)` through a pointer to the class, and
  /// the interface unit that declares it.
  struct Target {
    const RemoteClass *Unit;
    const RemoteMethod *Method;
  };
  /// C++ name lookup of \p Name in \p RD: its own methods of that name, or
  /// if it declares none, those of its public bases.
  void lookup(const clang::CXXRecordDecl *RD, llvm::StringRef Name, std::vector<Target> &Out);
  /// For each used (name, variant) the targets of a call through \p C.
  std::map<std::pair<std::string, std::string>, std::vector<Target>> targets(const RemoteClass &C);

  /// The constructors a dependent creation of \p C may choose.
  std::vector<const RemoteMethod *> creators(const RemoteClass &C) const;

  InterfaceGen &Gen;
  /// The creation helpers used: "create", "start_create".
  std::set<std::string> Creations;
  std::vector<const clang::CXXRecordDecl *> Classes;
  std::set<std::string> RemoteNames;
  /// Method name -> variants used.
  std::map<std::string, std::set<std::string>> Uses;
};

} // namespace pocc

#endif
