#include "host.hpp"

#include <poc/process_group.hpp>

#include <cstdio>

namespace poc {

void ProcessGroupMember::assign(int id, std::vector<ProcessGroupMember *> group) {
  id_ = id;
  n_ = static_cast<int>(group.size());
  group_ = std::move(group);
  epoch_ = 0;
  // The key names the group by its members, so every member computes the
  // same key and different groups (almost surely) differ.
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  for (ProcessGroupMember *m : group_) {
    if (m && is_remote(m)) {
      ProcessId pid = remote_id(m);
      mix(static_cast<std::uint32_t>(pid.host));
      mix(static_cast<std::uint32_t>(pid.creator));
      mix(pid.serial);
    } else {
      mix(reinterpret_cast<std::uintptr_t>(m));
    }
  }
  key_ = h;
}

int ProcessGroupMember::coordinator() const {
  ProcessGroupMember *first = group_.front();
  return first && is_remote(first) ? remote_id(first).host : detail::host().rank();
}

void ProcessGroupMember::barrier() {
  if (n_ == 0)
    throw usage_error("poc: barrier() called by a process that is not in a group "
                      "(call SetProcessGroup first)");
  detail::Host &h = detail::host();
  int coordinator = this->coordinator();
  std::uint64_t epoch = epoch_++;
  h.arrive_barrier(coordinator, key_, epoch, static_cast<std::uint64_t>(n_));
  std::unique_lock<std::mutex> lk(h.engine().mutex());
  h.wait_barrier(lk, key_, epoch);
}

void ProcessGroupMember::poc_write(Writer &w) const {
  w.write(static_cast<std::int32_t>(id_));
  w.write_size(group_.size());
  for (ProcessGroupMember *m : group_)
    w.write(m);
  w.write(key_);
  w.write(epoch_);
}

void ProcessGroupMember::poc_read(Reader &r) {
  id_ = r.read<std::int32_t>();
  std::size_t n = r.read_size(1u << 24);
  std::vector<ProcessGroupMember *> group(n);
  for (auto &m : group)
    r.read(m);
  group_ = std::move(group);
  n_ = static_cast<int>(n);
  r.read(key_);
  r.read(epoch_);
  if (n_ && (id_ < 0 || id_ >= n_))
    throw decode_error("poc: process group member id outside the group");
}

namespace detail {

void abandon_barriers(const ProcessGroupMember &member, const std::string &event) noexcept {
  if (member.n_ == 0)
    return;
  try {
    char key[32];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(member.key_));
    std::string text = "barrier of group " + std::string(key) + " (" + std::to_string(member.n_) +
                       " members) abandoned: member " + std::to_string(member.id_) + " " +
                       event + " before reaching barrier #" + std::to_string(member.epoch_ + 1);
    host().abandon_barriers(member.coordinator(), member.key_, member.epoch_, text);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "poc: could not report an abandoned barrier: %s\n", e.what());
  }
}

} // namespace detail
} // namespace poc
