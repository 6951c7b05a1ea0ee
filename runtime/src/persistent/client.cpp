// The persistence layer's client side: activating, creating and
// checkpointing persistent processes (declared in <poc/persistent.hpp>).

#include "process/calls.hpp"
#include "process/placement.hpp"

#include <poc/persist/address.hpp>
#include <poc/persist/store.hpp>
#include <poc/persistent.hpp>

#include <string>
#include <string_view>

namespace poc::detail {
namespace {

persist::Address parse_address(std::string_view text) {
  try {
    return persist::Address::parse(text);
  } catch (const persist::store_error &e) {
    throw usage_error(e.what());
  }
}

/// The id of the persistent process at `address` on `m`. Every caller
/// derives the same id (host chosen from the address, serial from its hash
/// with the top bit set, which the per-rank serials of new processes never
/// reach), so they all name one process without asking a directory.
ProcessId persistent_id(const machine &m, const persist::Address &address) {
  std::uint64_t key = method_id(address.str());
  int h = host_for_key(m, key);
  return ProcessId{h, h, key | (std::uint64_t{1} << 63)};
}

} // namespace

const machine &any_machine() {
  static const machine m{""};
  return m;
}

void *activate_persistent(std::type_index type, const machine &m, std::string_view address,
                          std::size_t min_bytes) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  persist::Address addr = parse_address(address);
  ProcessId id = persistent_id(m, addr);
  Writer w;
  begin_message(w);
  w.write(addr.str());
  MessagePtr reply =
      request_reply(h, Kind::activate, RequestHead{id, 0, cls.key, 0, h.callers().current().id}, w);
  Reader r(body_of(*reply));
  bool found = r.read<bool>();
  r.expect_end();
  return found ? reference_to(id, min_bytes) : nullptr;
}

void *create_persistent(std::type_index type, const machine &m, std::string_view address,
                        std::uint64_t ctor, Writer &w, std::size_t min_bytes) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  persist::Address addr = parse_address(address);
  ProcessId id = persistent_id(m, addr);
  request_reply(h, Kind::persist_create,
                RequestHead{id, ctor, cls.key, 0, h.callers().current().id}, w);
  return reference_to(id, min_bytes);
}

void checkpoint_process(const void *p) {
  Host &h = host();
  ProcessId id = target_of(p);
  if (h.callers().current().self == id)
    throw usage_error("poc: a persistent process cannot checkpoint itself inside its own method "
                      "(the save happens between methods; start a checkpoint from elsewhere)");
  Writer w;
  begin_message(w);
  request_reply(h, Kind::checkpoint, RequestHead{id, 0, 0, 0, h.callers().current().id}, w);
}

} // namespace poc::detail
