//===- RunCommand.h - running the driver's steps -----------------*- C++ -*-===//
#ifndef POCC_RUNCOMMAND_H
#define POCC_RUNCOMMAND_H

#include "pocc/CommandLine.h"
#include "pocc/Toolchain.h"

#include <string>
#include <vector>

namespace pocc {

/// Runs a command; prints it first with -v (\p Shown); with -### only
/// prints it, quoted as Clang's -### does. The Clang poc++ is built on runs
/// in this process, as clang++ would run (pocc/PlainCompile.h). Returns its
/// exit code.
int runCommand(const std::vector<std::string> &Cmd, const DriverOptions &O, const Toolchain &TC,
               bool Shown = true);

} // namespace pocc

#endif
