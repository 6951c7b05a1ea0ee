//===- poc++.cpp - the poc++ compiler driver ------------------------------===//
//
// A thin main() over libPocCompiler: see pocc/Driver.h and docs/compiler.md.
//
//===----------------------------------------------------------------------===//
#include "pocc/Driver.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  std::vector<std::string> Args(argv + 1, argv + argc);
  auto Opts = pocc::parseCommandLine(Args);
  if (!Opts) {
    llvm::errs() << "poc++: error: " << llvm::toString(Opts.takeError()) << "\n";
    return 1;
  }
  if (Opts->Help) {
    llvm::outs() << pocc::usageText();
    return 0;
  }
  return pocc::runDriver(*Opts, pocc::Toolchain::detect(argv[0]));
}
