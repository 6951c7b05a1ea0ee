//===- pocstd/storage.hpp - Where a page device keeps its pages ---*- C++ -*-===//
///
/// \file
/// Storage names the medium behind a PageDevice: a file (one large file per
/// disk, paper section 2.2) or memory (the DRAM tier of a tiered store such as
/// Crail, for in-core runs). It is a plain struct so that it can be a
/// constructor argument of a remotely created device.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace pocstd {

/// The kinds of medium a PageDevice can use.
enum class Medium : int {
  Memory = 0, ///< pages in the device process's memory; lost when it ends
  File = 1,   ///< pages in one file, read and written with direct I/O
};

/// A medium and, for files, the file's path.
struct Storage {
  Medium medium = Medium::Memory;
  /// The file for Medium::File (created if missing, reused if present so that
  /// a restarted computation finds its data); ignored for memory.
  std::string path;
  /// For files: transfer with O_DIRECT where the file system allows it
  /// (false: always through the kernel page cache).
  bool direct_io = true;

  static Storage memory() { return Storage{Medium::Memory, {}, false}; }
  static Storage file(std::string path, bool direct_io = true) {
    return Storage{Medium::File, std::move(path), direct_io};
  }
  /// "memory" or "file <path>", for messages.
  std::string describe() const {
    return medium == Medium::Memory ? std::string("memory") : "file " + path;
  }

  /// Serialisation: a constructor argument of devices created remotely, and
  /// part of a persistent device's saved state.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for an unknown medium or a file without a path.
  void poc_read(poc::Reader &r);
};

} // namespace pocstd
