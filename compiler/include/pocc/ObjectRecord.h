//===- ObjectRecord.h - what an object file tells poc++'s link -*- C++ -*-===//
//
// Programs are compiled one file at a time, and a file that only calls a
// class (`void pay(Bank *b) { b->deposit(1); }`) cannot know that another
// file creates that class as a process. So poc++ records in every object
// it compiles what the link needs to know: the classes the file creates
// remotely, the classes whose methods it calls (with the first call's
// function and place, and whether the calls were rewritten), and
// how to compile the file again. The link (pocc/ProgramLink.h) reads the
// records of every object and archive member, and compiles again, with
// the program's process classes, each file whose calls were not rewritten.
//
// The record is a JSON text in the section `.poc.object`, marked
// SHF_EXCLUDE: the linker drops it, so an executable is the same with or
// without it (docs/compiler.md section 8, "Separate compilation").
//
//===----------------------------------------------------------------------===//
#ifndef POCC_OBJECTRECORD_H
#define POCC_OBJECTRECORD_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <set>
#include <string>
#include <vector>

namespace pocc {

/// The first call a file makes to methods of one class.
struct ClassCall {
  std::string Class;    ///< the class, as pocc::className spells it
  std::string Function; ///< the calling function's qualified name
  std::string Location; ///< file:line of the call, as the user named the file
  /// True if the translation rewrote the file's calls of this class into
  /// calls that reach a process; false in a file compiled as plain C++.
  bool Rewritten = false;
};

/// What poc++ records in an object file for the link.
struct ObjectRecord {
  std::string Source;     ///< the source file, absolute ("<stdin>" for standard input)
  std::string Directory;  ///< the working directory of the compile
  std::string SourceHash; ///< hash of the source's bytes when it was compiled
  /// The flags the file was compiled with (DriverOptions::CompileFlags,
  /// which hold the parse's too, and -p's folder), to compile it again:
  /// the command line read again gives everything else.
  std::vector<std::string> CompileFlags;
  std::string CompilationDbDir;
  /// True if the object is a translation (it needs the runtime); false
  /// if the file was compiled as plain C++.
  bool Translated = false;
  /// True if the translation defines the program's `main`.
  bool DefinesMain = false;
  /// The classes the file creates as processes, with their bases.
  std::set<std::string> Creates;
  /// The first call of each class's methods through a pointer or reference.
  std::vector<ClassCall> Calls;
};

/// The name of the section that holds the record.
inline constexpr const char *ObjectRecordSection = ".poc.object";
/// The section of a shared library poc++ linked that holds the records of
/// its objects (kept, not loaded): a program linked against the library
/// learns which classes its code calls, and which calls were rewritten.
inline constexpr const char *LibraryRecordSection = ".poc.library";

/// The record as JSON.
llvm::json::Value toJson(const ObjectRecord &R);

/// Reads a record from its JSON; \p Origin names it in errors.
llvm::Expected<ObjectRecord> recordFromJson(const llvm::json::Value &V, llvm::StringRef Origin);

/// A hash of \p Path's bytes (empty if it cannot be read).
std::string hashFile(const std::string &Path);

/// True if \p Path is a regular ELF object file, the only output that can
/// hold a record: not LTO's bitcode, a precompiled header, or a device such
/// as /dev/null (which editing would replace).
bool canHoldRecord(const std::string &Path);

/// Adds \p R to the object file \p Object with \p ObjCopy (llvm-objcopy).
llvm::Error attachRecord(const std::string &ObjCopy, const std::string &Object,
                         const ObjectRecord &R);

/// Adds \p Records to the shared library \p Library (LibraryRecordSection).
llvm::Error attachLibraryRecords(const std::string &ObjCopy, const std::string &Library,
                                 const std::vector<ObjectRecord> &Records);

/// A record found in a link input.
struct InputRecord {
  std::string Member; ///< the archive member's name; empty for an object file
  ObjectRecord Record;
  /// True if the record is one of a shared library's: its code cannot be
  /// compiled again for the link.
  bool InSharedLibrary = false;
};

/// The records of an object file, of each member of an archive, or of a
/// shared library poc++ linked; none for other files (linker scripts,
/// objects from other compilers). An unreadable record is an error naming
/// the file.
llvm::Expected<std::vector<InputRecord>> readRecords(const std::string &Path);

} // namespace pocc

#endif
