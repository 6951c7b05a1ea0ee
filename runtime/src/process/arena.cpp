#include "arena.hpp"

#include "transport/host_numbers.hpp"

#include <poc/errors.hpp>
#include <poc/gen/arguments.hpp>
#include <poc/serialize.hpp>

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace poc::detail {

/// Hosts of the running job (0: not running), see set_job_size.
std::atomic<int> g_job_size{0};

void set_job_size(int hosts) noexcept { g_job_size.store(hosts, std::memory_order_relaxed); }

namespace {

/// Address space layout: object slots (1 MiB each, looked up by index)
/// followed by variable-size slots for big objects and arrays (looked up in
/// an ordered map).
constexpr std::size_t kObjectSlots = std::size_t{1} << 19; // 512 GiB
constexpr std::size_t kLargeBytes = std::size_t{1} << 40;  // 1 TiB
constexpr std::size_t kObjectRegion = kObjectSlots * kSlotBytes;

struct SlotInfo {
  ProcessId id;
  std::uint64_t bytes;
};

class Arena {
public:
  Arena() {
    void *p = mmap(nullptr, kObjectRegion + kLargeBytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *t = mmap(nullptr, kObjectSlots * sizeof(SlotInfo), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED || t == MAP_FAILED) {
      // Without an arena no reference can be remote: is_remote stays false
      // and creating a process reports the error.
      return;
    }
    table_ = static_cast<SlotInfo *>(t);
    base_.store(reinterpret_cast<std::uintptr_t>(p), std::memory_order_release);
    end_.store(base_ + kObjectRegion + kLargeBytes, std::memory_order_release);
  }

  bool contains(const void *p) const noexcept {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    return a >= base_.load(std::memory_order_relaxed) && a < end_.load(std::memory_order_relaxed);
  }

  /// Slot of `p` (precondition: contains(p)) and its start address.
  const SlotInfo *find(const void *p, std::uintptr_t &start) const {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    if (a < base_ + kObjectRegion) {
      std::size_t i = (a - base_) / kSlotBytes;
      if (i >= used_.load(std::memory_order_acquire))
        return nullptr;
      start = base_ + i * kSlotBytes;
      return &table_[i];
    }
    std::shared_lock g(mu_);
    auto it = large_.upper_bound(a);
    if (it == large_.begin())
      return nullptr;
    --it;
    if (a >= it->first + it->second.span)
      return nullptr;
    start = it->first;
    return &it->second.info;
  }

  void *intern(const ProcessId &id, std::size_t min_bytes) {
    if (!base_)
      throw usage_error("poc: the remote arena could not be reserved (mmap failed)");
    std::unique_lock g(mu_);
    auto it = by_id_.find(id);
    if (it != by_id_.end())
      return reinterpret_cast<void *>(it->second);
    std::uintptr_t addr;
    if (min_bytes <= kSlotBytes) {
      std::size_t i = used_.load(std::memory_order_relaxed);
      if (i == kObjectSlots)
        throw std::runtime_error("poc: too many remote references (arena full)");
      table_[i] = {id, min_bytes};
      addr = base_ + i * kSlotBytes;
      used_.store(i + 1, std::memory_order_release);
    } else {
      std::size_t span = (min_bytes + kSlotBytes - 1) / kSlotBytes * kSlotBytes;
      if (span > kLargeBytes - large_used_)
        throw std::runtime_error("poc: remote arena exhausted by large arrays");
      addr = base_ + kObjectRegion + large_used_;
      large_used_ += span;
      large_.emplace(addr, Large{{id, min_bytes}, span});
    }
    by_id_.emplace(id, addr);
    return reinterpret_cast<void *>(addr);
  }

  std::uintptr_t base() const noexcept { return base_; }
  std::uintptr_t end() const noexcept { return end_; }

private:
  struct Large {
    SlotInfo info;
    std::size_t span;
  };
  std::atomic<std::uintptr_t> base_{0};
  std::atomic<std::uintptr_t> end_{0};
  SlotInfo *table_ = nullptr;
  std::atomic<std::size_t> used_{0};
  mutable std::shared_mutex mu_;
  std::unordered_map<ProcessId, std::uintptr_t> by_id_;
  std::map<std::uintptr_t, Large> large_;
  std::size_t large_used_ = 0;
};

Arena &arena() {
  static Arena a;
  return a;
}
// Constructed before main so is_remote() never races with the first use.
[[maybe_unused]] const Arena &g_arena_init = arena();

/// Objects hosted here, by address, for hosted_id(), and by id, for
/// local_object(). (Not the host's process table: a process's own thread
/// makes it live and deletes it without the host's lock, under this one.)
struct Hosted {
  std::size_t size;
  ProcessId id;
};
struct HostedObject {
  void *object;
  const ClassInfo *cls;
};
std::shared_mutex g_hosted_mu;
std::map<std::uintptr_t, Hosted> g_hosted;
std::unordered_map<ProcessId, HostedObject> g_hosted_by_id;

struct sigaction g_previous_segv;

/// Async-signal-safe formatting of an unsigned number.
char *format_u64(char *out, std::uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *out++ = tmp[--n];
  return out;
}

void on_segv(int sig, siginfo_t *info, void *ctx) {
  if (info && arena().contains(info->si_addr)) {
    char buf[256];
    char *o = buf;
    auto put = [&](const char *s) {
      while (*s && o < buf + sizeof buf - 32)
        *o++ = *s++;
    };
    put("poc: dereferenced a remote reference");
    auto a = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (a < arena().base() + kObjectRegion) {
      std::uintptr_t start;
      if (const SlotInfo *s = arena().find(info->si_addr, start)) {
        put(" (process ");
        o = format_u64(o, static_cast<std::uint32_t>(s->id.host));
        put(".");
        o = format_u64(o, static_cast<std::uint32_t>(s->id.creator));
        put(".");
        o = format_u64(o, s->id.serial);
        put(")");
      }
    }
    put(" in code that poc++ did not rewrite\n");
    ssize_t ignored = write(STDERR_FILENO, buf, static_cast<std::size_t>(o - buf));
    (void)ignored;
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  // Not ours: let the previous handler (or the default action) have it.
  if (g_previous_segv.sa_flags & SA_SIGINFO) {
    if (g_previous_segv.sa_sigaction) {
      g_previous_segv.sa_sigaction(sig, info, ctx);
      return;
    }
  } else if (g_previous_segv.sa_handler != SIG_DFL && g_previous_segv.sa_handler != SIG_IGN) {
    g_previous_segv.sa_handler(sig);
    return;
  }
  signal(SIGSEGV, SIG_DFL);
  raise(SIGSEGV);
}

} // namespace

void install_arena_fault_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous_segv);
  });
}

