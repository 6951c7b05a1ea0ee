#include "shared_rings.hpp"

#include "check_mpi.hpp"
#include "posted_receives.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace poc::detail {

namespace {

constexpr std::size_t kDefaultKib = 128;
/// A ring must carry every message a posted receive takes (a quarter of
/// the ring, ShmRing::max_message).
constexpr std::size_t kMinimumKib = 128;
static_assert(kMinimumKib * 1024 / 4 - 8 >= PostedReceives::kSlotBytes);

/// What node rank 0 decides for every rank of the node.
struct Setup {
  int enabled = 0;
  std::uint64_t capacity = 0;
  char name[64] = {};
};

/// Node rank 0's reading of POC_SHM_RINGS and POC_SHM_RING_KIB.
Setup read_settings() {
  Setup s;
  const char *on = std::getenv("POC_SHM_RINGS");
  if (on && std::strcmp(on, "0") != 0 && std::strcmp(on, "1") != 0)
    throw std::runtime_error(fmt::format("poc: POC_SHM_RINGS={} is neither 0 nor 1", on));
  s.enabled = !(on && std::strcmp(on, "0") == 0);
  std::size_t kib = kDefaultKib;
  if (const char *text = std::getenv("POC_SHM_RING_KIB")) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (errno || end == text || *end || value < kMinimumKib || value > (1ull << 20) ||
        (value & (value - 1)))
      throw std::runtime_error(
          fmt::format("poc: POC_SHM_RING_KIB={} is not a power of two from {} to {}", text,
                      kMinimumKib, 1u << 20));
    kib = static_cast<std::size_t>(value);
  }
  s.capacity = kib * 1024;
  return s;
}

/// A new shared-memory object of `bytes`, mapped; its name in `s.name`.
void *create_segment(Setup &s, std::size_t bytes) {
  static std::atomic<unsigned> made{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  fmt::format_to_n(s.name, sizeof s.name - 1, "/poc-rings-{}-{}-{:x}", getpid(), made++,
                   static_cast<unsigned long long>(now));
  const int fd = shm_open(s.name, O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0)
    return nullptr;
  void *memory = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(bytes)) == 0)
    memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (memory == MAP_FAILED) {
    shm_unlink(s.name);
    return nullptr;
  }
  return memory;
}

void *open_segment(const Setup &s, std::size_t bytes) {
  const int fd = shm_open(s.name, O_RDWR, 0600);
  if (fd < 0)
    return nullptr;
  void *memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return memory == MAP_FAILED ? nullptr : memory;
}

} // namespace

