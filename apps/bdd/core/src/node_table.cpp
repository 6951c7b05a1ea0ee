#include "bdd/node_table.hpp"

#include "bdd/hash.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

namespace bdd {

namespace {

constexpr std::uint64_t kEmpty = 0;
/// A bucket word: the node's hash fragment in bits 40..63, its slot below.
constexpr unsigned kFragmentShift = 40;
constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kFragmentShift) - 1;
/// Chunks probed before the table counts as full.
constexpr unsigned kMaxChunksProbed = 64;
/// The next chunk's hash: an odd step spreads the chunks over the table.
constexpr std::uint64_t kChunkStep = 0x9e3779b97f4a7c15ull;
/// Slots a thread claims at once on a rank: one atomic add per region.
constexpr std::uint64_t kRegionSlots = 512;
/// Buckets per rank the table uses at least.
constexpr std::uint64_t kMinBuckets = std::uint64_t{1} << 15;
constexpr std::size_t kNodeCacheEntries = std::size_t{1} << 16;
/// Buckets between a node's read being started and its use in resize.
constexpr std::size_t kRehashReadAhead = 16;

/// Bits 4..27 of the hash: the home rank takes bits 28..31 and the home
/// bucket the top bits.
std::uint64_t fragment_of(std::uint64_t hash) { return ((hash >> 4) & 0xffffff) << kFragmentShift; }

std::uint64_t budget_buckets(std::size_t bytes_per_rank, unsigned chunk, std::size_t header) {
  const std::uint64_t c = chunk ? chunk : 1;
  return bytes_per_rank > header ? (bytes_per_rank - header) / NodeTable::kBucketBytes / c * c : 0;
}

} // namespace

NodeTable::NodeTable(MPI_Comm comm, std::size_t bytes_per_rank, unsigned chunk, Access access,
                     std::uint64_t nodes)
    : memory_(comm,
              kHeaderBytes + budget_buckets(bytes_per_rank, chunk, kHeaderBytes) * kBucketBytes,
              access, false),
      comm_(comm), ranks_(memory_.ranks()), chunk_(chunk),
      buckets_(budget_buckets(bytes_per_rank, chunk, kHeaderBytes)), used_(buckets_),
      data_offset_(kHeaderBytes + buckets_ * 8),
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
  used_ = buckets_for(nodes);
  start_empty();
  MPI_Barrier(comm);
}

void NodeTable::start_empty() {
  memory_.zero_local(kHeaderBytes, used_ * 8);
  // Slot 0 is nobody's: rank 0's is the terminal's index, and a bucket
  // word is never 0 (empty) with a slot above it.
  memory_.local_words()[0] = 1;
  memory_.sync_local();
  ++generation_; // every cursor's regions are void
  node_cache_.assign(memory_.access() == Access::Rma ? kNodeCacheEntries : 0, CachedNode{});
}

void NodeTable::clear_local() {
  start_empty();
  inserted_at_clear_ = own_.counters.inserted;
}

std::uint64_t NodeTable::nodes() {
  std::uint64_t mine = own_.counters.inserted - inserted_at_clear_, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, comm_);
  return all;
}

std::uint64_t NodeTable::buckets_for(std::uint64_t nodes) const noexcept {
  // As many buckets as `nodes` and three times as many again need: a
  // power of two (so that sizes change seldom), at least kMinBuckets.
  const std::uint64_t per_rank = nodes / static_cast<std::uint64_t>(ranks_);
  if (per_rank >= buckets_ / 4)
    return buckets_;
  return std::min(buckets_, std::bit_ceil(std::max(kMinBuckets, (per_rank + 1) * 4)));
}

void NodeTable::fit(std::uint64_t nodes) {
  const std::uint64_t wanted = buckets_for(nodes);
  if (wanted > used_)
    resize(wanted);
}

void NodeTable::grow() {
  if (can_grow())
    resize(used_ >= buckets_ / 4 ? buckets_ : used_ * 4);
}

void NodeTable::resize(std::uint64_t buckets) {
  // Every member's phase is over (the caller's collective said so): the
  // buckets are this rank's alone until the barrier at the end.
  memory_.sync_local();
  std::uint64_t *words = memory_.local_words();
  std::uint64_t *bucket_words = words + kHeaderBytes / 8;
  const std::vector<std::uint64_t> old(bucket_words, bucket_words + used_);
  const std::uint64_t handed_out = std::min(words[0], slot_limit());
  std::memset(bucket_words, 0, buckets * 8);
  used_ = buckets;
  // Claims beyond the old limit failed and handed out nothing.
  words[0] = handed_out;
  const std::uint64_t *slots = words + data_offset_ / 8;
  for (std::size_t i = 0; i < old.size(); ++i) {
    // The nodes sit at random slots: reading the one a few buckets ahead
    // now overlaps those reads, where one at a time each waits for memory.
    if (i + kRehashReadAhead < old.size() && old[i + kRehashReadAhead] != kEmpty)
      __builtin_prefetch(slots + 2 * (old[i + kRehashReadAhead] & kSlotMask));
    const std::uint64_t word = old[i];
    if (word == kEmpty)
      continue;
    const std::uint64_t *n = slots + 2 * (word & kSlotMask);
    // The node's home is this rank, and its first empty bucket there is
    // where find_or_put looks for it.
    std::uint64_t chunk_hash = hash_words(n[0], n[1]);
    for (bool placed = false; !placed; chunk_hash += kChunkStep) {
      const std::uint64_t home = scale(chunk_hash, used_);
      for (unsigned k = 0; k < chunk_ && !placed; ++k) {
        std::uint64_t &b =
            bucket_words[(home & ~std::uint64_t{chunk_ - 1}) | ((home + k) & (chunk_ - 1))];
        placed = b == kEmpty;
        if (placed)
          b = word;
      }
    }
  }
  memory_.sync_local();
  MPI_Barrier(comm_);
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
      "node table full: no free slot or bucket for a node homed at bucket {} ({} buckets, "
      "{:.1f} MiB on each of {} rank{}); give more memory with --table-mib or run on more ranks",
      home, capacity(), static_cast<double>(buckets_ * kBucketBytes) / (1 << 20), ranks_,
      ranks_ == 1 ? "" : "s"));
}

