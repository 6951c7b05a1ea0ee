//===- Diagnostics.h - poc++'s own diagnostics ------------------*- C++ -*-===//
//
// Every error poc++ reports beyond Clang's own goes through the
// DiagnosticsEngine of the translation unit, so it is printed in Clang's
// format (file:line:col, source line, caret) at the user's original location.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_DIAGNOSTICS_H
#define POCC_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace pocc {

/// The diagnostics poc++ emits. Message texts live in Diagnostics.cpp.
enum class Diag {
  /// %0 = method, %1 = parameter, %2 = type, %3 = reason and remedy.
  UnsendableParam,
  /// %0 = method, %1 = type, %2 = reason and remedy.
  UnsendableResult,
  /// Note at a parameter/field: %0 = its name.
  DeclaredHere,
  /// %0 = field, %1 = class.
  RemoteFieldAccess,
  /// `start` before something that is not a call or a creation.
  StartNotACall,
  /// %0 = element type.
  RemoteArrayElement,
  /// A remote array element bound to a non-const reference.
  RemoteElementReference,
  /// %0 = parameter, %1 = method.
  LocalPointerToRemote,
  /// %0 = method name, %1 = class.
  RemoteCallToPrivate,
  /// A construct poc++ cannot translate: %0 = what, and what to do.
  Unsupported,
  /// `new(m) T` of a type that is not a class: %0 = the type, %1 = its
  /// spelling, for the remedy.
  ProcessOfNonClass,
  /// A class used as a persistent process whose state cannot be saved:
  /// %0 = class, %1 = reason and remedy.
  NotPersistable,
  /// A type the program encodes with poc::Writer (or decodes with
  /// poc::Reader) that cannot be sent: %0 = type, %1 = reason and remedy.
  UnencodableType,
  /// A process operation in a file compiled with a standard older than
  /// C++20: %0 = the -std= value.
  NeedsCxx20,
  /// An operation that waits, in a method marked POC_NONBLOCKING: %0 = the
  /// operation, %1 = the method.
  WaitsInNonblocking,
};

/// Reports poc++ diagnostics through one DiagnosticsEngine.
class Diagnostics {
public:
  explicit Diagnostics(clang::DiagnosticsEngine &Engine) : Engine(Engine) {}

  /// Starts a diagnostic of kind \p D at \p Loc; stream arguments into it.
  clang::DiagnosticBuilder report(clang::SourceLocation Loc, Diag D);

  /// True once any error (Clang's or poc++'s) has been reported.
  bool hasErrors() const { return Engine.hasErrorOccurred(); }

private:
  clang::DiagnosticsEngine &Engine;
};

} // namespace pocc

#endif
