//===- RunCommand.cpp - running the driver's steps ------------------------===//
#include "pocc/RunCommand.h"
#include "pocc/PlainCompile.h"

#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace pocc {

namespace {
/// Prints \p Cmd as -v shows commands, or quoted as -### does.
void printCommand(const std::vector<std::string> &Cmd, bool Quoted) {
  for (const std::string &A : Cmd) {
    if (Quoted)
      errs() << ' ' << '"' << A << '"';
    else
      errs() << A << ' ';
  }
  errs() << '\n';
}
} // namespace

int runCommand(const std::vector<std::string> &Cmd, const DriverOptions &O, const Toolchain &TC,
               bool Shown) {
  if (O.DryRun) {
    printCommand(Cmd, true);
    return 0;
  }
  if (O.Verbose && Shown)
    printCommand(Cmd, false);
  if (TC.CompilerInProcess && Cmd[0] == TC.Compiler)
    return runClangDriver(Cmd[0], ArrayRef<std::string>(Cmd).drop_front());
  auto Program = sys::findProgramByName(Cmd[0]);
  if (!Program) {
    errs() << "poc++: error: cannot find '" << Cmd[0] << "' (set POC_CXX to a C++ compiler)\n";
    return 1;
  }
  std::vector<StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Err;
  int RC = sys::ExecuteAndWait(*Program, Args, std::nullopt, {}, 0, 0, &Err);
  if (RC < 0) {
    errs() << "poc++: error: running '" << Cmd[0] << "' failed: " << Err << "\n";
    return 1;
  }
  return RC;
}

} // namespace pocc
