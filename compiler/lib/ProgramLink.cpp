//===- ProgramLink.cpp - the link: which files need the runtime -----------===//
#include "pocc/ProgramLink.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace pocc {

namespace {
Error linkError(const Twine &Msg) { return createStringError(inconvertibleErrorCode(), Msg); }

std::string inputName(const std::string &Input, const std::string &Member) {
  return Member.empty() ? Input : Input + "(" + Member + ")";
}
} // namespace

Expected<LinkPlan> planLink(const std::vector<std::string> &Inputs) {
  std::vector<std::pair<std::string, InputRecord>> All;
  for (const std::string &In : Inputs) {
    Expected<std::vector<InputRecord>> Records = readRecords(In);
    if (!Records)
      return Records.takeError();
    for (InputRecord &R : *Records)
      All.emplace_back(In, std::move(R));
  }
  LinkPlan Plan;
  bool MainDefined = false;
  for (const auto &[In, R] : All) {
    if (!R.InSharedLibrary)
      Plan.Records.push_back(R.Record);
    Plan.NeedsRuntime |= R.Record.Translated;
    MainDefined |= R.Record.DefinesMain;
    Plan.ProcessClasses.insert(R.Record.Creates.begin(), R.Record.Creates.end());
  }
  Plan.WrapMain = Plan.NeedsRuntime && !MainDefined;
  if (!Plan.NeedsRuntime)
    return Plan;
  for (auto &[In, R] : All) {
    std::vector<ClassCall> Unrewritten;
    for (const ClassCall &C : R.Record.Calls)
      if (!C.Rewritten && Plan.ProcessClasses.count(C.Class))
        Unrewritten.push_back(C);
    if (Unrewritten.empty())
      continue;
    Recompilation Again{In, R.Member, std::move(R.Record), std::move(Unrewritten)};
    if (R.InSharedLibrary)
      return linkError(describeUnrewrittenCall(Again) + "; a shared library cannot be compiled " +
                       "again for this link: compile " + Again.Record.Source + " with " +
                       processClassOption(Again) + " and link the library again");
    Plan.Recompilations.push_back(std::move(Again));
  }
  return Plan;
}

std::string processClassOption(const Recompilation &R) {
  const std::string &Class = R.Unrewritten.front().Class;
  return "--process-class " + Class + " (in CMake: poc_add_library(... PROCESS_CLASSES " + Class +
         "))";
}

std::string describeUnrewrittenCall(const Recompilation &R) {
  const ClassCall &C = R.Unrewritten.front();
  return inputName(R.Input, R.Member) + " calls methods of class '" + C.Class + "' (" + C.Location +
         ", in " + C.Function +
         "), which the program creates as a process, and was compiled without knowing it";
}

Error checkRecompilable(const Recompilation &R) {
  const ObjectRecord &Rec = R.Record;
  auto cannot = [&](const Twine &Why) {
    return linkError(describeUnrewrittenCall(R) + "; poc++ cannot compile " + Rec.Source +
                     " again for this link: " + Why);
  };
  if (Rec.Source == "<stdin>")
    return cannot("it was read from standard input; compile it from a file");
  std::string Hash = hashFile(Rec.Source);
  if (Hash.empty())
    return cannot("the file is not there; build " + inputName(R.Input, R.Member) +
                  " again from its source with " + processClassOption(R));
  if (Hash != Rec.SourceHash)
    return cannot("the file changed since " + inputName(R.Input, R.Member) +
                  " was compiled; rebuild it");
  return Error::success();
}

Error copyArchiveReplacing(const std::string &Archive,
                           const std::map<std::string, std::string> &Replacements,
                           const std::string &Out) {
  auto Buffer = MemoryBuffer::getFile(Archive);
  if (!Buffer)
    return linkError("cannot read '" + Archive + "': " + Buffer.getError().message());
  Expected<std::unique_ptr<object::Archive>> A =
      object::Archive::create((*Buffer)->getMemBufferRef());
  if (!A)
    return A.takeError();
  std::vector<NewArchiveMember> Members;
  Error Err = Error::success();
  for (const object::Archive::Child &C : (*A)->children(Err)) {
    Expected<StringRef> Name = C.getName();
    if (!Name)
      return Name.takeError();
    auto It = Replacements.find(Name->str());
    Expected<NewArchiveMember> M = It == Replacements.end()
                                       ? NewArchiveMember::getOldMember(C, /*Deterministic=*/true)
                                       : NewArchiveMember::getFile(It->second, true);
    if (!M)
      return M.takeError();
    M->MemberName = *Name;
    Members.push_back(std::move(*M));
  }
  if (Err)
    return Err;
  return writeArchive(Out, Members, SymtabWritingMode::NormalSymtab, (*A)->kind(),
                      /*Deterministic=*/true, /*Thin=*/false);
}

std::vector<std::pair<size_t, std::string>>
librariesOfLibraryFlags(const std::vector<std::string> &LinkFlags) {
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < LinkFlags.size(); ++I) {
    StringRef F = LinkFlags[I];
    if (F == "-L" && I + 1 < LinkFlags.size())
      Dirs.push_back(LinkFlags[I + 1]);
    else if (F.starts_with("-L") && F.size() > 2)
      Dirs.push_back(F.drop_front(2).str());
  }
  std::vector<std::pair<size_t, std::string>> Out;
  for (size_t I = 0; I < LinkFlags.size(); ++I) {
    StringRef F = LinkFlags[I];
    if (!F.starts_with("-l") || F.size() <= 2 || F.starts_with("-l:"))
      continue;
    std::string Name = F.drop_front(2).str();
    for (const std::string &D : Dirs) {
      SmallString<256> Shared(D), Static(D);
      sys::path::append(Shared, "lib" + Name + ".so");
      sys::path::append(Static, "lib" + Name + ".a");
      if (sys::fs::exists(Shared) || sys::fs::exists(Static)) {
        Out.emplace_back(I, sys::fs::exists(Shared) ? Shared.str().str() : Static.str().str());
        break;
      }
    }
  }
  return Out;
}

} // namespace pocc
