//===- dataflow/entry.hpp - Starting a machine's share of a run ----------===//
///
/// \file
/// Every machine builds the graph itself, by calling the program's graph
/// function with the run's input. The function travels as a *token*: its
/// offset from a function of this library, which is the same in every
/// process of one executable even when each loads it at a different
/// address (position-independent executables). The input travels encoded.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/machine_run.hpp>
#include <dataflow/stream_run.hpp>
#include <dataflow/task_run.hpp>

#include <cstdint>
#include <memory>
#include <span>

namespace dataflow {

/// Makes a machine's run from the graph function, the encoded input, the
/// settings and the transport.
using MachineRunFactory = std::unique_ptr<MachineRun> (*)(std::uintptr_t build,
                                                          std::span<const std::byte> input,
                                                          RunSettings settings,
                                                          Transport &transport);

namespace detail {
/// The reference point of function tokens.
void token_anchor();

template <class F> std::uintptr_t function_token(F *f) {
  return reinterpret_cast<std::uintptr_t>(f) - reinterpret_cast<std::uintptr_t>(&token_anchor);
}
template <class F> F *function_from_token(std::uintptr_t token) {
  return reinterpret_cast<F *>(token + reinterpret_cast<std::uintptr_t>(&token_anchor));
}

/// A machine's share of a run of the graph that the program's function
/// (token `build`) makes from the encoded input: a TaskRun of a TaskGraph,
/// or a StreamRun of a StreamGraph. A MachineRunFactory.
template <class Run, class Graph, class Input>
std::unique_ptr<MachineRun> make_run(std::uintptr_t build, std::span<const std::byte> input,
                                     RunSettings settings, Transport &transport) {
  poc::Reader in(input);
  Input value{};
  in.read(value);
  in.expect_end();
  return std::make_unique<Run>(
      std::make_shared<const Graph>(function_from_token<Graph(const Input &)>(build)(value)),
      std::move(settings), transport);
}

/// The encoded settings, and back.
std::vector<std::byte> encode_settings(const RunSettings &settings);
RunSettings decode_settings(std::span<const std::byte> bytes);

/// The machines' runs on this host, by run id, so that the workers find
/// their machine's run (they are processes of the same host).
void register_run(std::uint64_t id, std::shared_ptr<MachineRun> run);
std::shared_ptr<MachineRun> find_run(std::uint64_t id);
void unregister_run(std::uint64_t id);

/// The cores this process may run on.
int usable_cores();
} // namespace detail
} // namespace dataflow
