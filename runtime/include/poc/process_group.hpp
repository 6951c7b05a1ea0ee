#pragma once
/// \file
/// Process groups (the paper's section 3.2).

#include <poc/annotations.hpp>
#include <poc/errors.hpp>
#include <poc/serialize.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace poc {

class ProcessGroupMember;

namespace detail {
/// Fails every barrier of `member`'s group from its current one on: the
/// member will not arrive (its method failed, or it is being deleted).
/// `event` says why, e.g. "was deleted". No effect outside a group.
void abandon_barriers(const ProcessGroupMember &member, const std::string &event) noexcept;
} // namespace detail

/// Base class of processes that work as a group: each member knows its index
/// in the group, the group's size and every member's reference, and can
/// wait for the others at a barrier. Derive from it non-virtually (a remote
/// reference is converted to `ProcessGroupMember*` without dereferencing).
class ProcessGroupMember {
public:
  virtual ~ProcessGroupMember() = default;

  /// This member's index in its group.
  int ID() const noexcept { return id_; }
  /// The group's size.
  int NumberOfProcesses() const noexcept { return n_; }
  /// The group: NumberOfProcesses() references, ProcessGroup()[ID()] being
  /// this member.
  ProcessGroupMember **ProcessGroup() const noexcept {
    return const_cast<ProcessGroupMember **>(group_.data());
  }

  /// Makes this process member `my_id` of the group of `my_N` processes
  /// `my_group[0..my_N)`, copying the references (a deep copy: later calls
  /// never go back to the caller's array). `my_group` may be an array of
  /// pointers to any class derived from ProcessGroupMember, e.g. `FFT3**`.
  template <class Derived>
  void SetProcessGroup(int my_id, int my_N, Derived *const *POC_COUNT(my_N) my_group) {
    static_assert(std::is_base_of_v<ProcessGroupMember, Derived>,
                  "poc: SetProcessGroup needs references to ProcessGroupMember classes");
    if (my_N <= 0 || my_id < 0 || my_id >= my_N || !my_group)
      throw std::invalid_argument("poc: SetProcessGroup(" + std::to_string(my_id) + ", " +
                                  std::to_string(my_N) + ", group): bad id or size");
    std::vector<ProcessGroupMember *> group(static_cast<std::size_t>(my_N));
    for (int i = 0; i < my_N; ++i)
      group[static_cast<std::size_t>(i)] = my_group[i];
    assign(my_id, std::move(group));
  }

  /// Returns only when every member of the group has called barrier() as
  /// many times as this member. Arrivals are handled by the runtime, not
  /// queued behind the members' methods. Throws usage_error outside a group,
  /// and remote_error if the barrier was abandoned: a member's method ended
  /// with an exception, or a member was deleted, before that member reached
  /// it (docs/runtime.md section 6).
  void barrier();

  /// Serialisation of the membership (for copies of derived objects).
  void poc_write(Writer &w) const;
  /// Deserialisation of the membership.
  void poc_read(Reader &r);

private:
  friend void detail::abandon_barriers(const ProcessGroupMember &, const std::string &) noexcept;

  void assign(int id, std::vector<ProcessGroupMember *> group);
  /// The host that counts this group's barrier arrivals (member 0's).
  int coordinator() const;

  int id_ = 0;
  int n_ = 0;
  std::vector<ProcessGroupMember *> group_;
  /// Identifies the group (hash of its members) for barrier messages.
  std::uint64_t key_ = 0;
  /// Number of barriers this member has passed.
  std::uint64_t epoch_ = 0;
};

} // namespace poc