void NodeTable::absorb(TableCursor &cursor) {
  TableCounters &c = cursor.counters;
  own_.counters.lookups += c.lookups;
  own_.counters.inserted += c.inserted;
  own_.counters.chunks += c.chunks;
  own_.counters.compared += c.compared;
  own_.counters.cas_failed += c.cas_failed;
  c = TableCounters{};
}

std::uint64_t NodeTable::free_slot(int rank, TableCursor &cursor) {
  if (cursor.regions.size() != static_cast<std::size_t>(ranks_))
    cursor.regions.resize(static_cast<std::size_t>(ranks_));
  TableCursor::Region &r = cursor.regions[static_cast<std::size_t>(rank)];
  if (r.generation != generation_ || r.next == r.end) {
    const std::uint64_t limit = slot_limit();
    const std::uint64_t first = memory_.fetch_add(rank, 0, kRegionSlots);
    if (first >= limit)
      return 0;
    r = {first, std::min(first + kRegionSlots, limit), generation_};
  }
  return r.next;
}

std::uint64_t NodeTable::find_or_put(const Node &node, TableCursor &cursor) {
  TableCounters &counters = cursor.counters;
  ++counters.lookups;
  const std::uint64_t hash = hash_words(node.high_word, node.low_level);
  const std::uint64_t fragment = fragment_of(hash);
  // The home: a rank from the hash's low half, a chunk of its buckets from
  // the high bits, and the next chunks from the hash stepped on.
  const int rank = static_cast<int>(scale(hash << 32, static_cast<std::uint64_t>(ranks_)));
  const std::uint64_t base = static_cast<std::uint64_t>(rank) << index_shift_;
  const bool rma = memory_.access() == Access::Rma;
  std::uint64_t chunk_words[64]; // Rma: the chunk, read in one operation
  std::uint64_t slot = 0;        // a slot of ours holding the node, once written
  std::uint64_t chunk_hash = hash;
  for (unsigned probe = 0; probe < kMaxChunksProbed; ++probe, chunk_hash += kChunkStep) {
    const std::uint64_t home = scale(chunk_hash, used_);
    const std::uint64_t first = home & ~std::uint64_t{chunk_ - 1};
    ++counters.chunks;
    if (rma)
      memory_.load_words(rank, bucket_offset(first), chunk_, chunk_words);
    for (unsigned k = 0; k < chunk_; ++k) {
      const std::uint64_t in_chunk = (home + k) & (chunk_ - 1);
      const std::size_t offset = bucket_offset(first | in_chunk);
      std::uint64_t word = rma ? chunk_words[in_chunk] : memory_.load(rank, offset);
      if (word == kEmpty) {
        if (slot == 0) {
          slot = free_slot(rank, cursor);
          if (slot == 0)
            full(first | in_chunk);
          const std::uint64_t data[2] = {node.high_word, node.low_level};
          memory_.write_words(rank, data_offset_ + slot * 16, 2, data);
        }
        // The node is in its slot before the bucket names it.
        word = memory_.compare_and_swap(rank, offset, kEmpty, fragment | slot);
        if (word == kEmpty) {
          take_slot(rank, cursor);
          ++counters.inserted;
          return base | slot;
        }
        ++counters.cas_failed; // look at what the winner put there
      }
      if ((word & ~kSlotMask) != fragment)
        continue;
      ++counters.compared;
      // Our slot, if written, stays ours for the next node.
      const std::uint64_t index = base | (word & kSlotMask);
      if (this->node(index) == node)
        return index;
    }
  }
  full(scale(hash, used_));
}

std::uint64_t NodeTable::local_nodes() {
  std::uint64_t n = 0;
  std::uint64_t *words = memory_.local_words() + kHeaderBytes / 8;
  for (std::uint64_t i = 0; i < used_; ++i)
    n += std::atomic_ref<std::uint64_t>(words[i]).load(std::memory_order_relaxed) != kEmpty;
  return n;
}

} // namespace bdd
