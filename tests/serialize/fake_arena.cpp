//===- fake_arena.cpp - Test definitions of the arena hooks ---------------===//
#include "fake_arena.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::size_t kSlotBytes = 256;
constexpr std::size_t kSlots = 64;
alignas(64) char arena[kSlotBytes * kSlots];

std::mutex mutex;
std::vector<poc::ProcessId> interned;
std::map<const void *, poc::ProcessId> hosted;

} // namespace

namespace poc {

bool is_remote(const void *p) noexcept {
  auto c = static_cast<const char *>(p);
  return c >= arena && c < arena + sizeof(arena);
}

ProcessId remote_id(const void *p) {
  std::lock_guard lock(mutex);
  auto slot = static_cast<std::size_t>(static_cast<const char *>(p) - arena) / kSlotBytes;
  if (slot >= interned.size())
    throw std::logic_error("fake arena: address in an unused slot");
  return interned[slot];
}

std::optional<ProcessId> hosted_id(const void *p) noexcept {
  std::lock_guard lock(mutex);
  auto it = hosted.find(p);
  if (it == hosted.end())
    return std::nullopt;
  return it->second;
}

void *reference_to(const ProcessId &id, std::size_t min_bytes) {
  std::lock_guard lock(mutex);
  if (min_bytes > kSlotBytes)
    throw std::logic_error("fake arena: type larger than a slot");
  std::size_t slot = 0;
  while (slot < interned.size() && interned[slot] != id)
    ++slot;
  if (slot == interned.size()) {
    if (slot == kSlots)
      throw std::logic_error("fake arena: out of slots (call poc::test::reset_arena)");
    interned.push_back(id);
  }
  return arena + slot * kSlotBytes;
}

void test::host_locally(const void *object, ProcessId id) {
  std::lock_guard lock(mutex);
  hosted[object] = id;
}

void test::reset_arena() {
  std::lock_guard lock(mutex);
  interned.clear();
  hosted.clear();
}

void test::clear_hosted() {
  std::lock_guard lock(mutex);
  hosted.clear();
}

} // namespace poc
