#include "bdd/operation_cache.hpp"

#include "bdd/hash.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace bdd {

namespace {
/// The first word of a slot: the key's first word (operation and first
/// operand, bits 0..47 and 63), a version (48..61) that every store bumps so
/// a reader notices an overwrite even by the same key, and the lock (62).
constexpr std::uint64_t kLockBit = 1ull << 62;
constexpr unsigned kVersionShift = 48;
constexpr std::uint64_t kVersionMask = ((1ull << 14) - 1) << kVersionShift;

std::uint64_t first_key_word(Operation op, Edge a) {
  return a | (static_cast<std::uint64_t>(op) << kFreeBitsShift);
}
std::uint64_t key_of(std::uint64_t head) { return head & ~(kVersionMask | kLockBit); }
} // namespace

OperationCache::OperationCache(MPI_Comm comm, std::size_t bytes_per_rank, Access access)
    : memory_(comm, bytes_per_rank / kSlotBytes * kSlotBytes, access), ranks_(memory_.ranks()),
      slots_(memory_.bytes_per_rank() / kSlotBytes), used_(slots_) {
  if (slots_ == 0)
    throw std::invalid_argument("operation cache of " + std::to_string(bytes_per_rank) +
                                " bytes per rank holds no entry");
}

OperationCache::Slot OperationCache::slot_of(std::uint64_t key0, Edge b, Edge c) const {
  // A rank from the hash's low half, a slot from its high bits: no division.
  const std::uint64_t hash = hash_key(key0, b, c);
  return Slot{static_cast<int>(scale(hash << 32, static_cast<std::uint64_t>(ranks_))),
              static_cast<std::size_t>(scale(hash, used_) * kSlotBytes)};
}

void OperationCache::size_for(std::uint64_t nodes) {
  // Powers of two, so that the size, and with it where every entry is
  // looked for, changes seldom.
  const std::uint64_t wanted = nodes / kNodesPerSlot / static_cast<std::uint64_t>(ranks_);
  used_ = std::min(slots_, std::bit_ceil(std::max(kMinSlots, wanted)));
}

void OperationCache::absorb(CacheCounters &counters) {
  counters_.lookups += counters.lookups;
  counters_.hits += counters.hits;
  counters_.stores += counters.stores;
  counters_.dropped += counters.dropped;
  counters = CacheCounters{};
}

std::optional<Edge> OperationCache::find(Operation op, Edge a, Edge b, Edge c,
                                         CacheCounters &counters) {
  ++counters.lookups;
  const std::uint64_t key0 = first_key_word(op, a);
  const Slot slot = slot_of(key0, b, c);
  std::uint64_t entry[4];
  memory_.load_words(slot.rank, slot.offset, 4, entry); // head first, then the rest
  if (key_of(entry[0]) != key0 || (entry[0] & kLockBit) || entry[1] != b || entry[2] != c)
    return std::nullopt;
  if (memory_.load(slot.rank, slot.offset) != entry[0])
    return std::nullopt; // overwritten while we read
  ++counters.hits;
  return entry[3];
}

void OperationCache::store(Operation op, Edge a, Edge b, Edge c, Edge result,
                           CacheCounters &counters) {
  const std::uint64_t key0 = first_key_word(op, a);
  const Slot slot = slot_of(key0, b, c);
  const std::uint64_t seen = memory_.load(slot.rank, slot.offset);
  if ((seen & kLockBit) ||
      memory_.compare_and_swap(slot.rank, slot.offset, seen, seen | kLockBit) != seen) {
    ++counters.dropped; // another writer has the slot
    return;
  }
  const std::uint64_t rest[3] = {b, c, result};
  memory_.write_words(slot.rank, slot.offset + 8, 3, rest);
  const std::uint64_t version = ((seen & kVersionMask) + (1ull << kVersionShift)) & kVersionMask;
  memory_.store(slot.rank, slot.offset, key0 | version);
  ++counters.stores;
}

} // namespace bdd
