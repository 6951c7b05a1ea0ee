#pragma once
/// \file
/// What a trace (POC_TRACE, trace/recorder.hpp) shows of one request: the
/// caller's slice, which starts the request's flow, and the slice of the
/// process that serves it, which ends the flow.

#include "process.hpp"
#include "trace/recorder.hpp"
#include "transport/message.hpp"

#include <poc/serialize/writer.hpp>

#include <cstdint>

namespace poc::detail {

/// The category of a request of kind `kind`.
constexpr trace::Cat trace_cat(Kind kind) noexcept {
  switch (kind) {
  case Kind::start:
    return trace::Cat::start;
  case Kind::start_future:
    return trace::Cat::future;
  case Kind::create:
  case Kind::start_create:
    return trace::Cat::create;
  case Kind::destroy:
    return trace::Cat::destroy;
  case Kind::activate:
  case Kind::persist_create:
    return trace::Cat::activate;
  case Kind::checkpoint:
    return trace::Cat::checkpoint;
  default:
    return trace::Cat::call;
  }
}

/// Describes in the caller's slice `s`, which is recorded, request `head`
/// that host `host` sends, encoded in `w`, and starts its flow. Returns the
/// flow number for the request's envelope.
std::uint32_t describe_send(trace::Slice &s, int host, const RequestHead &head, const Writer &w);

/// describe_send if `s` is recorded; else 0, the envelope's "not traced".
inline std::uint32_t trace_send(trace::Slice &s, int host, const RequestHead &head,
                                const Writer &w) {
  return s.active() ? describe_send(s, host, head, w) : 0;
}

/// Describes in the slice `s`, which is recorded, of the thread that
/// received request `m` and routes it, and passes the request's flow.
void describe_receive(trace::Slice &s, const Message &m);

/// Describes in the serving slice `s`, which is recorded, request `m` to
/// `p`, and ends the request's flow there.
void describe_serve(trace::Slice &s, const Process &p, const Message &m);

} // namespace poc::detail
