//===- pocstd/remote.hpp - Marking page-server classes for poc++ --*- C++ -*-===//
///
/// \file
/// POCSTD_REMOTE marks a class whose objects are used as processes by code
/// that never creates them itself: Array calls its page servers through
/// ArrayDevice* in a translation unit with no `new(machine) ArrayDevice`, so
/// poc++ must be told that those calls may be remote. It is poc++'s
/// `poc::remote` annotation (docs/compiler.md); a plain compiler ignores it.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <poc/annotations.hpp>

#if defined(POC_REMOTE)
#define POCSTD_REMOTE POC_REMOTE
#elif defined(__clang__)
#define POCSTD_REMOTE __attribute__((annotate("poc::remote")))
#else
#define POCSTD_REMOTE
#endif
