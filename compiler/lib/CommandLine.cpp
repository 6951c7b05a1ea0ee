//===- CommandLine.cpp - poc++'s command line -----------------------------===//
#include "pocc/CommandLine.h"

#include "clang/Basic/LangStandard.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/Types.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace clang;
using namespace llvm;

namespace pocc {

const char *usageText() {
  return R"(usage: poc++ [options] FILE.cpp... [-o OUT]

Compiles process-oriented C++ (new(machine) T, start, remote pointers) into
an executable for mpirun, like a C++ compiler driver.

Every option clang++ accepts keeps its meaning (it is read with Clang's
own option table): -c -S -E -fsyntax-only -o, -I -D -U -isystem -include,
-std= (C++20 or later for process operations), -O -g -W -f -m, -fsanitize=, -M -MM -MD -MMD -MF -MT -MQ -MP (the
dependencies of the user's sources), -x LANGUAGE (and - for standard
input; only C++ can hold process operations), -L -l -Wl, -pie -no-pie
-shared, @response files, -v, -###, and with no input --version
-dumpversion -print-file-name= -print-search-dirs -print-* ...
poc++'s own options:

  --translate-only        only translate: write the generated C++ to -o
                          FILE and rewritten copies of headers with process
                          operations under FILE.headers/ (no -o, or -o -:
                          as --emit-generated -)
  --emit-generated DIR    keep the generated C++ of every input in DIR
  --emit-generated -      only translate, and write everything generated
                          (translation, then header copies, each after a
                          line naming it) to standard output, for golden
                          tests
  -p DIR                  read compile_commands.json from DIR
  --program-source FILE   another source of the same program, read to find
                          the classes it creates remotely (repeatable)
  --depfile FILE          with --translate-only: write the headers the
                          translation read, for the build system
  --process-class NAME    a class another part of the program creates as
                          a process: calls of its methods in these files
                          reach the process (repeatable; for files linked
                          into a shared library, which poc++'s link cannot
                          compile again)
Environment: POC_CXX selects the system C++ compiler (default: the Clang
poc++ is built on, with MPI's flags added).
)";
}

namespace {
/// The language Clang's driver gives input \p F: by `-x` (\p Forced, if
/// not TY_INVALID) or by its extension; TY_INVALID for a link input.
driver::types::ID inputType(StringRef F, driver::types::ID Forced) {
  if (Forced != driver::types::TY_INVALID)
    return Forced;
  StringRef Ext = sys::path::extension(F);
  driver::types::ID Ty = driver::types::lookupTypeForExtension(Ext.drop_front());
  // Objects, archives and the like are the linker's.
  return driver::types::isAcceptedByClang(Ty) && Ty != driver::types::TY_Object
             ? Ty
             : driver::types::TY_INVALID;
}

/// True for a file of type \p Ty that may hold process operations: C++
/// source (clang++ compiles a `.c` file as C++ too, with a warning), not a
/// header to precompile.
bool mayHoldProcessOperations(driver::types::ID Ty, bool Forced) {
  if (Ty == driver::types::TY_C && !Forced)
    return true;
  return driver::types::isCXX(Ty) && !driver::types::onlyPrecompileType(Ty) &&
         Ty != driver::types::TY_ObjCXX && Ty != driver::types::TY_PP_ObjCXX;
}

Error argError(const Twine &Msg) { return createStringError(inconvertibleErrorCode(), Msg); }

/// Options of poc++'s own, taken out before Clang's option table reads the
/// rest: `--name VALUE` or `--name=VALUE` for the valued ones.
enum class PocOption {
  None,
  Help,
  TranslateOnly,
  EmitGenerated,
  ProgramSource,
  DepFile,
  ProcessClass,
  CompileDb
};

PocOption pocOption(StringRef A, StringRef &Inline) {
  static const std::pair<StringRef, PocOption> Valued[] = {
      {"--emit-generated", PocOption::EmitGenerated},
      {"--program-source", PocOption::ProgramSource},
      {"--depfile", PocOption::DepFile},
      {"--process-class", PocOption::ProcessClass}};
  if (A == "-h" || A == "--help")
    return PocOption::Help;
  if (A == "--translate-only")
    return PocOption::TranslateOnly;
  // `-p DIR` reads compile_commands.json, as in other LibTooling tools
  // (Clang's own -p, mcount profiling, has no meaning for poc++).
  if (A == "-p")
    return PocOption::CompileDb;
  for (const auto &[Name, Kind] : Valued)
    if (A == Name || (A.starts_with(Name) && A[Name.size()] == '=')) {
      Inline = A.drop_front(std::min(A.size(), Name.size() + 1));
      return Kind;
    }
  return PocOption::None;
}

/// Checks \p Value of -std=; sets \p Older if it is older than C++20
/// (plain C++ files compile with it; process operations need C++20).
Error checkStandard(StringRef Value, bool &Older) {
  LangStandard::Kind K = LangStandard::getLangKind(Value);
  if (K == LangStandard::lang_unspecified)
    return argError("invalid value '" + Value + "' in '-std=" + Value + "'");
  Older = !LangStandard::getLangStandardForKind(K).isCPlusPlus20();
  return Error::success();
}

/// The argument as the user spelled it: an alias (-g1 for -gline-tables-only, say) goes to the
/// system compiler unchanged, because GCC knows only the spelling it was given.
std::vector<std::string> rendered(const opt::Arg &A, const opt::ArgList &Args) {
  opt::ArgStringList Out;
  (A.getAlias() ? *A.getAlias() : A).render(Args, Out);
  return {Out.begin(), Out.end()};
}

void append(std::vector<std::string> &To, const std::vector<std::string> &From) {
  To.insert(To.end(), From.begin(), From.end());
}
} // namespace

namespace {
/// \p Args with every @file argument replaced by the file's arguments, as
/// Clang's driver reads them; the strings live in \p Saver.
Expected<SmallVector<const char *, 64>> expandResponseFiles(ArrayRef<std::string> Args,
                                                            StringSaver &Saver) {
  SmallVector<const char *, 64> Argv;
  for (const std::string &A : Args)
    Argv.push_back(Saver.save(A).data());
  cl::ExpansionContext Expander(Saver.getAllocator(), cl::TokenizeGNUCommandLine);
  if (Error E = Expander.expandResponseFiles(Argv))
    return E;
  return Argv;
}

/// Takes poc++'s own options out of \p Argv into \p O and returns the
/// rest, which are Clang's.
Expected<SmallVector<const char *, 64>> takePocOptions(ArrayRef<const char *> Argv,
                                                       DriverOptions &O) {
  SmallVector<const char *, 64> ClangArgv;
  for (size_t I = 0; I < Argv.size(); ++I) {
    StringRef A = Argv[I], Inline;
    PocOption Kind = pocOption(A, Inline);
    if (Kind == PocOption::None) {
      ClangArgv.push_back(Argv[I]);
      continue;
    }
    std::string Value;
    if (Kind != PocOption::Help && Kind != PocOption::TranslateOnly) {
      if (Inline.empty() && !A.contains('=')) {
        if (I + 1 >= Argv.size())
          return argError("missing argument after '" + A + "'");
        Value = Argv[++I];
      } else {
        Value = Inline.str();
      }
    }
    switch (Kind) {
    case PocOption::Help:
      O.Help = true;
      break;
    case PocOption::TranslateOnly:
      O.TranslateOnly = true;
      break;
    case PocOption::EmitGenerated:
      O.EmitGeneratedDir = Value;
      break;
    case PocOption::ProgramSource:
      O.ProgramSources.push_back(Value);
      break;
    case PocOption::DepFile:
      O.DepFile = Value;
      break;
    case PocOption::ProcessClass:
      // Class names are recorded without a leading "::" ("ns::Bank").
      O.ProcessClasses.insert(StringRef(Value).drop_while([](char C) { return C == ':'; }).str());
      break;
    case PocOption::CompileDb:
      O.CompilationDbDir = Value;
      break;
    case PocOption::None:
      break;
    }
  }
  return ClangArgv;
}

namespace options = clang::driver::options;

/// Records \p A if it says what the command does (-o, -c, -S, -E,
/// -fsyntax-only, -v, -###) or which dependencies it writes (-M and the
/// like); false if it is none of these.
bool takeActionOption(const opt::Arg &A, const std::vector<std::string> &Text, DriverOptions &O) {
  const opt::Option &Opt = A.getOption();
  switch (Opt.getID()) {
  case options::OPT_o:
    O.Output = A.getValue();
    return true;
  case options::OPT_c:
    O.CompileOnly = true;
    return true;
  case options::OPT_S:
    O.CompileOnly = O.Assemble = true;
    return true;
  case options::OPT_E:
    O.CompileOnly = O.Preprocess = true;
    return true;
  case options::OPT_fsyntax_only:
    O.CompileOnly = O.SyntaxOnly = true;
    return true;
  case options::OPT_v:
    // Also clang's: it shows its include search list and the linker's
    // command, which build systems read (CMake's implicit folders).
    O.Verbose = true;
    append(O.CompileFlags, Text);
    append(O.LinkFlags, Text);
    return true;
  case options::OPT__HASH_HASH_HASH:
    O.DryRun = O.Verbose = true;
    return true;
  case options::OPT_M:
  case options::OPT_MM:
    O.Deps.Only = true;
    [[fallthrough]];
  case options::OPT_MD:
  case options::OPT_MMD:
    O.Deps.Write = true;
    O.Deps.UserOnly = Opt.getID() == options::OPT_MM || Opt.getID() == options::OPT_MMD;
    return true;
  case options::OPT_MF:
    O.Deps.File = A.getValue();
    return true;
  case options::OPT_MT:
  case options::OPT_MQ:
    O.Deps.Targets.push_back(A.getValue());
    return true;
  case options::OPT_MP:
    O.Deps.Phony = true;
    return true;
  default:
    return false;
  }
}

/// True if \p A asks the toolchain a question (--version, -dumpversion,
/// -print-*), which clang answers without an input file.
bool isCompilerQuery(const opt::Arg &A, DriverOptions &O) {
  switch (A.getOption().getID()) {
  case options::OPT__version:
    O.Version = true;
    [[fallthrough]];
  case options::OPT_dumpversion:
  case options::OPT_dumpmachine:
  case options::OPT_print_file_name_EQ:
  case options::OPT_print_prog_name_EQ:
  case options::OPT_print_search_dirs:
  case options::OPT_print_resource_dir:
  case options::OPT_print_libgcc_file_name:
  case options::OPT_print_target_triple:
  case options::OPT_print_effective_triple:
  case options::OPT_print_multi_directory:
  case options::OPT_print_multi_lib:
  case options::OPT_print_multi_os_directory:
  case options::OPT_print_runtime_dir:
  case options::OPT_print_targets:
  case options::OPT_print_supported_cpus:
  case options::OPT_print_diagnostic_options:
  case options::OPT_print_multi_flags:
  case options::OPT_print_enabled_extensions:
    return true;
  default:
    return false;
  }
}

/// Adds the flag \p Text of option \p Opt to the steps that need it:
/// linking, poc++'s parse and the compile, or the compile alone.
void routeFlag(const opt::Option &Opt, const std::vector<std::string> &Text, DriverOptions &O) {
  if (Opt.getID() == options::OPT_no_pie || Opt.getID() == options::OPT_nopie ||
      Opt.matches(options::OPT_Link_Group) || Opt.hasFlag(options::LinkerInput)) {
    // Clang's table does not mark -no-pie and -nopie as link options; they are.
    append(O.LinkFlags, Text);
  } else if (Opt.matches(options::OPT_I_Group) || Opt.matches(options::OPT_clang_i_Group) ||
             Opt.matches(options::OPT_Preprocessor_Group)) {
    append(O.ParseFlags, Text);
    append(O.CompileFlags, Text);
  } else if (Opt.hasFlag(options::LinkOption) || Opt.matches(options::OPT_f_Group) ||
             Opt.matches(options::OPT_f_clang_Group) || Opt.matches(options::OPT_m_Group) ||
             Opt.getID() == options::OPT_pthread) {
    // -fsanitize=, -pthread, -m32, -fuse-ld=...: both compiling and linking.
    append(O.CompileFlags, Text);
    append(O.LinkFlags, Text);
  } else {
    append(O.CompileFlags, Text);
  }
}

/// Reads Clang's options \p ClangArgv, as Clang's own table parses them,
/// into \p O: the inputs and their languages, what the command does, and
/// each flag for the steps that need it.
Error readClangOptions(ArrayRef<const char *> ClangArgv, DriverOptions &O) {
  const opt::OptTable &Table = clang::driver::getDriverOptTable();
  unsigned MissingIndex = 0, MissingCount = 0;
  opt::InputArgList Parsed =
      Table.ParseArgs(ClangArgv, MissingIndex, MissingCount, opt::Visibility(options::ClangOption));
  if (MissingCount)
    return argError("missing argument after '" + Twine(Parsed.getArgString(MissingIndex)) + "'");

  // -x applies to the inputs after it, until -x none.
  driver::types::ID Forced = driver::types::TY_INVALID;
  std::string ForcedName;
  bool OnlyHeaders = true; // headers alone are precompiled, never linked
  for (const opt::Arg *A : Parsed) {
    const opt::Option &Opt = A->getOption();
    std::vector<std::string> Text = rendered(*A, Parsed);
    if (Opt.getKind() == opt::Option::UnknownClass)
      return argError("unknown argument: '" + Twine(A->getAsString(Parsed)) + "'");
    if (Opt.getKind() == opt::Option::InputClass) {
      StringRef F = A->getValue();
      driver::types::ID Ty = inputType(F, Forced);
      if (Ty == driver::types::TY_INVALID) {
        O.LinkInputs.push_back(F.str());
        continue;
      }
      O.Sources.push_back(F.str());
      OnlyHeaders &= driver::types::onlyPrecompileType(Ty);
      O.SourceLanguages.push_back(ForcedName);
      O.PlainOnly.push_back(!mayHoldProcessOperations(Ty, !ForcedName.empty()));
      continue;
    }
    if (Opt.getID() == options::OPT_x) {
      StringRef Lang = A->getValue();
      Forced = Lang == "none" ? driver::types::TY_INVALID
                              : driver::types::lookupTypeForTypeSpecifier(Lang.data());
      if (Lang != "none" && Forced == driver::types::TY_INVALID)
        return argError("language not recognized: '" + Lang + "'");
      ForcedName = Lang == "none" ? "" : Lang.str();
      continue;
    }
    if (Opt.getID() == options::OPT_std_EQ) {
      if (Error E = checkStandard(A->getValue(), O.StdBeforeCxx20))
        return E;
      O.HasStd = true;
      O.Std = A->getValue();
      append(O.ParseFlags, Text);
      append(O.CompileFlags, Text);
      continue;
    }
    if (takeActionOption(*A, Text, O))
      continue;
    if (isCompilerQuery(*A, O)) {
      append(O.CompilerQuery, Text);
      continue;
    }
    routeFlag(Opt, Text, O);
  }
  if (!O.Sources.empty() && OnlyHeaders && O.LinkInputs.empty())
    O.CompileOnly = true;
  return Error::success();
}

/// Checks what the options ask for together, and completes \p O where one
/// implies another (--translate-only to standard output, say).
Error checkCombination(DriverOptions &O) {
  if (O.Sources.empty() && O.LinkInputs.empty()) {
    // `-v` alone shows the version and configuration, as clang++ does.
    if (O.Verbose && !O.DryRun && O.CompilerQuery.empty())
      O.CompilerQuery.push_back("-v");
    if (!O.CompilerQuery.empty())
      return Error::success();
    return argError("no input files");
  }
  if ((O.CompileOnly || O.TranslateOnly || O.Deps.Only) && !O.Output.empty() &&
      O.Sources.size() > 1)
    return argError("cannot specify -o with -c, -S, -E, -M or --translate-only and "
                    "several input files");
  if ((O.TranslateOnly || O.EmitGeneratedDir == "-") && O.Sources.empty())
    return argError(Twine(O.TranslateOnly ? "--translate-only" : "--emit-generated -") +
                    " needs C++ source files");
  // The translation on standard output is the generated-code stream.
  if (O.TranslateOnly && (O.Output.empty() || O.Output == "-"))
    O.EmitGeneratedDir = "-";
  if (O.EmitGeneratedDir == "-")
    O.TranslateOnly = true;
  if (O.Deps.Write && O.Sources.size() > 1 && !O.Deps.File.empty())
    return argError("cannot specify -MF with several input files");
  return Error::success();
}
} // namespace

Expected<DriverOptions> parseCommandLine(ArrayRef<std::string> Args) {
  DriverOptions O;
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  Expected<SmallVector<const char *, 64>> Argv = expandResponseFiles(Args, Saver);
  if (!Argv)
    return Argv.takeError();
  Expected<SmallVector<const char *, 64>> ClangArgv = takePocOptions(*Argv, O);
  if (!ClangArgv)
    return ClangArgv.takeError();
  O.ClangArguments.assign(ClangArgv->begin(), ClangArgv->end());
  if (Error E = readClangOptions(*ClangArgv, O))
    return E;
  if (O.Help)
    return O;
  if (Error E = checkCombination(O))
    return E;
  return O;
}

} // namespace pocc
