//===- ObjectRecord.cpp - what an object file tells poc++'s link ----------===//
#include "pocc/ObjectRecord.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace pocc {

namespace {
Error recordError(const Twine &Msg) { return createStringError(inconvertibleErrorCode(), Msg); }

json::Array strings(const std::vector<std::string> &V) { return json::Array(V); }
json::Array strings(const std::set<std::string> &S) {
  return json::Array(std::vector<std::string>(S.begin(), S.end()));
}

/// Reads the strings of \p Key in \p O into \p Out; false if malformed.
template <class Container> bool readStrings(const json::Object &O, StringRef Key, Container &Out) {
  const json::Array *A = O.getArray(Key);
  if (!A)
    return false;
  for (const json::Value &V : *A) {
    std::optional<StringRef> S = V.getAsString();
    if (!S)
      return false;
    Out.insert(Out.end(), S->str());
  }
  return true;
}

/// The contents of \p Obj's section \p Section, if it has one.
Expected<std::optional<StringRef>> sectionText(const object::ObjectFile &Obj, StringRef Section) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name || *Name != Section) {
      consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    return std::optional<StringRef>(*Contents);
  }
  return std::optional<StringRef>();
}

/// The record in \p Obj's `.poc.object` section, if it has one.
Expected<std::optional<ObjectRecord>> recordIn(const object::ObjectFile &Obj, StringRef Origin) {
  Expected<std::optional<StringRef>> Text = sectionText(Obj, ObjectRecordSection);
  if (!Text)
    return Text.takeError();
  if (!*Text)
    return std::optional<ObjectRecord>();
  Expected<json::Value> V = json::parse(**Text);
  if (!V)
    return recordError(Origin + ": poc++'s record of the object (section " + ObjectRecordSection +
                       ") is unreadable: " + toString(V.takeError()) +
                       "; compile the file again with this poc++");
  Expected<ObjectRecord> R = recordFromJson(*V, Origin);
  if (!R)
    return R.takeError();
  return std::optional<ObjectRecord>(std::move(*R));
}

/// Writes \p Text into the section \p Section of \p File (\p Flags: its
/// flags for llvm-objcopy, if any).
Error addSection(const std::string &ObjCopy, const std::string &File, StringRef Section,
                 StringRef Text, StringRef Flags) {
  // llvm-objcopy writes a new file and renames it onto the old one: never
  // onto a device (as root, /dev/null would be replaced).
  if (!sys::fs::is_regular_file(File))
    return recordError("cannot record poc++'s section in '" + File + "': not a regular file");
  SmallString<128> TextFile;
  int FD = -1;
  if (std::error_code EC = sys::fs::createTemporaryFile("poc-record", "json", FD, TextFile))
    return recordError("cannot create a temporary file: " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  std::string Add = (Section + "=" + TextFile).str();
  std::vector<StringRef> Args{ObjCopy, "--add-section", Add};
  std::string SetFlags = (Section + "=" + Flags).str();
  if (!Flags.empty())
    Args.insert(Args.end(), {"--set-section-flags", SetFlags});
  Args.push_back(File);
  std::string Err;
  int RC = sys::ExecuteAndWait(ObjCopy, Args, std::nullopt, {}, 0, 0, &Err);
  sys::fs::remove(TextFile);
  if (RC != 0)
    return recordError("cannot record poc++'s section in '" + File + "' with '" + ObjCopy + "'" +
                       (Err.empty() ? "" : ": " + Err));
  return Error::success();
}
} // namespace

json::Value toJson(const ObjectRecord &R) {
  json::Array Calls;
  for (const ClassCall &C : R.Calls)
    Calls.push_back(json::Object{{"class", C.Class},
                                 {"function", C.Function},
                                 {"location", C.Location},
                                 {"rewritten", C.Rewritten}});
  json::Object O{{"version", 1},
                 {"source", R.Source},
                 {"directory", R.Directory},
                 {"source_hash", R.SourceHash},
                 {"compile_flags", strings(R.CompileFlags)},
                 {"compilation_db", R.CompilationDbDir},
                 {"translated", R.Translated},
                 {"defines_main", R.DefinesMain},
                 {"creates", strings(R.Creates)},
                 {"calls", std::move(Calls)}};
  return json::Value(std::move(O));
}

