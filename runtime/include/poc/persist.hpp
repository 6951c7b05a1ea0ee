//===- poc/persist.hpp - The persistent object store ----------------------===//
//
// Umbrella header of poc++'s storage layer for persistent processes; see
// docs/persistence.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/address.hpp"
#include "poc/persist/crc32c.hpp"
#include "poc/persist/error.hpp"
#include "poc/persist/lease.hpp"
#include "poc/persist/record.hpp"
#include "poc/persist/store.hpp"
