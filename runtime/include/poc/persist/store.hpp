//===- poc/persist/store.hpp - A directory of persistent objects ----------===//
//
// The storage layer of persistent processes (docs/persistence.md). The
// runtime serializes a process's fields and calls save() when it deactivates
// or checkpoints the process, load() when a program first uses the process's
// address, and remove() when the program deletes it. The store knows nothing
// about MPI or processes: it maps addresses to self-checking record files.
//
// Guarantees:
//  * save() is atomic: a unique temporary file in the object's directory is
//    written, flushed (fdatasync), renamed over the record and the directory
//    is flushed. A crash at any moment leaves the previous or the new record,
//    never a torn or mixed one; once save() returned, the new record stays.
//  * Several processes and threads may save, load and remove concurrently,
//    the same object included: the last rename wins and every load sees one
//    complete record.
//  * load() verifies everything (magic, format version, both checksums,
//    sizes, the stored address) and throws store_error naming the object;
//    damage to one record never affects another.
//  * Files are created 0600, directories 0700; paths below the root never
//    follow symbolic links.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/address.hpp"
#include "poc/persist/lease.hpp"
#include "poc/persist/record.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace poc::persist {

/// How a Store writes.
struct StoreOptions {
  /// Flush file and directory to stable storage before save()/remove()
  /// return. Without it a record still survives the death of the writing
  /// process (kill -9), but not a crash of the operating system.
  bool durable = true;
};

/// What scan() finds under the root.
struct ScanResult {
  std::vector<Address> objects;                   ///< Records, sorted by address.
  std::vector<std::filesystem::path> temporaries; ///< Left by saves that did not finish.
  std::vector<std::filesystem::path> locks;       ///< Lock files of leases (lease.hpp).
  std::vector<std::filesystem::path> foreign;     ///< Files that no save creates.
};

/// A store rooted at a directory. Cheap to copy; all members are const and
/// safe to call from several threads at once.
class Store {
public:
  /// A store at \p root; the directory is created (0700) by the first save.
  explicit Store(std::filesystem::path root, StoreOptions options = {});

  /// The default root: $POC_STORE if set and non-empty (made absolute), else
  /// $XDG_DATA_HOME/poc/store if XDG_DATA_HOME is an absolute path, else
  /// $HOME/.local/share/poc/store. \throws store_error(no_root) if none applies.
  static std::filesystem::path default_root();

  const std::filesystem::path &root() const noexcept { return Root; }
  const StoreOptions &options() const noexcept { return Options; }

  /// Atomically replaces (or creates) the record of \p address.
  /// \returns the saved time written into the record.
  /// \throws store_error(io | invalid_argument).
  SavedTime save(const Address &address, std::string_view class_name, std::uint64_t layout_hash,
                 std::span<const std::byte> payload) const;

  /// save() of a payload given in pieces, written in order without first
  /// concatenating them: a serialized message and its out-of-band blocks
  /// (poc::Writer::bytes() and out_of_band()) go to disk straight from the
  /// process's memory.
  SavedTime save_parts(const Address &address, std::string_view class_name,
                       std::uint64_t layout_hash,
                       std::span<const std::span<const std::byte>> parts) const;

  /// One object of a save_all().
  struct SaveItem {
    Address address;
    std::string_view class_name;
    std::uint64_t layout_hash = 0;
    std::span<const std::span<const std::byte>> parts; ///< The payload, in pieces.
  };

  /// Saves many objects with two flushes of the file system in all instead
  /// of two per object: what deactivating every persistent process at
  /// shutdown needs. Each record is replaced atomically as by save(), and
  /// all are durable when it returns; the batch is not a transaction: if it
  /// throws, records renamed before the failure stay saved, the others keep
  /// their previous state. \returns the saved time of all the records.
  SavedTime save_all(std::span<const SaveItem> items) const;

  /// Reads and fully verifies the record of \p address.
  /// \throws store_error (not_found, io, bad_magic, unsupported_version,
  /// corrupt, truncated).
  Record load(const Address &address) const;

  /// load(), and also checks that the object is of class \p class_name with
  /// layout \p layout_hash. \throws store_error(class_mismatch |
  /// layout_mismatch) besides load()'s errors.
  Record load(const Address &address, std::string_view class_name, std::uint64_t layout_hash) const;

  /// The verified header of \p address and a check of the file size, without
  /// reading the payload (what listing tools need). Throws like load().
  RecordInfo info(const Address &address) const;

  /// Whether a record file exists for \p address (it may still be damaged).
  /// \throws store_error(io) if a directory on the way cannot be read.
  bool contains(const Address &address) const;

  /// Deletes the record of \p address and any directories it leaves empty
  /// (with its lock file, unless a Lease holds that; the Lease then deletes
  /// it on release).
  /// \returns false if there was no record. \throws store_error(io).
  bool remove(const Address &address) const;

  /// Addresses of all records, sorted; only those starting with \p prefix
  /// (plain string prefix) if one is given.
  std::vector<Address> list(std::string_view prefix = {}) const;

  /// Walks the whole root: records, leftover temporaries, foreign files.
  ScanResult scan() const;

  /// Takes the lease on \p address (lease.hpp) unless another Lease, in
  /// this or any other process, holds it. The object need not exist.
  /// \returns std::nullopt if it is held. \throws store_error(io).
  std::optional<Lease> try_lease(const Address &address) const;

  /// try_lease(), but \throws store_error(busy) naming the holder (its
  /// process id and host) if the object is held.
  Lease lease(const Address &address) const;

  /// Deletes temporary files (left by saves whose process died) not modified
  /// for \p min_age, and unheld lock files of objects that no longer exist. Always safe for
  /// consistency: should a save still be writing such a file, its rename fails and that save()
  /// throws store_error(io); no record is ever damaged. \returns files removed.
  std::size_t clean(std::chrono::seconds min_age) const;

  /// The record file of \p address.
  std::filesystem::path file_of(const Address &address) const;

private:
  /// syncfs() of the file system holding the root.
  void sync_file_system() const;

  std::filesystem::path Root;
  StoreOptions Options;
};

} // namespace poc::persist
