//===- Diagnostics.cpp - poc++'s own diagnostics --------------------------===//
#include "pocc/Diagnostics.h"

using namespace clang;

namespace pocc {

namespace {
struct DiagSpec {
  DiagnosticsEngine::Level Level;
  const char *Format;
};

DiagSpec specFor(Diag D) {
  switch (D) {
  case Diag::UnsendableParam:
    return {DiagnosticsEngine::Error,
            "cannot call '%0' on another process: parameter '%1' of type %2 "
            "cannot be sent (%3)"};
  case Diag::UnsendableResult:
    return {DiagnosticsEngine::Error,
            "cannot call '%0' on another process: its result type %1 cannot "
            "be sent back (%2)"};
  case Diag::DeclaredHere:
    return {DiagnosticsEngine::Note, "'%0' declared here"};
  case Diag::RemoteFieldAccess:
    return {DiagnosticsEngine::Error,
            "data member '%0' of '%1' accessed through a pointer that may "
            "refer to another process; access it through a method instead"};
  case Diag::StartNotACall:
    return {DiagnosticsEngine::Error,
            "'start' must be followed by a function call, a method call or a "
            "process creation 'new(machine) T(...)'"};
  case Diag::RemoteArrayElement:
    return {DiagnosticsEngine::Error,
            "remote array element type %0 is not trivially copyable; use a "
            "process of a class holding a std::vector instead"};
  case Diag::RemoteElementReference:
    return {DiagnosticsEngine::Error,
            "an element of an array that may be remote cannot be bound to a "
            "reference variable or a non-const reference, nor changed through "
            "one of its members; copy its value ('auto v = data[i]') or assign "
            "the whole element ('data[i] = v')"};
  case Diag::LocalPointerToRemote:
    return {DiagnosticsEngine::Error,
            "argument for parameter '%0' of '%1' is a raw pointer to "
            "non-class data with no known length; pass a remote array "
            "('new(machine) T[n]'), or change the parameter to std::vector or "
            "std::span, or annotate it with POC_COUNT(n) from "
            "<poc/annotations.hpp>"};
  case Diag::RemoteCallToPrivate:
    return {DiagnosticsEngine::Error, "'%0' is not a public method of '%1' and cannot be called on "
                                      "another process"};
  case Diag::Unsupported:
    return {DiagnosticsEngine::Error, "poc++ does not support %0"};
  case Diag::ProcessOfNonClass:
    return {DiagnosticsEngine::Error,
            "'new (machine) %1' would create a process, but a process is an object of a class "
            "and %0 is not a class; for a remote %1, create an array of one: 'new (machine) "
            "%1[1]'"};
  case Diag::NotPersistable:
    return {DiagnosticsEngine::Error, "class %0 cannot be a persistent process: %1"};
  case Diag::NeedsCxx20:
    return {DiagnosticsEngine::Error,
            "process operations need C++20 or later, but this file is compiled with "
            "'-std=%0'; compile it with -std=c++20 (files without process operations keep "
            "their standard)"};
  case Diag::WaitsInNonblocking:
    return {DiagnosticsEngine::Error,
            "%0 waits, but '%1' is marked POC_NONBLOCKING: its calls may run on the thread that "
            "received them, which must not wait; start the call instead, or remove the mark"};
  case Diag::UnencodableType:
    return {DiagnosticsEngine::Error, "values of type %0 are encoded here but cannot be sent (%1)"};
  }
  return {DiagnosticsEngine::Error, "internal poc++ error"};
}
} // namespace

DiagnosticBuilder Diagnostics::report(SourceLocation Loc, Diag D) {
  DiagSpec S = specFor(D);
  // Custom IDs are interned by (level, format), so this is a lookup after
  // the first use.
  unsigned ID = Engine.getDiagnosticIDs()->getCustomDiagID(
      static_cast<DiagnosticIDs::Level>(S.Level), S.Format);
  return Engine.Report(Loc, ID);
}

} // namespace pocc
