//===- ProgramLink.h - the link: which files need the runtime -*- C++ -*-===//
//
// The link decides what a program is, from the records poc++ left in its
// objects and archive members (pocc/ObjectRecord.h):
//  * no translated object: the program is plain C++, linked exactly as
//    clang++ links it (no runtime, no MPI, no start-up code);
//  * otherwise it is linked with the runtime and MPI; a file that calls
//    methods of a class the program creates as a process, but was compiled
//    without knowing that (the calls were not rewritten), is compiled again
//    with the program's process classes, and the new object replaces the
//    old one (in an archive, in a copy of the archive);
//  * if no translation defines `main` (it is in a plain file), the
//    runtime's start-up wraps it (`-Wl,--wrap=main`);
//  * a shared library keeps its objects' records (LibraryRecordSection),
//    so that a program linked against it is checked too.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_PROGRAMLINK_H
#define POCC_PROGRAMLINK_H

#include "pocc/ObjectRecord.h"

#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace pocc {

/// A file to compile again for the link.
struct Recompilation {
  std::string Input;  ///< the object or archive holding it
  std::string Member; ///< the archive member; empty for an object file
  ObjectRecord Record;
  /// The calls that were not rewritten, of classes the program creates.
  std::vector<ClassCall> Unrewritten;
};

/// What the link must do.
struct LinkPlan {
  bool NeedsRuntime = false; ///< some object is a translation
  bool WrapMain = false;     ///< ... and no translation defines `main`
  /// Every class some file creates as a process (with bases).
  std::set<std::string> ProcessClasses;
  std::vector<Recompilation> Recompilations;
  /// The records of the objects and archive members (not of shared
  /// libraries), for a shared library's own records.
  std::vector<ObjectRecord> Records;
};

/// Reads the records of \p Inputs (objects, archives and shared libraries;
/// other files are skipped) and plans the link. A shared library's code
/// that calls a process class without reaching the process cannot be
/// compiled again: that is an error saying what to do.
llvm::Expected<LinkPlan> planLink(const std::vector<std::string> &Inputs);

/// Why \p R's file must be compiled again, for messages: its first call
/// that was not rewritten.
std::string describeUnrewrittenCall(const Recompilation &R);

/// The option that tells the compile of \p R's file that the program
/// creates its class as a process, for messages.
std::string processClassOption(const Recompilation &R);

/// Checks that \p R's source is there and unchanged since its object was
/// compiled, so that compiling it again gives the same code with calls
/// rewritten; an error says what to do.
llvm::Error checkRecompilable(const Recompilation &R);

/// Writes to \p Out a copy of the archive \p Archive whose members named
/// in \p Replacements are replaced by the given object files.
llvm::Error copyArchiveReplacing(const std::string &Archive,
                                 const std::map<std::string, std::string> &Replacements,
                                 const std::string &Out);

/// The libraries that the `-lNAME` options among \p LinkFlags name,
/// searched in the `-L` folders as the linker searches them (`libNAME.so`
/// before `libNAME.a` in each folder); pairs of (flag index, path).
std::vector<std::pair<size_t, std::string>>
librariesOfLibraryFlags(const std::vector<std::string> &LinkFlags);

} // namespace pocc

#endif
