//===- Driver.h - the poc++ command line ------------------------*- C++ -*-===//
//
// `poc++ [options] FILE.cpp... [-o OUT]` behaves like a compiler driver:
// it translates each C++ source, hands the translations to the system C++
// compiler with the user's flags, and links them with the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_DRIVER_H
#define POCC_DRIVER_H

#include "pocc/CommandLine.h"
#include "pocc/Toolchain.h"

namespace pocc {

/// Runs poc++; returns the process exit code.
int runDriver(const DriverOptions &Opts, const Toolchain &TC);

} // namespace pocc

#endif
