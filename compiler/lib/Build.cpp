//===- Build.cpp - compiling and linking one poc++ command ----------------===//
#include "pocc/Build.h"
#include "pocc/Driver.h"
#include "pocc/DriverFiles.h"
#include "pocc/RunCommand.h"
#include "pocc/RuntimePch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>
#include <map>

using namespace llvm;

namespace pocc {

namespace {
/// \p Flags without -v (a precompiled header is the same with or without).
std::vector<std::string> withoutVerbose(std::vector<std::string> Flags) {
  Flags.erase(std::remove(Flags.begin(), Flags.end(), "-v"), Flags.end());
  return Flags;
}

/// Source \p I checked with -fsyntax-only under the user's flags, in this
/// process: does it compile as plain C++? (For commands that parse nothing
/// themselves: -E, -M, -###.)
PlainCompile checkPlain(const DriverOptions &O, const Toolchain &TC, size_t I) {
  std::vector<std::string> Args = withoutVerbose(O.CompileFlags);
  if (!O.SourceLanguages[I].empty())
    Args.insert(Args.end(), {"-x", O.SourceLanguages[I]});
  Args.insert(Args.end(), {"-fsyntax-only", O.Sources[I]});
  return compilePlain(TC.Compiler, Args, {TC.RuntimeInclude, TC.ParseInclude});
}
} // namespace

bool allPlain(const DriverOptions &O, const Toolchain &TC) {
  if (!TC.CompilerInProcess || O.TranslateOnly || !O.ProcessClasses.empty() ||
      !O.EmitGeneratedDir.empty() || !O.CompilationDbDir.empty())
    return false;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    if (O.PlainOnly[I])
      continue;
    PlainCompile Check = checkPlain(O, TC, I);
    if (!Check.Compiled || Check.UsesPoc)
      return false;
  }
  Expected<LinkPlan> Plan = planLink(O.LinkInputs);
  if (!Plan) {
    consumeError(Plan.takeError());
    return false;
  }
  return !Plan->NeedsRuntime && Plan->Recompilations.empty();
}

std::vector<std::string> Build::plainArguments(size_t I, const std::string &Obj) const {
  std::vector<std::string> A = O.CompileFlags;
  if (O.Deps.Write) {
    A.push_back(O.Deps.Only ? (O.Deps.UserOnly ? "-MM" : "-M")
                            : (O.Deps.UserOnly ? "-MMD" : "-MD"));
    if (!O.Deps.File.empty())
      A.insert(A.end(), {"-MF", O.Deps.File});
    for (const std::string &Target : O.Deps.Targets)
      A.insert(A.end(), {"-MT", Target});
    if (O.Deps.Phony)
      A.push_back("-MP");
  }
  if (!O.Deps.Only)
    A.push_back(O.SyntaxOnly ? "-fsyntax-only" : O.Preprocess ? "-E" : O.Assemble ? "-S" : "-c");
  // The source's language as the user gave it (a `.c` file is C++ to
  // clang++, with its warning).
  if (!O.SourceLanguages[I].empty())
    A.insert(A.end(), {"-x", O.SourceLanguages[I]});
  A.push_back(O.Sources[I]);
  bool ToStdout = (O.Preprocess || O.Deps.Only) && (O.Output.empty() || O.Output == "-");
  if (!O.SyntaxOnly && !ToStdout && !Obj.empty())
    A.insert(A.end(), {"-o", O.Preprocess || O.Deps.Only ? O.Output : Obj});
  return A;
}

ObjectRecord Build::recordOf(size_t I) const {
  ObjectRecord R;
  R.Source = T.shownName(O.Sources[I]) == "<stdin>" ? "<stdin>" : absolute(O.Sources[I]);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  R.Directory = Cwd.str().str();
  R.SourceHash = hashFile(O.Sources[I]);
  R.CompileFlags = O.CompileFlags;
  R.CompilationDbDir = O.CompilationDbDir;
  return R;
}