void register_hosted(void *object, const ClassInfo &cls, const ProcessId &id) {
  std::unique_lock g(g_hosted_mu);
  g_hosted[reinterpret_cast<std::uintptr_t>(object)] = {cls.size ? cls.size : 1, id};
  g_hosted_by_id[id] = {object, &cls};
}

void forget_hosted(const void *object) {
  std::unique_lock g(g_hosted_mu);
  auto it = g_hosted.find(reinterpret_cast<std::uintptr_t>(object));
  if (it == g_hosted.end())
    return;
  g_hosted_by_id.erase(it->second.id);
  g_hosted.erase(it);
}

void *local_object(const void *ref, std::type_index type) {
  if (!is_remote(ref))
    return const_cast<void *>(ref);
  ProcessId id = remote_id(ref);
  const ClassInfo *cls = find_class(type);
  std::shared_lock g(g_hosted_mu);
  auto it = g_hosted_by_id.find(id);
  if (it == g_hosted_by_id.end() || it->second.cls != cls)
    return nullptr;
  return it->second.object;
}

std::string ended_text(const ProcessId &id, const std::string &class_name) {
  return "process " + id_text(id) + " (" + class_name + ") has ended";
}

bool is_ended_text(const std::string &message) noexcept {
  return message.starts_with("process ") && message.ends_with(") has ended");
}

ArrayRef array_ref(const void *p) {
  std::uintptr_t start = 0;
  const SlotInfo *s = arena().contains(p) ? arena().find(p, start) : nullptr;
  if (!s)
    throw usage_error("poc: not a remote reference");
  return {s->id, reinterpret_cast<std::uintptr_t>(p) - start, s->bytes};
}

void *array_address(const ArrayRef &ref) {
  if (ref.offset > ref.bytes)
    throw decode_error("poc: remote array reference points outside its array");
  return static_cast<std::byte *>(reference_to(ref.id, static_cast<std::size_t>(ref.bytes))) +
         ref.offset;
}

} // namespace poc::detail

namespace poc {

bool is_remote(const void *p) noexcept { return detail::arena().contains(p); }

ProcessId remote_id(const void *p) {
  std::uintptr_t start = 0;
  const detail::SlotInfo *s =
      detail::arena().contains(p) ? detail::arena().find(p, start) : nullptr;
  if (!s)
    throw usage_error("poc: not a remote reference");
  return s->id;
}

std::optional<ProcessId> hosted_id(const void *p) noexcept {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  std::shared_lock g(detail::g_hosted_mu);
  auto it = detail::g_hosted.upper_bound(a);
  if (it == detail::g_hosted.begin())
    return std::nullopt;
  --it;
  if (a >= it->first + it->second.size)
    return std::nullopt;
  return it->second.id;
}

void *reference_to(const ProcessId &id, std::size_t min_bytes) {
  if (id.host < 0)
    throw decode_error("poc: reference to an invalid process id");
  // A hostile or corrupted id must not reserve arena slots for processes
  // on a host outside the job.
  // A spawned host's number names the rank that spawned it, which must be
  // one of the job's.
  int hosts = detail::g_job_size.load(std::memory_order_relaxed);
  int rank = detail::is_spawned_host(id.host) ? detail::spawner_of(id.host) : id.host;
  if (hosts > 0 && rank >= hosts)
    throw decode_error("poc: reference to process " + detail::id_text(id) +
                       ", but the job has only " + std::to_string(hosts) + " ranks");
  return detail::arena().intern(id, min_bytes);
}

} // namespace poc
