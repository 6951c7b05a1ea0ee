//===- poc/serialize/process_id.hpp - Encoding of process ids -------------===//
//
// A ProcessId is 16 bytes: host (int32), creator (int32), serial (uint64),
// little-endian.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/process_id.hpp"
#include "poc/serialize/arithmetic.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>

namespace poc {

template <> struct Serializer<ProcessId> {
  static constexpr std::size_t min_size = 16;
  static void write(Writer &w, const ProcessId &id) {
    w.write(id.host);
    w.write(id.creator);
    w.write(id.serial);
  }
  static void read(Reader &r, ProcessId &id) {
    r.read(id.host);
    r.read(id.creator);
    r.read(id.serial);
  }
};

} // namespace poc
