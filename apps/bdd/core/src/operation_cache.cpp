#include "bdd/operation_cache.hpp"

#include "bdd/hash.hpp"

#include <stdexcept>
#include <string>

namespace bdd {

namespace {
constexpr std::uint64_t kLockBit = 1;

std::uint64_t first_key_word(Operation op, Edge a) {
  return a | (static_cast<std::uint64_t>(op) << kFreeBitsShift);
}
} // namespace

OperationCache::OperationCache(MPI_Comm comm, std::size_t bytes_per_rank, Access access)
    : memory_(comm, bytes_per_rank / kSlotBytes * kSlotBytes, access), ranks_(memory_.ranks()),
      slots_(memory_.bytes_per_rank() / kSlotBytes) {
  if (slots_ == 0)
    throw std::invalid_argument("operation cache of " + std::to_string(bytes_per_rank) +
                                " bytes per rank holds no entry");
}

OperationCache::Slot OperationCache::slot_of(std::uint64_t key0, Edge b, Edge c) const {
  const std::uint64_t hash = hash_words(key0, b, c, 0);
  const std::uint64_t global = hash % capacity();
  const std::uint64_t local = global % slots_;
  // Never 0 (empty) and never with the lock bit.
  const std::uint64_t fingerprint = ((hash >> 2) | 1) << 1;
  return Slot{static_cast<int>(global / slots_), static_cast<std::size_t>(local * 8),
              static_cast<std::size_t>(slots_ * 8 + local * 32), fingerprint};
}

std::optional<Edge> OperationCache::find(Operation op, Edge a, Edge b, Edge c) {
  ++counters_.lookups;
  const std::uint64_t key0 = first_key_word(op, a);
  const Slot slot = slot_of(key0, b, c);
  if (memory_.load(slot.rank, slot.control) != slot.fingerprint)
    return std::nullopt;
  std::uint64_t entry[4];
  memory_.load_words(slot.rank, slot.entry, 4, entry);
  if (memory_.load(slot.rank, slot.control) != slot.fingerprint)
    return std::nullopt; // overwritten while we read
  if (entry[0] != key0 || entry[1] != b || entry[2] != c)
    return std::nullopt; // another key with the same fingerprint
  ++counters_.hits;
  return entry[3];
}

void OperationCache::store(Operation op, Edge a, Edge b, Edge c, Edge result) {
  const std::uint64_t key0 = first_key_word(op, a);
  const Slot slot = slot_of(key0, b, c);
  const std::uint64_t seen = memory_.load(slot.rank, slot.control);
  if ((seen & kLockBit) ||
      memory_.compare_and_swap(slot.rank, slot.control, seen, seen | kLockBit) != seen) {
    ++counters_.dropped; // another writer has the slot
    return;
  }
  const std::uint64_t entry[4] = {key0, b, c, result};
  memory_.write_words(slot.rank, slot.entry, 4, entry);
  memory_.store(slot.rank, slot.control, slot.fingerprint);
  ++counters_.stores;
}

} // namespace bdd
