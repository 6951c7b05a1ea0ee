#pragma once
/// \file
/// One process hosted here, and the hook through which the layer above the
/// process model (persistence) executes the requests that are its own.

#include "callers.hpp"
#include "failure.hpp"

#include <poc/gen/registration.hpp>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace poc::detail {

class Host;

/// State a layer above the process model keeps for one process
/// (persistence: its address and its lease).
class ProcessAttachment {
public:
  virtual ~ProcessAttachment() = default;
};

/// One process hosted here.
struct Process {
  enum class State { constructing, live, failed, ended };
  ProcessId id;
  const ClassInfo *cls = nullptr;
  void *object = nullptr;
  State state = State::constructing;
  std::string failure;
  std::deque<std::unique_ptr<Message>> mailbox;
  /// A pool thread serves the mailbox, or is assigned to (Host): at most
  /// one at a time, so requests run in the order they arrived.
  bool served = false;
  Context context;
  /// The layer above's state for this process, null if it keeps none.
  std::unique_ptr<ProcessAttachment> attachment;
};

/// The requests the process model routes to a process but does not execute
/// itself (activate, persist_create, checkpoint), and what the layer that
/// does must hear about the processes it attached state to.
class ProcessExtension {
public:
  /// True for the request kinds execute takes.
  virtual bool handles(Kind k) const noexcept = 0;
  /// Executes request `m` for process `p` on `p`'s thread, writing its
  /// reply's body to `reply`; true if the process ended. Sets `p`'s object
  /// through `host.make_live` when it makes one.
  virtual bool execute(Host &host, Process &p, const Message &m, Request &rq, Writer &reply) = 0;
  /// `p`, which has an attachment, is being deleted.
  virtual void on_delete(Process &p) = 0;
  /// The job ends while `p`, which has an attachment, is live.
  virtual void on_job_end(Process &p) noexcept = 0;

protected:
  ~ProcessExtension() = default;
};

} // namespace poc::detail