Expected<ObjectRecord> recordFromJson(const json::Value &V, StringRef Origin) {
  auto bad = [&](const Twine &What) {
    return recordError(Origin + ": poc++'s record of the object (section " + ObjectRecordSection +
                       ") is unreadable: " + What + "; compile the file again with this poc++");
  };
  const json::Object *O = V.getAsObject();
  if (!O || O->getInteger("version") != 1)
    return bad("unknown version");
  ObjectRecord R;
  auto str = [&](StringRef Key, std::string &Out) {
    std::optional<StringRef> S = O->getString(Key);
    if (S)
      Out = S->str();
    return S.has_value();
  };
  auto flag = [&](StringRef Key, bool &Out) {
    std::optional<bool> B = O->getBoolean(Key);
    if (B)
      Out = *B;
    return B.has_value();
  };
  if (!str("source", R.Source) || !str("directory", R.Directory) ||
      !str("source_hash", R.SourceHash) || !str("compilation_db", R.CompilationDbDir) ||
      !flag("translated", R.Translated) || !flag("defines_main", R.DefinesMain) ||
      !readStrings(*O, "compile_flags", R.CompileFlags) || !readStrings(*O, "creates", R.Creates))
    return bad("a field is missing");
  const json::Array *Calls = O->getArray("calls");
  if (!Calls)
    return bad("no calls");
  for (const json::Value &C : *Calls) {
    const json::Object *CO = C.getAsObject();
    std::optional<StringRef> Class = CO ? CO->getString("class") : std::nullopt,
                             Function = CO ? CO->getString("function") : std::nullopt,
                             Location = CO ? CO->getString("location") : std::nullopt;
    std::optional<bool> Rewritten = CO ? CO->getBoolean("rewritten") : std::nullopt;
    if (!Class || !Function || !Location || !Rewritten)
      return bad("a call is incomplete");
    R.Calls.push_back({Class->str(), Function->str(), Location->str(), *Rewritten});
  }
  return R;
}

std::string hashFile(const std::string &Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "";
  return utohexstr(xxh3_64bits((*Buffer)->getBuffer()));
}

bool canHoldRecord(const std::string &Path) {
  file_magic Magic;
  return sys::fs::is_regular_file(Path) && !identify_magic(Path, Magic) &&
         Magic == file_magic::elf_relocatable;
}

Error attachRecord(const std::string &ObjCopy, const std::string &Object, const ObjectRecord &R) {
  return addSection(ObjCopy, Object, ObjectRecordSection, formatv("{0}", toJson(R)).str(),
                    "exclude,readonly");
}

Error attachLibraryRecords(const std::string &ObjCopy, const std::string &Library,
                           const std::vector<ObjectRecord> &Records) {
  json::Array All;
  for (const ObjectRecord &R : Records)
    All.push_back(toJson(R));
  return addSection(ObjCopy, Library, LibraryRecordSection,
                    formatv("{0}", json::Value(std::move(All))).str(), "");
}

Expected<std::vector<InputRecord>> readRecords(const std::string &Path) {
  std::vector<InputRecord> Out;
  Expected<object::OwningBinary<object::Binary>> Bin = object::createBinary(Path);
  if (!Bin) {
    // Linker scripts, text stubs and the like carry no records.
    consumeError(Bin.takeError());
    return Out;
  }
  object::Binary *B = Bin->getBinary();
  if (auto *Obj = dyn_cast<object::ObjectFile>(B)) {
    Expected<std::optional<ObjectRecord>> R = recordIn(*Obj, Path);
    if (!R)
      return R.takeError();
    if (*R)
      Out.push_back({"", std::move(**R)});
    Expected<std::optional<StringRef>> Library = sectionText(*Obj, LibraryRecordSection);
    if (!Library)
      return Library.takeError();
    if (*Library) {
      Expected<json::Value> V = json::parse(**Library);
      if (!V)
        consumeError(V.takeError());
      const json::Array *A = V ? V->getAsArray() : nullptr;
      if (!A)
        return recordError(Path + ": poc++'s records of the library (section " +
                           LibraryRecordSection + ") are unreadable; link it again with poc++");
      for (const json::Value &Each : *A) {
        Expected<ObjectRecord> Rec = recordFromJson(Each, Path);
        if (!Rec)
          return Rec.takeError();
        Out.push_back({"", std::move(*Rec), /*InSharedLibrary=*/true});
      }
    }
    return Out;
  }
  auto *A = dyn_cast<object::Archive>(B);
  if (!A)
    return Out;
  Error Err = Error::success();
  for (const object::Archive::Child &C : A->children(Err)) {
    Expected<StringRef> Name = C.getName();
    if (!Name)
      return Name.takeError();
    Expected<std::unique_ptr<object::Binary>> Member = C.getAsBinary();
    if (!Member) {
      consumeError(Member.takeError());
      continue;
    }
    auto *Obj = dyn_cast<object::ObjectFile>(Member->get());
    if (!Obj)
      continue;
    Expected<std::optional<ObjectRecord>> R = recordIn(*Obj, (Path + "(" + *Name + ")").str());
    if (!R)
      return R.takeError();
    if (*R)
      Out.push_back({Name->str(), std::move(**R)});
  }
  if (Err)
    return Err;
  return Out;
}

} // namespace pocc
