#pragma once
/// \file
/// The client side of requests, for the layers built on the process model
/// (persistence sends its own kinds of request through it).

#include "host.hpp"

#include <poc/transport.hpp>

namespace poc::detail {

/// The process the remote reference `p` names; usage_error for a null or a
/// local pointer.
ProcessId target_of(const void *p);

/// Sends request `w` (begun with begin_message) of kind `kind` with `head`
/// to its target, taking a reply token, and waits for the reply. Throws
/// the remote failure (remote_error) if the request failed; `what`, if
/// given, names the call in the error of one that reached a deleted process.
MessagePtr request_reply(Host &h, Kind kind, RequestHead head, Writer &w,
                         const char *what = nullptr);

} // namespace poc::detail
