// The runtime's side of poc::Request (declared in <poc/gen/request.hpp>).

#include <fmt/format.h>
#include <poc/errors.hpp>
#include <poc/gen/request.hpp>

namespace poc {

void Request::unknown_method(std::uint64_t id, const char *class_name) {
  if (!class_name)
    throw protocol_error(fmt::format("poc: unknown method or constructor id 0x{:016x} (client and "
                                     "server compiled from different declarations?)",
                                     id));
  throw protocol_error(fmt::format(
      "poc: class '{}' has no method or constructor with id 0x{:016x} here: the calling program "
      "was built from other sources than this one (the method's declaration, or the fields of a "
      "class its arguments or result carry, differ); build both from the same sources",
      class_name, id));
}

void Request::finish_reply() {
  if (replied_ || !responder_)
    return;
  replied_ = true;
  responder_->respond(*reply_);
}

} // namespace poc
