#include "bdd/node_table.hpp"

#include "bdd/hash.hpp"

#include <fmt/format.h>

#include <atomic>
#include <bit>

namespace bdd {

namespace {

constexpr std::uint64_t kEmpty = 0;
constexpr std::uint64_t kClaimedBit = 1;
constexpr std::uint64_t kDoneBits = 3;
/// Control word of the terminal's bucket (global index 0): never matches a
/// fingerprint, which is below 2^62 once shifted.
constexpr std::uint64_t kTerminalControl = ~0ull;
/// Chunks probed before the table counts as full.
constexpr unsigned kMaxChunksProbed = 256;
constexpr std::size_t kNodeCacheEntries = std::size_t{1} << 16;

std::uint64_t fingerprint_of(std::uint64_t hash) { return (hash >> 4) << 2; }

} // namespace

NodeTable::NodeTable(MPI_Comm comm, std::size_t bytes_per_rank, unsigned chunk, Access access)
    : memory_(comm,
              (bytes_per_rank / kBucketBytes / (chunk ? chunk : 1)) * (chunk ? chunk : 1) *
                  kBucketBytes,
              access),
      comm_(comm), ranks_(memory_.ranks()), chunk_(chunk),
      buckets_(memory_.bytes_per_rank() / kBucketBytes),
      index_shift_(static_cast<unsigned>(std::bit_width(std::bit_ceil(buckets_)) - 1)) {
  if (chunk_ == 0 || chunk_ > 64 || (chunk_ & (chunk_ - 1)) != 0)
    throw std::invalid_argument("chunk size must be a power of two in 1..64, got " +
                                std::to_string(chunk));
  if (buckets_ < chunk_)
    throw TableFull("the node table's budget of " + std::to_string(bytes_per_rank) +
                    " bytes per rank holds less than one chunk");
  if (index_limit() - 1 > kMaxIndex)
    throw std::invalid_argument("node table of " + std::to_string(capacity()) +
                                " buckets exceeds the 40-bit node index");
  start_empty(); // the memory comes zeroed
  MPI_Barrier(comm);
}

void NodeTable::clear_local() {
  memory_.zero_local();
  start_empty();
  inserted_at_clear_ = counters_.inserted;
}

std::uint64_t NodeTable::nodes() {
  std::uint64_t mine = counters_.inserted - inserted_at_clear_, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, comm_);
  return all;
}

void NodeTable::start_empty() {
  if (memory_.rank() == 0)
    memory_.local_words()[0] = kTerminalControl;
  // Indices are reused for other nodes once the table was cleared.
  node_cache_.assign(memory_.access() == Access::Rma ? kNodeCacheEntries : 0, CachedNode{});
}

Node NodeTable::remote_node(std::uint64_t index) {
  CachedNode &slot = node_cache_[mix64(index) & (kNodeCacheEntries - 1)];
  if (slot.index != index) {
    slot.node = read_node(index);
    slot.index = index;
  }
  return slot.node;
}

void NodeTable::full(std::uint64_t home) const {
  throw TableFull(fmt::format(
      "node table full: no free bucket within {} buckets of bucket {} ({} buckets, {:.1f} MiB "
      "on each of {} rank{}); give more memory with --table-mib or run on more ranks",
      kMaxChunksProbed * chunk_, home, capacity(),
      static_cast<double>(buckets_ * kBucketBytes) / (1 << 20), ranks_, ranks_ == 1 ? "" : "s"));
}

void NodeTable::absorb(TableCounters &counters) {
  counters_.lookups += counters.lookups;
  counters_.inserted += counters.inserted;
  counters_.chunks += counters.chunks;
  counters_.compared += counters.compared;
  counters_.cas_failed += counters.cas_failed;
  counters = TableCounters{};
}

std::uint64_t NodeTable::find_or_put(const Node &node, TableCounters &counters) {
  ++counters.lookups;
  const std::uint64_t hash = hash_words(node.high_word, node.low_level);
  const std::uint64_t claimed = fingerprint_of(hash) | kClaimedBit;
  const std::uint64_t done = fingerprint_of(hash) | kDoneBits;
  // The home: a rank from the hash's low half, a bucket of it from the high
  // bits; the probe wraps around within that rank's segment.
  const int rank = static_cast<int>(scale(hash << 32, static_cast<std::uint64_t>(ranks_)));
  const std::uint64_t base = static_cast<std::uint64_t>(rank) << index_shift_;
  const std::uint64_t home = scale(hash, buckets_);
  const bool rma = memory_.access() == Access::Rma;
  // Rma: the chunk of buckets being probed, read in one operation.
  std::uint64_t chunk_words[3 * 64];
  std::uint64_t chunk_first = ~0ull;
  std::uint64_t bucket = home;
  for (std::uint64_t probe = 0; probe < kMaxChunksProbed * chunk_; ++probe) {
    if (probe != 0 && ++bucket == buckets_)
      bucket = 0;
    const std::uint64_t index = base | bucket;
    std::uint64_t word, in_chunk[2];
    if (rma) {
      const std::uint64_t first = index & ~std::uint64_t{chunk_ - 1};
      if (first != chunk_first) {
        memory_.load_words(rank, control_offset(first), 3 * chunk_, chunk_words);
        chunk_first = first;
        ++counters.chunks;
      }
      const std::uint64_t *b = chunk_words + 3 * (index - first);
      word = b[0];
      in_chunk[0] = b[1];
      in_chunk[1] = b[2];
    } else {
      word = memory_.load(rank, control_offset(index));
      if ((probe & (chunk_ - 1)) == 0)
        ++counters.chunks;
    }
    for (;;) {
      if (word == kEmpty) {
        word = memory_.compare_and_swap(rank, control_offset(index), kEmpty, claimed);
        if (word == kEmpty) {
          const std::uint64_t data[2] = {node.high_word, node.low_level};
          memory_.write_words(rank, node_offset(index), 2, data);
          memory_.store(rank, control_offset(index), done);
          ++counters.inserted;
          return index;
        }
        ++counters.cas_failed;
        chunk_first = ~0ull; // our copy of the chunk is stale
        continue;            // look at what the winner claimed it for
      }
      if (word == claimed) { // same fingerprint, still being written
        word = memory_.load(rank, control_offset(index));
        chunk_first = ~0ull;
        continue;
      }
      break;
    }
    if (word != done)
      continue;
    ++counters.compared;
    // The chunk's copy of the node may predate the control word it was read
    // with (one read, no order between its words): on a mismatch read again.
    if (rma && chunk_first != ~0ull && Node{in_chunk[0], in_chunk[1]} == node)
      return index;
    if (read_node(index) == node)
      return index;
  }
  full(base | home);
}

std::uint64_t NodeTable::local_nodes() {
  std::uint64_t n = 0;
  std::uint64_t *words = memory_.local_words();
  for (std::uint64_t i = 0; i < buckets_; ++i)
    n += std::atomic_ref<std::uint64_t>(words[i * kBucketBytes / 8])
             .load(std::memory_order_relaxed) &
         kClaimedBit;
  return memory_.rank() == 0 ? n - 1 : n; // not the terminal
}

} // namespace bdd
