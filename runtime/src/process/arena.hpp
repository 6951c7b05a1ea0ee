#pragma once
/// \file
/// The remote arena (docs/runtime.md section 2): a PROT_NONE address range
/// whose slots stand for processes. Also the registry of objects hosted
/// here, for poc::hosted_id.

#include <poc/gen/registration.hpp>
#include <poc/process_id.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace poc::detail {

/// Bytes of an ordinary slot; larger objects and arrays get larger slots.
inline constexpr std::size_t kSlotBytes = std::size_t{1} << 20;

/// Installs the SIGSEGV handler that explains accidental dereferences of
/// remote references.
void install_arena_fault_handler();

/// Records that `object`, of class `cls`, is process `id` hosted here;
/// forget_hosted removes it.
void register_hosted(void *object, const ClassInfo &cls, const ProcessId &id);
void forget_hosted(const void *object);

/// Sets the number of ranks of the job, which bounds the host of every
/// ProcessId that reference_to accepts (a rank, or a host spawned by one);
/// 0 (the default, and outside poc::run) disables the check.
void set_job_size(int hosts) noexcept;

/// The error of a request to a process that has ended:
/// "process 0.0.1 (ns::T) has ended".
std::string ended_text(const ProcessId &id, const std::string &class_name);
/// True if `message` is an ended_text.
bool is_ended_text(const std::string &message) noexcept;

} // namespace poc::detail
