//===- process/reference_codec.cpp - Pointers that are process references -===//
//
// The out-of-line halves of poc/gen/arguments.hpp: one function for every
// class whose pointers are only ever null or a reference to a process, and
// the error of an element count a message cannot hold. They are the same
// for every type, so the runtime compiles them once instead of every
// translation that uses them.
//
//===----------------------------------------------------------------------===//
#include <poc/gen/arguments.hpp>

#include <optional>
#include <string>

namespace poc::detail {

void write_reference(Writer &w, const void *p, const void *complete, const std::type_info &type) {
  if (p == nullptr) {
    w.write_byte(kNullPointer);
    return;
  }
  std::optional<ProcessId> id = is_remote(p) ? remote_id(p) : hosted_id(complete);
  if (!id)
    throw encode_error("poc: cannot send a local object of class '" + type_name(type) +
                       "' by value: a pointer to it is a reference to a process");
  w.write_byte(kRemoteReference);
  w.write(*id);
}

void *read_reference(Reader &r, std::size_t size, const std::type_info &type) {
  std::uint8_t tag = r.read_byte();
  if (tag == kNullPointer)
    return nullptr;
  if (tag != kRemoteReference)
    r.fail("a pointer to class '" + type_name(type) +
           "' is null or a reference to a process, not pointer tag " + std::to_string(tag));
  ProcessId id;
  r.read(id);
  return reference_to(id, size);
}

void throw_count_exceeds(std::uint64_t n) {
  throw decode_error("poc: array of " + std::to_string(n) + " elements exceeds the message");
}

} // namespace poc::detail