bool Build::attach(const std::string &Obj, const ObjectRecord &R) const {
  // Only an object file holds the record: not bitcode (-flto), a
  // precompiled header, or /dev/null.
  if (!writesObject() || !canHoldRecord(Obj))
    return true;
  if (Error E = attachRecord(TC.ObjCopy, Obj, R)) {
    errs() << "poc++: error: " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

PlainCompile Build::compilePlainSource(size_t I, const std::string &Obj) const {
  return compilePlain(TC.Compiler, plainArguments(I, Obj), {TC.RuntimeInclude, TC.ParseInclude});
}

void Build::printPlainDiagnostics(const PlainCompile &Plain) const {
  std::string Text = Plain.Diagnostics;
  if (!T.stdinCopy().empty())
    for (size_t At = Text.find(T.stdinCopy()); At != std::string::npos;
         At = Text.find(T.stdinCopy(), At))
      Text.replace(At, T.stdinCopy().size(), "<stdin>");
  errs() << Text;
}

int Build::finishPlain(size_t I, const std::string &Obj, const PlainCompile &Plain) const {
  printPlainDiagnostics(Plain);
  ObjectRecord R = recordOf(I);
  R.Calls = Plain.Calls;
  return attach(Obj, R) ? 0 : 1;
}

int Build::compilePlainOnly(size_t I, const std::string &Obj) {
  if (TC.CompilerInProcess && !O.DryRun) {
    PlainCompile Plain = compilePlainSource(I, Obj);
    if (!Plain.Compiled) {
      printPlainDiagnostics(Plain);
      return 1;
    }
    return finishPlain(I, Obj, Plain);
  }
  std::vector<std::string> Cmd{TC.Compiler};
  std::vector<std::string> Args = plainArguments(I, Obj);
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  return runCommand(Cmd, O, TC);
}

int Build::compileSource(size_t I, const std::string &Obj) {
  if (O.PlainOnly[I])
    return compilePlainOnly(I, Obj);
  const std::string &Src = O.Sources[I];
  // Whether a file has process operations is decided by the file as the
  // user's flags parse it: if it compiles as clang++ compiles it, without
  // poc++'s API, it is plain C++ and that compile was its only parse.
  // -E, -M and -### parse nothing, so a syntax check asks first.
  // A file whose text mentions poc++ is parsed with its API first (that
  // parse decides, and a file without process operations is still
  // compiled as clang++ compiles it).
  bool TriedPlain = plainAllowed();
  bool Parses = !O.Preprocess && !O.Deps.Only && !O.DryRun;
  bool PlainFirst = !Parses || !mentionsProcessOperations(Src);
  PlainCompile Plain;
  if (TriedPlain && PlainFirst) {
    Plain = Parses ? compilePlainSource(I, Obj) : checkPlain(O, TC, I);
    if (Plain.Compiled && !Plain.UsesPoc)
      return Parses ? finishPlain(I, Obj, Plain) : compilePlainOnly(I, Obj);
  }

  // Otherwise the parse with poc++'s API (under C++20 unless the user chose
  // a standard) tells; its diagnostics are held back until it has.
  TranslatedSource Gen = generatedFiles(GenDir, Src);
  bool Translated = T.translate(Src, Names, Gen, /*Hold=*/TriedPlain);
  if (TriedPlain && !Gen.Report.ProcessOperations && !Gen.Report.ReachesPoc) {
    // No process operation, and nothing of poc++'s: the file's own answer
    // under its own flags, as clang++ gives it.
    if (!Parses || !PlainFirst)
      return compilePlainOnly(I, Obj);
    if (Plain.Compiled)
      return finishPlain(I, Obj, Plain);
    printPlainDiagnostics(Plain);
    return 1;
  }
  errs() << Gen.Diagnostics;
  if (!Translated)
    return 1;
  if (!writeHeaders(Gen.HeaderDir, Gen.Headers) || !writeFile(Gen.GenName, Gen.Text))
    return 1;
  AnyTranslated = true;
  if (int RC = compileTranslation(I, Obj, Gen.GenName, Gen.Deps))
    return RC;
  ObjectRecord R = recordOf(I);
  R.Translated = true;
  R.DefinesMain = Gen.Report.DefinesMain;
  R.Creates = Gen.Report.Creates;
  R.Calls = Gen.Report.Calls;
  return attach(Obj, R) ? 0 : 1;
}

int Build::compileTranslation(size_t I, const std::string &Obj, const std::string &Generated,
                              const std::vector<std::string> &SourceDeps) {
  std::vector<std::string> Cmd{TC.Compiler};
  if (!O.HasStd)
    Cmd.push_back("-std=c++20");
  // The object of a translation must hold the record the link reads: an
  // ELF section, which LTO's bitcode cannot hold, so it is compiled without
  // LTO (the plain files of the program keep it).
  std::copy_if(O.CompileFlags.begin(), O.CompileFlags.end(), std::back_inserter(Cmd),
               [](StringRef F) { return F != "-flto" && !F.starts_with("-flto="); });
  SmallString<256> SrcDir(sys::path::parent_path(O.Sources[I]));
  if (SrcDir.empty())
    SrcDir = ".";
  if (!TC.CxxPchDir.empty())
    Cmd.insert(Cmd.end(), {"-isystem", TC.CxxPchDir});
  for (const std::string &M : TC.MpiIncludes)
    Cmd.insert(Cmd.end(), {"-isystem", M});
  Cmd.insert(Cmd.end(), {"-isystem", TC.RuntimeInclude});
  // The runtime's header precompiled for exactly these flags (not for -E,
  // whose output must hold the header's text).
  if (!O.Preprocess && !O.Deps.Only && !O.DryRun)
    if (std::string Pch = runtimePch(TC, withoutVerbose({Cmd.begin() + 1, Cmd.end()}));
        !Pch.empty())
      Cmd.insert(Cmd.end(), {"-include-pch", Pch});
  Cmd.insert(Cmd.end(), {"-iquote", SrcDir.str().str()});
  // The system compiler lists what the translation includes; poc++ turns
  // that into the dependencies of the user's source.
  std::string CompilerDeps = temporary(I, ".compiler.d");
  if (O.Deps.Write)
    Cmd.insert(Cmd.end(),
               {O.Deps.Only ? (O.Deps.UserOnly ? "-MM" : "-M") : (O.Deps.UserOnly ? "-MMD" : "-MD"),
                "-MF", CompilerDeps});
  if (!O.Deps.Only)
    Cmd.push_back(O.SyntaxOnly ? "-fsyntax-only" : O.Preprocess ? "-E" : O.Assemble ? "-S" : "-c");
  Cmd.push_back(Generated);
  // -E: preprocessed into a file of ours, whose line markers then name
  // the user's source instead of the translation.
  std::string Preprocessed = temporary(I, ".ii");
  if (O.Preprocess && !O.Deps.Only)
    Cmd.insert(Cmd.end(), {"-o", Preprocessed});
  else if (!O.Deps.Only && !O.SyntaxOnly)
    Cmd.insert(Cmd.end(), {"-o", Obj});
  if (int RC = runCommand(Cmd, O, TC))
    return RC;
  if (O.Preprocess && !O.Deps.Only && !O.DryRun &&
      !writePreprocessed(Preprocessed, Generated, T.shownName(O.Sources[I]), O.Output))
    return 1;
  if (O.Deps.Write && !O.DryRun &&
      !writeDependencies(O, O.Sources[I], Obj, CompilerDeps, GenDir, SourceDeps))
    return 1;
  return 0;
}

bool Build::recompile(const LinkPlan &Plan, std::vector<std::string> &Objects,
                      std::vector<std::string> &LinkInputs, std::vector<std::string> &LinkFlags) {
  std::map<std::string, std::map<std::string, std::string>> ArchiveMembers;
  std::map<std::string, std::string> NewObjects;
  for (size_t K = 0; K < Plan.Recompilations.size(); ++K) {
    const Recompilation &R = Plan.Recompilations[K];
    if (Error E = checkRecompilable(R)) {
      errs() << "poc++: error: " << toString(std::move(E)) << "\n";
      return false;
    }
    if (O.Verbose)
      errs() << "poc++: compiling " << R.Record.Source << " again: " << describeUnrewrittenCall(R)
             << "\n";
    // The recorded command line, read again, with the program's process
    // classes: its -std, includes and definitions mean what they meant.
    std::vector<std::string> Args = R.Record.CompileFlags;
    if (!R.Record.CompilationDbDir.empty())
      Args.insert(Args.end(), {"-p", R.Record.CompilationDbDir});
    std::string Output = TempDir + "/again." + std::to_string(K) + ".o";
    Args.insert(Args.end(), {"-c", "-x", "c++", R.Record.Source, "-o", Output});
    Expected<DriverOptions> Again = parseCommandLine(Args);
    if (!Again) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R)
             << "; its recorded flags: " << toString(Again.takeError()) << "\n";
      return false;
    }
    Again->ProcessClasses = Plan.ProcessClasses;
    Again->Verbose = O.Verbose;
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    // The recorded flags name files relative to the original compile's folder.
    if (std::error_code EC = sys::fs::set_current_path(R.Record.Directory)) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R) << "; cannot enter "
             << R.Record.Directory << " to compile it again: " << EC.message() << "\n";
      return false;
    }
    int RC = runDriver(*Again, TC);
    (void)sys::fs::set_current_path(Cwd);
    if (RC != 0) {
      errs() << "poc++: error: " << describeUnrewrittenCall(R) << "; compiling " << R.Record.Source
             << " again for this link failed\n";
      return false;
    }
    if (R.Member.empty())
      NewObjects[R.Input] = Output;
    else
      ArchiveMembers[R.Input][R.Member] = Output;
  }
  for (std::string &Obj : Objects)
    if (auto It = NewObjects.find(Obj); It != NewObjects.end())
      Obj = It->second;
  for (std::string &In : LinkInputs)
    if (auto It = NewObjects.find(In); It != NewObjects.end())
      In = It->second;
  // An archive is copied with the members replaced, and the copy linked.
  size_t Copies = 0;
  std::map<std::string, std::string> NewArchives;
  for (const auto &[Archive, Members] : ArchiveMembers) {
    std::string Copy =
        TempDir + "/archive." + std::to_string(Copies++) + "/" + sys::path::filename(Archive).str();
    if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Copy))) {
      errs() << "poc++: error: cannot create a temporary folder: " << EC.message() << "\n";
      return false;
    }
    if (Error E = copyArchiveReplacing(Archive, Members, Copy)) {
      errs() << "poc++: error: " << Archive << ": " << toString(std::move(E)) << "\n";
      return false;
    }
    NewArchives[Archive] = Copy;
  }
  for (std::string &In : LinkInputs)
    if (auto It = NewArchives.find(In); It != NewArchives.end())
      In = It->second;
  for (const auto &[Index, Archive] : librariesOfLibraryFlags(LinkFlags))
    if (auto It = NewArchives.find(Archive); It != NewArchives.end())
      LinkFlags[Index] = It->second;
  return true;
}

