//===- Driver.cpp - the poc++ driver: translate, compile, link ------------===//
#include "pocc/Driver.h"
#include "pocc/Build.h"
#include "pocc/Config.h"
#include "pocc/DriverFiles.h"
#include "pocc/PlainCompile.h"
#include "pocc/RunCommand.h"
#include "pocc/SourceTranslation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace pocc {

namespace {
/// Answers --version, -dumpversion, -print-file-name=, ... as the system
/// compiler does (poc++'s own version line first, for --version).
int answerCompilerQuery(const DriverOptions &O, const Toolchain &TC) {
  if (O.Version)
    outs() << "poc++ version " << config::Version << " (process-oriented C++ on "
           << sys::path::filename(TC.Compiler) << ")\n";
  outs().flush();
  std::vector<std::string> Cmd{TC.Compiler};
  Cmd.insert(Cmd.end(), O.CompilerQuery.begin(), O.CompilerQuery.end());
  return runCommand(Cmd, O, TC);
}

/// --translate-only and --emit-generated -: translates every source and
/// writes the translations, compiling nothing.
int translateOnly(const DriverOptions &O, Translation &T, const std::string &GenDir,
                  const std::set<std::string> &Names) {
  bool Stream = O.EmitGeneratedDir == "-";
  for (const std::string &Src : O.Sources) {
    TranslatedSource Gen = generatedFiles(GenDir, Src);
    if (Stream) {
      Gen.GenName = sys::path::filename(Gen.GenName).str();
      Gen.HeaderDir = Gen.GenName + ".headers";
    } else if (O.EmitGeneratedDir.empty()) {
      Gen.GenName = O.Output;
      Gen.HeaderDir = absolute(O.Output) + ".headers";
    }
    if (!T.translate(Src, Names, Gen))
      return 1;
    if (!O.DepFile.empty()) {
      std::string Text = (O.Output.empty() ? Gen.GenName : O.Output) + ":";
      for (const std::string &D : Gen.Deps)
        Text += " \\\n  " + D;
      if (!writeFile(O.DepFile, Text + "\n"))
        return 1;
    }
    if (Stream) {
      writeGeneratedStream(Gen.GenName, Gen.Text, Gen.Headers);
      continue;
    }
    if (!writeHeaders(Gen.HeaderDir, Gen.Headers) || !writeFile(Gen.GenName, Gen.Text))
      return 1;
    if (!O.EmitGeneratedDir.empty() && !O.Output.empty() && !writeFile(O.Output, Gen.Text))
      return 1;
  }
  return 0;
}

} // namespace

int runDriver(const DriverOptions &Given, const Toolchain &TC) {
  if (Given.Sources.empty() && Given.LinkInputs.empty())
    return answerCompilerQuery(Given, TC);
  // -### of plain C++: the jobs clang++ would run.
  if (Given.DryRun && !llvm::is_contained(Given.Sources, "-") && allPlain(Given, TC))
    return runClangDriver(TC.Compiler, Given.ClangArguments);
  DriverOptions O = Given;
  Translation T(O, TC);
  // `-x c++ -`: the source is standard input, kept in a temporary file
  // that lives as long as T.
  for (std::string &Src : O.Sources) {
    if (Src == "-") {
      if (T.stdinCopy().empty()) {
        std::string Copy = copyStandardInput();
        if (Copy.empty())
          return 1;
        T.takeStdinCopy(std::move(Copy));
      }
      Src = T.stdinCopy();
    } else if (!sys::fs::exists(Src)) {
      errs() << "poc++: error: no such file or directory: '" << Src << "'\n";
      return 1;
    } else {
      T.showAsNamed(Src);
    }
  }
  if (!T.init())
    return 1;

  std::set<std::string> Names = O.ProcessClasses;
  if (O.Sources.size() + O.ProgramSources.size() > 1)
    T.collect(Names);

  // Generated sources go to --emit-generated DIR or a temporary folder,
  // objects to the temporary folder.
  bool Stream = O.EmitGeneratedDir == "-";
  SmallString<128> TempDir;
  if (!Stream && !O.TranslateOnly) {
    if (auto EC = sys::fs::createUniqueDirectory("poc++", TempDir)) {
      errs() << "poc++: error: cannot create a temporary directory: " << EC.message() << "\n";
      return 1;
    }
  }
  struct Cleanup {
    SmallString<128> &Dir;
    ~Cleanup() {
      if (!Dir.empty())
        sys::fs::remove_directories(Dir);
    }
  } C{TempDir};
  std::string GenDir = Stream ? "" : O.EmitGeneratedDir;
  if (!GenDir.empty()) {
    if (auto EC = sys::fs::create_directories(GenDir)) {
      errs() << "poc++: error: cannot create '" << GenDir << "': " << EC.message() << "\n";
      return 1;
    }
  } else {
    GenDir = TempDir.str().str();
  }

  if (O.TranslateOnly)
    return translateOnly(O, T, GenDir, Names);

  Build B(O, TC, T, TempDir.str().str(), GenDir, Names);
  std::vector<std::string> Objects;
  for (size_t I = 0; I < O.Sources.size(); ++I) {
    const char *Ext = O.Assemble ? ".s" : ".o";
    std::string Obj;
    // A file only clang++ compiles gets its default output name from it
    // (`x.hpp.gch` for a header).
    if ((O.CompileOnly || O.Deps.Only) && O.Output.empty() && O.PlainOnly[I])
      Obj = "";
    else if (O.CompileOnly || O.Deps.Only)
      Obj = !O.Output.empty() ? O.Output : stem(O.Sources[I]) + Ext;
    else
      Obj = TempDir.str().str() + "/" + stem(O.Sources[I]) + "." + std::to_string(I) + ".o";
    if (int RC = B.compileSource(I, Obj))
      return RC;
    Objects.push_back(Obj);
  }
  if (O.CompileOnly || O.Deps.Only)
    return 0;
  return B.link(Objects);
}

} // namespace pocc
