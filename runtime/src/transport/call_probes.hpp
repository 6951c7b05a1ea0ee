#pragma once
/// \file
/// Time stamps along one synchronous call, for the step-by-step breakdown
/// of bench/runtime/profile_call.sh (bench/RESULTS.md "Runtime"). Only a
/// build configured with -DPOC_CALL_PROBES=ON records them; elsewhere
/// POC_PROBE compiles to nothing. Each point keeps the processor's time
/// stamp counter (synchronized across the cores of a node, so stamps of two
/// ranks on one node compare) for every time it is passed, and each host
/// writes them to $POC_PROBES_OUT.<host> when the runtime ends.

#ifdef POC_CALL_PROBES

namespace poc::detail::probes {

/// The points, in the order one call passes them.
enum Point : unsigned {
  call_entered,    ///< the caller enters the runtime (arguments encoded)
  request_sending, ///< its reply slot and connection are ready
  request_sent,    ///< MPI_Isend of the request has returned
  request_polled,  ///< the serving host's poller has received the request
  request_parsed,  ///< its bytes are copied out and checked (a Message)
  request_routed,  ///< the router holds the host mutex
  method_entered,  ///< a pool thread runs the request (mutex released)
  reply_sending,   ///< the method has returned and its reply is encoded
  reply_sent,      ///< MPI_Isend of the reply has returned
  reply_polled,    ///< the caller's host has received the reply
  reply_parsed,    ///< its bytes are copied out and checked (a Message)
  reply_routed,    ///< the reply is in its slot and waiters are notified
  caller_resumed,  ///< the caller's wait has returned
  call_returned,   ///< the caller leaves the runtime with the reply
  kPoints
};

/// Records that this thread passes `p` now.
void mark(Point p) noexcept;
/// Writes the stamps to $POC_PROBES_OUT.<host> (if set).
void write(int host) noexcept;

} // namespace poc::detail::probes

#define POC_PROBE(point) ::poc::detail::probes::mark(::poc::detail::probes::point)
#define POC_PROBES_WRITE(host) ::poc::detail::probes::write(host)

#else

#define POC_PROBE(point) static_cast<void>(0)
#define POC_PROBES_WRITE(host) static_cast<void>(host)

#endif
