#include "request_trace.hpp"

#include <poc/gen/registration.hpp>

namespace poc::detail {

std::uint32_t describe_send(trace::Slice &s, int host, const RequestHead &head, const Writer &w) {
  trace::Event &e = s.event();
  e.method = head.member;
  e.process = head.target;
  e.bytes = w.size();
  for (const Writer::Block &b : w.out_of_band())
    e.oob_bytes += b.size;
  if (const ClassInfo *cls = head.klass ? find_class(head.klass) : nullptr) {
    // A creation is named by its class (the `what` of a started one is a
    // temporary).
    e.cls = cls->name.c_str();
    e.name = nullptr;
  }
  const std::uint32_t flow = trace::next_flow();
  e.id = trace::flow_id(host, flow);
  s.flow_out(e.id);
  return flow;
}

void describe_receive(trace::Slice &s, const Message &m) {
  trace::Event &e = s.event();
  e.process = m.head<RequestHead>().target;
  e.from = m.source();
  e.bytes = m.body().size();
  if (const std::uint32_t flow = m.envelope().flow)
    s.flow_out(trace::flow_id(m.source(), flow), trace::Phase::flow_step);
}

void describe_serve(trace::Slice &s, const Process &p, const Message &m) {
  trace::Event &e = s.event();
  e.method = m.head<RequestHead>().member;
  e.cls = p.cls->name.c_str();
  e.process = p.id;
  e.from = m.source();
  e.bytes = m.body().size();
  if (const std::uint32_t flow = m.envelope().flow) {
    e.id = trace::flow_id(m.source(), flow);
    s.flow_in(e.id);
  }
}

} // namespace poc::detail
