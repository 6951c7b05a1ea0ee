#include "host.hpp"

#include "trace/recorder.hpp"
#include "transport/host_numbers.hpp"

#include <poc/group_communicator.hpp>
#include <poc/process_group.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <map>

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
  detail::trace::Slice traced(detail::trace::Cat::barrier);
  if (traced.active())
    traced.event().id = key_;
  h.barriers().arrive(coordinator, key_, epoch, static_cast<std::uint64_t>(n_));
  detail::HostLock lk = h.lock();
  h.barriers().wait(lk, key_, epoch, h.stopping(lk));
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

MPI_Comm make_group_communicator(const ProcessGroupMember &member) {
  const int n = member.NumberOfProcesses();
  if (n == 0)
    throw usage_error("poc: make_group_communicator called by a process that is not in a "
                      "group (call SetProcessGroup first)");
  ProcessGroupMember **group = member.ProcessGroup();
  const int here = detail::host().rank();
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::map<int, int> member_on_rank;
  std::uint64_t tag_hash = 0;
  for (int i = 0; i < n; ++i) {
    ProcessGroupMember *m = group[i];
    const int host = m && is_remote(m) ? remote_id(m).host : here;
    if (detail::is_spawned_host(host))
      throw usage_error("poc: make_group_communicator: member " + std::to_string(i) +
                        " runs on spawned host " + std::to_string(host) +
                        ", which is not an MPI rank of the job");
    auto [it, fresh] = member_on_rank.emplace(host, i);
    if (!fresh)
      throw usage_error("poc: make_group_communicator: members " + std::to_string(it->second) +
                        " and " + std::to_string(i) + " both run on rank " + std::to_string(host) +
                        "; a communicator needs one member per rank");
    ranks[static_cast<std::size_t>(i)] = host;
    tag_hash = tag_hash * 1000003u + static_cast<std::uint64_t>(host) + 1;
  }
  MPI_Group world_group, members;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, n, ranks.data(), &members);
  MPI_Comm comm = MPI_COMM_NULL;
  // Every member computes the same tag; groups over other ranks may use
  // another one (the tag only separates concurrent creations).
  const int tag = static_cast<int>(tag_hash % 32749u);
  const int rc = MPI_Comm_create_group(MPI_COMM_WORLD, members, tag, &comm);
  MPI_Group_free(&members);
  MPI_Group_free(&world_group);
  if (rc != MPI_SUCCESS)
    throw std::runtime_error("poc: make_group_communicator: MPI_Comm_create_group failed");
  return comm;
}

namespace detail {

void abandon_barriers(const ProcessGroupMember &member, const std::string &event) noexcept {
  if (member.n_ == 0)
    return;
  try {
    std::string text = fmt::format(
        "barrier of group {:016x} ({} members) abandoned: member {} {} before reaching barrier #{}",
        member.key_, member.n_, member.id_, event, member.epoch_ + 1);
    host().barriers().abandon(member.coordinator(), member.key_, member.epoch_, text);
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: could not report an abandoned barrier: {}\n", e.what());
  }
}

} // namespace detail
} // namespace poc
