//===- bdd/distributed_memory.hpp - One segment per rank, one-sided -*- C++ -*-===//
///
/// \file
/// DistributedMemory: a segment of equal size on every rank of a
/// communicator, read and written by any rank without the owner's help.
/// This is the role RDMA plays in the thesis (chapter 2). Two access paths:
///
///  * Rma: an `MPI_Win_allocate` window in one passive `MPI_Win_lock_all`
///    epoch for its whole life. Loads of control words are
///    `MPI_Get_accumulate(MPI_NO_OP)`, stores `MPI_Accumulate(MPI_REPLACE)`,
///    swaps `MPI_Compare_and_swap`, bulk reads `MPI_Get`/`MPI_Rget`; every
///    operation is completed with `MPI_Win_flush` before it returns, so
///    program order is memory order, as with the thesis's blocking RDMA.
///  * Shared: when every rank runs on one node, an
///    `MPI_Win_allocate_shared` window accessed with the CPU's atomics. The
///    thesis's UPC runs did the same on one machine: "RDMA operations are not
///    performed because all shared memory is local" (section 5.4).
///
/// The two paths never mix on one window, because MPI does not promise that
/// its atomics and the CPU's are atomic with respect to each other.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bdd {

/// How a DistributedMemory reaches other ranks' segments.
enum class Access {
  Automatic, ///< Shared if every rank is on this node, else Rma
  Rma,       ///< MPI one-sided operations always
  Shared,    ///< CPU atomics on node-shared memory (error off one node)
};

/// Parses "auto", "rma" or "shared"; throws std::invalid_argument otherwise.
Access parse_access(const std::string &text);
/// "rma" or "shared".
const char *access_name(Access access);

/// Counters of the one-sided traffic one rank caused.
struct RmaCounters {
  std::uint64_t operations = 0;  ///< one-sided operations issued
  std::uint64_t round_trips = 0; ///< completions waited for (flushes)
};

/// Equal segments on every rank of a communicator (collective to create and
/// destroy). Offsets are bytes into a rank's segment and must be 8-aligned.
class DistributedMemory {
public:
  /// Collective over `comm`: allocates `bytes_per_rank` on every rank,
  /// zeroed and faulted in unless `zeroed` is false: then the caller zeroes
  /// what it uses (zero_local), and pages it never touches cost no memory.
  /// Throws std::runtime_error naming the size if MPI cannot.
  DistributedMemory(MPI_Comm comm, std::size_t bytes_per_rank, Access access, bool zeroed = true);
  ~DistributedMemory();
  DistributedMemory(const DistributedMemory &) = delete;
  DistributedMemory &operator=(const DistributedMemory &) = delete;

  /// The path chosen (never Automatic).
  Access access() const noexcept { return access_; }
  int ranks() const noexcept { return ranks_; }
  int rank() const noexcept { return rank_; }
  std::size_t bytes_per_rank() const noexcept { return bytes_; }

  // The shared path is inline: the operations reach the table and the
  // cache through it several times per call.

  /// Atomic read of one word, acquire.
  std::uint64_t load(int rank, std::size_t offset) {
    std::uint64_t value;
    load_words(rank, offset, 1, &value);
    return value;
  }
  /// Atomic reads of `count` consecutive words, each acquire.
  void load_words(int rank, std::size_t offset, std::size_t count, std::uint64_t *out) {
    if (access_ != Access::Shared)
      return rma_load_words(rank, offset, count, out);
    shared_loads(rank, offset, count, out, std::memory_order_acquire);
  }
  /// Atomic write of one word, release.
  void store(int rank, std::size_t offset, std::uint64_t value) {
    write_words(rank, offset, 1, &value);
  }
  /// Compare-and-swap of one word; returns the word found (== expected on
  /// success).
  std::uint64_t compare_and_swap(int rank, std::size_t offset, std::uint64_t expected,
                                 std::uint64_t desired) {
    if (access_ != Access::Shared)
      return rma_compare_and_swap(rank, offset, expected, desired);
    word(shared_word(rank, offset))
        .compare_exchange_strong(expected, desired, std::memory_order_acq_rel,
                                 std::memory_order_acquire);
    return expected;
  }
  /// Atomically adds `value` to a word; returns the word before.
  std::uint64_t fetch_add(int rank, std::size_t offset, std::uint64_t value) {
    if (access_ != Access::Shared)
      return rma_fetch_add(rank, offset, value);
    return word(shared_word(rank, offset)).fetch_add(value, std::memory_order_relaxed);
  }
  /// Reads `count` words that their writer published before a release
  /// store this rank has since observed (or that a seqlock re-check guards).
  void read_words(int rank, std::size_t offset, std::size_t count, std::uint64_t *out) {
    if (access_ != Access::Shared)
      return rma_read_words(rank, offset, count, out);
    shared_loads(rank, offset, count, out, std::memory_order_relaxed);
  }
  /// Writes `count` words, each atomically, completed before returning.
  void write_words(int rank, std::size_t offset, std::size_t count, const std::uint64_t *in) {
    if (access_ != Access::Shared)
      return rma_write_words(rank, offset, count, in);
    std::uint64_t *p = shared_word(rank, offset);
    for (std::size_t i = 0; i < count; ++i)
      word(p + i).store(in[i], std::memory_order_release);
  }

  /// This rank's own segment (for zeroing and local scans between
  /// collective phases only).
  std::uint64_t *local_words() noexcept { return local_; }
  /// Zeroes this rank's own segment. Between collective phases only: the
  /// caller keeps every rank out of the memory (by barriers) until all
  /// ranks have zeroed theirs.
  void zero_local() { zero_local(0, bytes_); }
  /// Zeroes `bytes` of this rank's segment from `offset`, as zero_local().
  void zero_local(std::size_t offset, std::size_t bytes);
  /// Orders this rank's direct accesses to local_words() with the one-sided
  /// ones (MPI_Win_sync on a window): call before and after changing the
  /// segment directly, between collective phases only.
  void sync_local();

  const RmaCounters &counters() const noexcept { return counters_; }

private:
  std::uint64_t *shared_word(int rank, std::size_t offset) const noexcept {
    return reinterpret_cast<std::uint64_t *>(segments_[static_cast<std::size_t>(rank)] + offset);
  }
  static std::atomic_ref<std::uint64_t> word(std::uint64_t *p) noexcept {
    return std::atomic_ref<std::uint64_t>(*p);
  }
  void shared_loads(int rank, std::size_t offset, std::size_t count, std::uint64_t *out,
                    std::memory_order order) {
    std::uint64_t *p = shared_word(rank, offset);
    for (std::size_t i = 0; i < count; ++i)
      out[i] = word(p + i).load(order);
  }
  void flush(int rank);
  // The same operations over MPI's one-sided ones (the Rma path).
  void rma_load_words(int rank, std::size_t offset, std::size_t count, std::uint64_t *out);
  std::uint64_t rma_compare_and_swap(int rank, std::size_t offset, std::uint64_t expected,
                                     std::uint64_t desired);
  std::uint64_t rma_fetch_add(int rank, std::size_t offset, std::uint64_t value);
  void rma_read_words(int rank, std::size_t offset, std::size_t count, std::uint64_t *out);
  void rma_write_words(int rank, std::size_t offset, std::size_t count, const std::uint64_t *in);

  Access access_;
  int ranks_ = 1, rank_ = 0;
  std::size_t bytes_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::uint64_t *local_ = nullptr;
  std::vector<char *> segments_; ///< Shared path: every rank's segment
  void *mapped_ = nullptr;       ///< a one-rank team's own memory (huge pages)
  RmaCounters counters_;
};

} // namespace bdd
