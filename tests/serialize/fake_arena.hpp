//===- fake_arena.hpp - Test stand-in for the runtime's remote arena ------===//
//
// serialize_tests does not link libpoc_runtime; fake_arena.cpp defines the
// arena hooks of <poc/process_id.hpp> over a small static array so pointer
// serialization can be tested in one process.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/process_id.hpp"

namespace poc::test {

/// Makes \p object look like a local object hosted here as process \p id
/// (poc::hosted_id returns it).
void host_locally(const void *object, ProcessId id);
/// Forgets every object passed to host_locally.
void clear_hosted();
/// Forgets every interned reference and hosted object: references handed
/// out before become stale. The arena has 64 slots; the fuzzer resets it
/// for each input.
void reset_arena();

} // namespace poc::test
