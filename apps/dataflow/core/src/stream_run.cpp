//===- stream_run.cpp - Vertices, their inboxes, and closing streams -----===//
#include <dataflow/stream_run.hpp>

#include <fmt/format.h>

#include <optional>

namespace dataflow {

thread_local Outbox *StreamRun::current_out_ = nullptr;

namespace {
/// Data a vertex reads in one job before it lets other vertices run.
constexpr std::size_t kDataPerJob = 64;
} // namespace

StreamRun::StreamRun(std::shared_ptr<const StreamGraph> graph, RunSettings settings,
                     Transport &transport)
    : MachineRun(std::move(settings), transport), graph_(std::move(graph)),
      inboxes_(graph_->vertices()), closed_(graph_->streams()), read_count_(graph_->streams(), 0),
      written_count_(graph_->streams(), 0), reports_(graph_->vertices()) {
  if (settings_.placement.size() != graph_->vertices())
    throw graph_error(fmt::format("the placement covers {} vertices, the graph has {}",
                                  settings_.placement.size(), graph_->vertices()));
}

void StreamRun::begin_locked(Outbox &out) {
  for (VertexId v = 0; v < graph_->vertices(); ++v)
    if (machine_of(v) == machine()) {
      ++local_vertices_;
      inboxes_[v].start_pending = true;
      schedule_locked(v, out);
    }
  if (local_vertices_ == 0)
    report_machine_done_locked(out);
}

void StreamRun::schedule_locked(VertexId v, Outbox &out) {
  Inbox &inbox = inboxes_[v];
  if (inbox.scheduled)
    return;
  inbox.scheduled = true;
  // A vertex's callback goes on running after it writes: wake a worker.
  push_ready_locked(Job{v, 0, {}}, out, false);
}

void StreamRun::execute(Job &job, Outbox &out) {
  const VertexId v = job.id;
  const VertexSpec &spec = graph_->vertex_spec(v);
  Vertex vertex(*this, v);
  bool start = false;
  std::vector<std::pair<StreamId, Operand>> data;
  {
    auto lk = lock();
    Inbox &inbox = inboxes_[v];
    start = std::exchange(inbox.start_pending, false);
    while (!inbox.data.empty() && data.size() < kDataPerJob) {
      data.push_back(std::move(inbox.data.front()));
      inbox.data.pop_front();
    }
  }
  current_out_ = &out;
  // The stream whose callback runs, if one does (named only on failure).
  std::optional<StreamId> reading;
  try {
    if (start && spec.on_start)
      spec.on_start(vertex);
    for (auto &[s, value] : data) {
      if (current_record_) {
        current_record_->bytes_in += value.encoded_size();
        note_datum(s, read_count_, current_record_->read);
      }
      {
        auto lk = lock();
        if (closed_[s])
          continue;
      }
      reading = s;
      if (graph_->stream_spec(s).on_datum(vertex, value) == Signal::close) {
        auto lk = lock();
        close_locked(s, out);
      }
    }
  } catch (...) {
    current_out_ = nullptr;
    const std::string where =
        reading ? fmt::format("stream {} ('{}' -> '{}') at vertex '{}'", *reading,
                              graph_->vertex_spec(graph_->stream_spec(*reading).tail).name,
                              spec.name, spec.name)
                : fmt::format("vertex '{}'", spec.name);
    auto lk = lock();
    fail_locked(where, std::current_exception(), out);
    return;
  }
  current_out_ = nullptr;
  auto lk = lock();
  if (start && ++started_ == local_vertices_)
    report_machine_done_locked(out);
  // What this job sent takes its place among the machine's batches before
  // another worker may run the vertex: the vertex's data and reports keep
  // their order across machines.
  seal_locked(out);
  Inbox &inbox = inboxes_[v];
  inbox.scheduled = false;
  if (!inbox.data.empty())
    schedule_locked(v, out);
}

void StreamRun::note_datum(StreamId s, std::vector<std::uint64_t> &count,
                           std::vector<std::vector<std::uint64_t>> &spans) const {
  const StreamSpec &stream = graph_->stream_spec(s);
  if (machine_of(stream.tail) == machine_of(stream.head))
    return;
  const std::uint64_t index = count[s]++;
  if (!spans.empty() && spans.back()[0] == s && spans.back()[1] + spans.back()[2] == index)
    ++spans.back()[2];
  else
    spans.push_back({s, index, 1});
}

const std::string &StreamRun::vertex_name(VertexId v) const { return graph_->vertex_spec(v).name; }

bool StreamRun::write(VertexId from, StreamId s, Operand value) {
  if (s >= graph_->streams())
    throw graph_error(
        fmt::format("vertex '{}' writes to stream {}, which does not exist", vertex_name(from), s));
  const StreamSpec &stream = graph_->stream_spec(s);
  if (stream.tail != from)
    throw graph_error(fmt::format("vertex '{}' writes to stream {}, whose tail is '{}'",
                                  vertex_name(from), s, vertex_name(stream.tail)));
  auto lk = lock();
  if (closed_[s])
    return false;
  if (current_record_) {
    current_record_->bytes_out += value.encoded_size();
    note_datum(s, written_count_, current_record_->written);
  }
  if (poc::Writer *w = route(machine_of(stream.head), *current_out_)) {
    w->write(RecordKind::datum);
    w->write(s);
    value.encode(*w);
  } else {
    deliver_locked(s, std::move(value), *current_out_);
  }
  return true;
}

void StreamRun::deliver_locked(StreamId s, Operand value, Outbox &out) {
  if (closed_[s])
    return;
  const VertexId head = graph_->stream_spec(s).head;
  inboxes_[head].data.emplace_back(s, std::move(value));
  schedule_locked(head, out);
}

void StreamRun::close(VertexId from, StreamId s) {
  if (s >= graph_->streams())
    throw graph_error(
        fmt::format("vertex '{}' closes stream {}, which does not exist", vertex_name(from), s));
  const StreamSpec &stream = graph_->stream_spec(s);
  if (stream.tail != from && stream.head != from)
    throw graph_error(fmt::format("vertex '{}' closes stream {} ('{}' -> '{}'), which is not "
                                  "its own",
                                  vertex_name(from), s, vertex_name(stream.tail),
                                  vertex_name(stream.head)));
  auto lk = lock();
  close_locked(s, *current_out_);
}

void StreamRun::close_locked(StreamId s, Outbox &out) {
  if (closed_[s])
    return;
  const StreamSpec &stream = graph_->stream_spec(s);
  // Both ends' machines and the coordinator learn of it, each once.
  int told[3] = {machine_of(stream.tail), machine_of(stream.head), 0};
  for (int i = 0; i < 3; ++i) {
    bool repeat = false;
    for (int j = 0; j < i; ++j)
      repeat = repeat || told[j] == told[i];
    if (repeat)
      continue;
    if (poc::Writer *w = route(told[i], out)) {
      w->write(RecordKind::stream_closed);
      w->write(s);
    }
  }
  mark_closed_locked(s, out);
}

void StreamRun::mark_closed_locked(StreamId s, Outbox &out) {
  if (closed_[s])
    return;
  closed_[s] = true;
  // Data still waiting on a closed stream is dropped.
  auto &data = inboxes_[graph_->stream_spec(s).head].data;
  std::erase_if(data, [s](const auto &d) { return d.first == s; });
  if (machine() == 0) {
    ++streams_closed_;
    check_complete_locked(out);
  }
}

void StreamRun::report(VertexId from, Operand value) {
  const Codec *declared = graph_->vertex_spec(from).reports;
  if (declared != value.codec())
    throw graph_error(
        declared ? fmt::format("vertex '{}' reports a value of type {}, but declared reports<{}>()",
                               vertex_name(from), value.codec()->name(), declared->name())
                 : fmt::format("vertex '{}' reports a value of type {}, but declared no reports "
                               "(call reports<{}>() on it)",
                               vertex_name(from), value.codec()->name(), value.codec()->name()));
  auto lk = lock();
  store_report_locked(from, std::move(value), *current_out_);
}

void StreamRun::store_report_locked(VertexId v, Operand value, Outbox &out) {
  if (poc::Writer *w = route(0, out)) {
    w->write(RecordKind::result);
    w->write(v);
    value.encode(*w);
    return;
  }
  reports_[v].push_back(std::move(value));
}

StreamId StreamRun::checked_stream(std::uint64_t s) const {
  if (s >= graph_->streams())
    throw poc::decode_error(fmt::format("stream {} of a graph of {}", s, graph_->streams()));
  return static_cast<StreamId>(s);
}

void StreamRun::apply_locked(RecordKind kind, poc::Reader &in, Outbox &out) {
  switch (kind) {
  case RecordKind::datum: {
    const StreamId s = checked_stream(in.read<StreamId>());
    const StreamSpec &stream = graph_->stream_spec(s);
    if (machine_of(stream.head) != machine())
      throw poc::decode_error(fmt::format("a datum on stream {}, whose head is on machine {}", s,
                                          machine_of(stream.head)));
    deliver_locked(s, Operand::decode(*stream.codec, in), out);
    return;
  }
  case RecordKind::stream_closed:
    mark_closed_locked(checked_stream(in.read<StreamId>()), out);
    return;
  case RecordKind::result: {
    const auto v = in.read<VertexId>();
    if (v >= graph_->vertices() || !graph_->vertex_spec(v).reports)
      throw poc::decode_error(fmt::format("a report of vertex {}", v));
    store_report_locked(v, Operand::decode(*graph_->vertex_spec(v).reports, in), out);
    return;
  }
  default:
    throw poc::decode_error(
        fmt::format("record kind {} in a stream graph run", static_cast<int>(kind)));
  }
}

bool StreamRun::complete_locked() const { return streams_closed_ == graph_->streams(); }

void StreamRun::write_results_locked(poc::Writer &out) const {
  for (VertexId v = 0; v < graph_->vertices(); ++v) {
    if (!graph_->vertex_spec(v).reports)
      continue;
    out.write(static_cast<std::uint64_t>(reports_[v].size()));
    for (const Operand &value : reports_[v])
      value.encode(out);
  }
}

void StreamRun::write_job(const Job &, poc::Writer &) const {
  throw std::logic_error("a vertex never moves to another machine");
}

Job StreamRun::read_job(poc::Reader &) const {
  throw poc::decode_error("a vertex job sent to another machine");
}

Results read_stream_results(const StreamGraph &graph, std::span<const std::byte> outcome) {
  poc::Reader in(outcome);
  throw_if_failed(in);
  Results results;
  for (VertexId v = 0; v < graph.vertices(); ++v) {
    const VertexSpec &spec = graph.vertex_spec(v);
    if (!spec.reports)
      continue;
    results.declare(spec.name, 0, *spec.reports);
    for (auto n = in.read<std::uint64_t>(); n > 0; --n)
      results.add(spec.name, 0, Operand::decode(*spec.reports, in));
  }
  in.expect_end();
  return results;
}

} // namespace dataflow
