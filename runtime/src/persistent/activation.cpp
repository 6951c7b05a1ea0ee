#include "activation.hpp"

#include "process/arena.hpp"
#include "trace/recorder.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>
#include <poc/gen/request.hpp>

#include <cstdio>

namespace poc::detail {

const persist::Store &PersistentProcesses::store() {
  std::lock_guard<std::mutex> g(store_mu_);
  if (!store_)
    store_ = std::make_unique<persist::Store>(persist::Store::default_root());
  return *store_;
}

bool PersistentProcesses::execute(Host &host, Process &p, const Message &m, Request &rq,
                                  Writer &reply) {
  if (m.kind() == Kind::checkpoint) {
    checkpoint(p, rq);
    return false;
  }
  return activate(host, p, m, rq, reply);
}

void PersistentProcesses::checkpoint(Process &p, Request &rq) {
  rq.args().expect_end();
  if (p.state != Process::State::live)
    throw usage_error("poc: process " + id_text(p.id) + " was not constructed: " + p.failure);
  if (!p.attachment)
    throw usage_error("poc: checkpoint of process " + id_text(p.id) + ", which is not persistent");
  save(p, active(p).address, p.object);
}

void PersistentProcesses::save(const Process &p, const persist::Address &address,
                               const void *object) {
  trace::Slice traced(trace::Cat::save);
  if (traced.active()) {
    traced.event().cls = p.cls->name.c_str();
    traced.event().process = p.id;
  }
  p.cls->persist->save(store(), address, p.cls->name, object);
}

bool PersistentProcesses::activate(Host &host, Process &p, const Message &m, Request &rq,
                                   Writer &reply) {
  auto address = persist::Address::parse(rq.args().read<std::string>());
  if (p.state == Process::State::live) {
    if (m.kind() == Kind::persist_create)
      throw usage_error("poc: persistent object '" + address.str() +
                        "' is already active (use poc::persistent<T> to reach it)");
    rq.args().expect_end();
    reply.write(true);
    return false;
  }
  if (!p.cls->persist)
    throw usage_error("poc: class " + p.cls->name +
                      " cannot be persistent: it has no poc::Serializer or no default constructor");
  const persist::Store &st = store();
  persist::Lease lease = st.lease(address);
  void *object = nullptr;
  if (m.kind() == Kind::activate) {
    rq.args().expect_end();
    if (!st.contains(address)) {
      reply.write(false);
      p.state = Process::State::ended;
      return true;
    }
    object = p.cls->persist->restore(st, address, p.cls->name);
    reply.write(true);
  } else {
    if (st.contains(address))
      throw usage_error("poc: persistent object '" + address.str() +
                        "' already exists (use poc::persistent<T> to activate it)");
    object = p.cls->construct(m.head<RequestHead>().member, rq);
    if (!object)
      throw protocol_error("poc: constructor returned no object");
    try {
      save(p, address, object);
    } catch (...) {
      try {
        p.cls->destroy(object);
      } catch (...) {
        // The failed save is what the caller needs to hear about.
      }
      throw;
    }
  }
  host.make_live(p, object);
  p.attachment = std::make_unique<Active>(std::move(address), std::move(lease));
  return false;
}

void PersistentProcesses::on_delete(Process &p) {
  // Removed while the lease is held, so no other job activates it meanwhile.
  store().remove(active(p).address);
  p.attachment.reset();
}

void PersistentProcesses::on_job_end(Process &p) noexcept {
  try {
    save(p, active(p).address, p.object);
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: could not save persistent process {} ('{}'): {}\n", p.id.host,
               id_text(p.id), active(p).address.str(), e.what());
  }
  p.attachment.reset();
}

} // namespace poc::detail