std::unique_ptr<SharedRings> SharedRings::on_node_of(MPI_Comm world, Progress &progress) {
  int self = 0, world_size = 1;
  check_mpi(MPI_Comm_rank(world, &self), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(world, &world_size), "MPI_Comm_size");
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, self, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  struct FreeNode {
    MPI_Comm &comm;
    ~FreeNode() { MPI_Comm_free(&comm); }
  } free_node{node};
  int n = 1, me = 0;
  check_mpi(MPI_Comm_size(node, &n), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(node, &me), "MPI_Comm_rank");
  if (n == 1)
    return nullptr;
  std::vector<int> world_of(static_cast<std::size_t>(n));
  check_mpi(MPI_Allgather(&self, 1, MPI_INT, world_of.data(), 1, MPI_INT, node), "MPI_Allgather");

  // Node rank 0 reads the settings and makes the segment; a failure to
  // read them is reported after the others know, so that none waits.
  Setup setup;
  std::optional<std::runtime_error> bad_setting;
  void *segment = nullptr;
  if (me == 0) {
    try {
      setup = read_settings();
    } catch (const std::runtime_error &e) {
      bad_setting = e;
      setup.enabled = 0;
    }
  }
  check_mpi(MPI_Bcast(&setup, sizeof setup, MPI_BYTE, 0, node), "MPI_Bcast");
  if (bad_setting)
    throw *bad_setting;
  if (!setup.enabled)
    return nullptr;
  const std::size_t footprint = ShmRing::footprint(setup.capacity);
  const std::size_t bytes = footprint * static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  if (me == 0) {
    segment = create_segment(setup, bytes);
    if (!segment)
      setup.name[0] = '\0';
  }
  check_mpi(MPI_Bcast(setup.name, sizeof setup.name, MPI_CHAR, 0, node), "MPI_Bcast");
  if (me != 0 && setup.name[0])
    segment = open_segment(setup, bytes);
  int mapped = segment != nullptr, all_mapped = 0;
  check_mpi(MPI_Allreduce(&mapped, &all_mapped, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
  // Everyone has opened it (or failed to): its name is no longer needed,
  // and nothing is left behind when the job ends, however it ends.
  if (me == 0 && setup.name[0])
    shm_unlink(setup.name);
  if (!all_mapped) {
    if (segment)
      munmap(segment, bytes);
    if (me == 0)
      fmt::print(stderr,
                 "poc: host {}: a rank on its node could not map shared memory for "
                 "same-node messages; they travel through MPI\n",
                 self);
    return nullptr;
  }
  std::vector<int> node_index(static_cast<std::size_t>(world_size), -1);
  for (int i = 0; i < n; ++i)
    node_index[static_cast<std::size_t>(world_of[static_cast<std::size_t>(i)])] = i;
  return std::make_unique<SharedRings>(progress, self, std::move(node_index), segment, bytes,
                                       setup.capacity);
}

SharedRings::SharedRings(Progress &progress, int self, std::vector<int> node_index, void *segment,
                         std::size_t segment_bytes, std::size_t capacity)
    : progress_(progress), node_index_(std::move(node_index)), segment_(segment),
      segment_bytes_(segment_bytes), peer_of_(node_index_.size(), nullptr) {
  const std::size_t n = static_cast<std::size_t>(
      std::count_if(node_index_.begin(), node_index_.end(), [](int i) { return i >= 0; }));
  const std::size_t me = static_cast<std::size_t>(node_index_[static_cast<std::size_t>(self)]);
  const std::size_t footprint = ShmRing::footprint(capacity);
  auto *base = static_cast<std::byte *>(segment);
  // The ring from node rank a to node rank b is number a * n + b. The
  // segment is new and zero-filled: every ring is already empty.
  auto ring = [&](std::size_t from, std::size_t to) { return base + (from * n + to) * footprint; };
  for (std::size_t rank = 0; rank < node_index_.size(); ++rank) {
    if (node_index_[rank] < 0)
      continue;
    const auto other = static_cast<std::size_t>(node_index_[rank]);
    Peer &p = peers_.emplace_back(static_cast<int>(rank), ShmRing(ring(me, other), capacity),
                                  ShmRing(ring(other, me), capacity));
    peer_of_[rank] = &p;
  }
  max_message_ = peers_.front().out.max_message();
}

SharedRings::~SharedRings() { munmap(segment_, segment_bytes_); }

void SharedRings::send(int rank, std::span<const std::byte> bytes, LazyHostLock &lock,
                       bool may_wait) {
  if (bytes.size() > max_message_)
    throw std::logic_error(fmt::format("poc: a message of {} bytes for a shared ring of {}",
                                       bytes.size(), max_message_));
  Peer &p = *peer_of_[static_cast<std::size_t>(rank)];
  {
    std::lock_guard g(p.producing);
    const bool was_queued = p.queued();
    if (!was_queued && (!may_wait || p.out.all_read()) && p.out.try_push(bytes))
      return;
    if (may_wait && BatchFrame::may_hold(bytes.size())) {
      // A full batch goes now (or waits closed) and a new one opens.
      if (!p.open.fits(bytes.size()))
        move_waiting(p, true);
      p.open.append(bytes);
      move_waiting(p, false);
    } else if (!move_waiting(p, true) || !p.out.try_push(bytes)) {
      p.waiting.emplace_back(bytes.begin(), bytes.end());
    }
    if (!note_queued(p, was_queued))
      return;
  }
  // A napping poller must start moving it.
  progress_.wake_poller(lock.get());
}

bool SharedRings::note_queued(Peer &p, bool was_queued) noexcept {
  p.has_waiting.store(!p.waiting.empty(), std::memory_order_release);
  p.has_open.store(!p.open.empty(), std::memory_order_release);
  const bool queued = p.queued();
  if (queued == was_queued)
    return false;
  if (queued)
    queued_peers_.fetch_add(1, std::memory_order_release);
  else
    queued_peers_.fetch_sub(1, std::memory_order_release);
  return queued;
}

bool SharedRings::move_waiting(Peer &p, bool open_now) {
  while (!p.waiting.empty() && p.out.try_push(p.waiting.front()))
    p.waiting.pop_front();
  if (!p.open.empty() && (open_now || p.out.all_read())) {
    if (!p.waiting.empty() || !p.out.try_push(p.open.to_send())) {
      const std::span<const std::byte> closed = p.open.to_send();
      p.waiting.emplace_back(closed.begin(), closed.end());
    }
    p.open.clear();
  }
  return !p.queued();
}

bool SharedRings::move_queued() {
  bool moved = false;
  for (Peer &p : peers_) {
    // An open batch waits for its receiver to read the rest: until then
    // the poller looks without taking the lock its senders take.
    if (!p.has_waiting.load(std::memory_order_acquire) &&
        !(p.has_open.load(std::memory_order_acquire) && p.out.drained()))
      continue;
    std::unique_lock g(p.producing, std::try_to_lock);
    if (!g)
      continue; // a sender has it, and moves what it can itself
    const std::size_t before = p.waiting.size() + p.open.messages();
    const bool was_queued = p.queued();
    move_waiting(p, false);
    note_queued(p, was_queued);
    moved |= p.waiting.size() + p.open.messages() != before;
  }
  return moved;
}

} // namespace poc::detail