int Build::link(const std::vector<std::string> &Given) {
  std::vector<std::string> Objects = Given, LinkInputs = O.LinkInputs, LinkFlags = O.LinkFlags;
  std::vector<std::string> Inputs = Objects;
  Inputs.insert(Inputs.end(), LinkInputs.begin(), LinkInputs.end());
  for (const auto &[Index, Library] : librariesOfLibraryFlags(LinkFlags))
    Inputs.push_back(Library);
  LinkPlan Plan;
  // -### compiled nothing, so there are no records: the link is shown as
  // the sources being translated suggest.
  Plan.NeedsRuntime = AnyTranslated;
  if (!O.DryRun) {
    Expected<LinkPlan> Planned = planLink(Inputs);
    if (!Planned) {
      errs() << "poc++: error: " << toString(Planned.takeError()) << "\n";
      return 1;
    }
    Plan = std::move(*Planned);
  }
  if (!Plan.Recompilations.empty() && !recompile(Plan, Objects, LinkInputs, LinkFlags))
    return 1;
  // The calls of the files compiled again reach their processes now.
  for (const Recompilation &R : Plan.Recompilations)
    for (ObjectRecord &Rec : Plan.Records)
      if (Rec.Source == R.Record.Source)
        for (ClassCall &C : Rec.Calls)
          C.Rewritten |= Plan.ProcessClasses.count(C.Class) > 0;
  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), Objects.begin(), Objects.end());
  Cmd.insert(Cmd.end(), LinkInputs.begin(), LinkInputs.end());
  Cmd.insert(Cmd.end(), {"-o", O.Output.empty() ? "a.out" : O.Output});
  Cmd.insert(Cmd.end(), LinkFlags.begin(), LinkFlags.end());
  // A plain C++ program is linked exactly as clang++ links it; a shared
  // library leaves the runtime to the program that loads it.
  bool Shared = std::find(LinkFlags.begin(), LinkFlags.end(), "-shared") != LinkFlags.end();
  if (Plan.NeedsRuntime && !Shared) {
    Cmd.insert(Cmd.end(), TC.RuntimeLibraries.begin(), TC.RuntimeLibraries.end());
    Cmd.insert(Cmd.end(), TC.RuntimeLinkFlags.begin(), TC.RuntimeLinkFlags.end());
    if (Plan.WrapMain)
      Cmd.push_back("-Wl,--wrap=main");
    Cmd.insert(Cmd.end(), TC.MpiLibraries.begin(), TC.MpiLibraries.end());
  }
  // clang++ -v shows the link itself; poc++ adds no line of its own.
  if (int RC = runCommand(Cmd, O, TC, /*Shown=*/!TC.CompilerInProcess))
    return RC;
  bool Calls = std::any_of(Plan.Records.begin(), Plan.Records.end(),
                           [](const ObjectRecord &R) { return !R.Calls.empty(); });
  if (Shared && Calls && !O.DryRun)
    if (Error E =
            attachLibraryRecords(TC.ObjCopy, O.Output.empty() ? "a.out" : O.Output, Plan.Records)) {
      errs() << "poc++: error: " << toString(std::move(E)) << "\n";
      return 1;
    }
  return 0;
}
} // namespace pocc
