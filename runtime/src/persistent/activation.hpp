#pragma once
/// \file
/// The persistence layer's server side (docs/persistence.md): executes the
/// requests that activate, create and checkpoint persistent processes, and
/// saves an active process when the job ends. Each active persistent
/// process holds a lease on its address, so two jobs never run the same
/// object.

#include "process/host.hpp"

#include <poc/persist/address.hpp>
#include <poc/persist/lease.hpp>
#include <poc/persist/store.hpp>

#include <memory>
#include <mutex>

namespace poc::detail {

class PersistentProcesses final : public ProcessExtension {
public:
  bool handles(Kind k) const noexcept override {
    return k == Kind::activate || k == Kind::persist_create || k == Kind::checkpoint;
  }
  bool execute(Host &host, Process &p, const Message &m, Request &rq, Writer &reply) override;
  /// delete of a persistent process removes it from the store for good.
  void on_delete(Process &p) override;
  /// Saves the process's state and gives up its lease.
  void on_job_end(Process &p) noexcept override;

private:
  /// What a persistent process carries while it is active.
  struct Active final : ProcessAttachment {
    Active(persist::Address a, persist::Lease l) : address(std::move(a)), lease(std::move(l)) {}
    persist::Address address;
    persist::Lease lease;
  };
  static Active &active(Process &p) { return static_cast<Active &>(*p.attachment); }

  /// The object store (Store::default_root(), opened on first use). Throws
  /// store_error(no_root).
  const persist::Store &store();
  /// Saves `p` now (a checkpoint request).
  void checkpoint(Process &p, Request &rq);
  /// Writes `object`, the state of `p`, as the record at `address`; a
  /// slice of the trace (POC_TRACE).
  void save(const Process &p, const persist::Address &address, const void *object);
  /// Activates `p` from its record, or creates it by its constructor;
  /// true if activation found no record (the process ends).
  bool activate(Host &host, Process &p, const Message &m, Request &rq, Writer &reply);

  std::mutex store_mu_;
  std::unique_ptr<persist::Store> store_;
};

} // namespace poc::detail
