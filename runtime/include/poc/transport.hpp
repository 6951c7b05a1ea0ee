#pragma once
/// \file
/// The non-template entry points of the runtime that the templates of
/// <poc/future.hpp> (for users) and <poc/gen/call.hpp> and
/// <poc/gen/create.hpp> (for generated code) build on. The wire format
/// behind them is private to the runtime (runtime/src/transport/wire.hpp).

#include <poc/machine.hpp>
#include <poc/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <typeindex>

namespace poc::detail {

/// A reply that arrived: its bytes, and its out-of-band blocks still to be
/// received. Defined by the runtime (its wire format is private to it).
class Message;
struct MessageDeleter {
  void operator()(Message *m) const noexcept;
};
using MessagePtr = std::unique_ptr<Message, MessageDeleter>;

/// The copy-backs and the result a reply carries.
std::span<const std::byte> body_of(const Message &m) noexcept;
/// Where a Reader of the reply's body takes its out-of-band blocks from.
BlockSource &blocks_of(Message &m) noexcept;

/// Reserves room for the request's envelope and head at the front of an
/// empty writer; the runtime fills it in when the request is sent.
void begin_message(Writer &w);

/// Sends the request in `w` to the process `target` refers to and waits for
/// the reply. Throws remote_error if the method threw. `what` names the
/// method ("ns::T::f") for the error of a call to a process that has ended.
MessagePtr call_sync(const void *target, std::uint64_t method, Writer &w,
                     const char *what = nullptr);

/// Sends a started call and returns once it is on its way (and, for
/// out-of-band blocks, once the caller's memory may be reused). `what`
/// names the method ("ns::T::f") in its error, reported by the caller's
/// next poc::sync() or, if none comes, when the program ends.
void call_start(const void *target, std::uint64_t method, Writer &w, const char *what = nullptr);

/// Where the reply of a started call with a future arrives.
class ReplySlot;

/// Sends a started call whose reply goes to the returned slot; `what`
/// names the call as call_sync's does.
std::shared_ptr<ReplySlot> call_start_future(const void *target, std::uint64_t method, Writer &w,
                                             const char *what = nullptr);
/// True once the reply is in.
bool reply_ready(const ReplySlot &slot);
/// Waits for the reply.
void reply_wait(ReplySlot &slot);
/// Waits for and takes the reply; throws remote_error if the method threw,
/// usage_error if the reply was already taken.
MessagePtr reply_take(ReplySlot &slot);

/// Creates a process of the registered class `type` on machine `m` with
/// constructor `ctor` and the arguments in `w`; returns its reference (an
/// arena address whose slot holds at least `min_bytes`). `started`: return
/// at once (errors at the next sync()), else wait for the constructor.
void *create_process(std::type_index type, const machine &m, std::uint64_t ctor, Writer &w,
                     std::size_t min_bytes, bool started);

/// Ends the process `p` refers to after its queued requests, running its
/// destructor; waits for that.
void destroy_process(const void *p);

} // namespace poc::detail
