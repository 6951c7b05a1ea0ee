//===- dataflow/entry.hpp - Starting a machine's share of a run ----------===//
///
/// \file
/// Every machine builds the graph itself, by calling the program's graph
/// function with the run's input. The function travels as a *token*: its
/// offset from a function of this library, which is the same in every
/// process of one executable even when each loads it at a different
/// address (position-independent executables). Its arguments travel
/// encoded, as one tuple.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/machine_run.hpp>
#include <dataflow/stream_run.hpp>
#include <dataflow/task_run.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

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
/// (token `build`, taking parameters P...) makes from the encoded input, a
/// tuple of its arguments: a TaskRun of a TaskGraph, or a StreamRun of a
/// StreamGraph. A MachineRunFactory.
/// Encodes (decodes) a graph function's arguments one by one, not as one
/// tuple: poc++ generates the serializers of the program's classes that
/// the program's files write or read themselves, not those inside a tuple.
template <class Tuple, std::size_t... I>
void write_arguments(poc::Writer &out, const Tuple &arguments, std::index_sequence<I...>) {
  (out.write(std::get<I>(arguments)), ...);
}
template <class Tuple, std::size_t... I>
void read_arguments(poc::Reader &in, Tuple &arguments, std::index_sequence<I...>) {
  (in.read(std::get<I>(arguments)), ...);
}

template <class Run, class Graph, class... P>
std::unique_ptr<MachineRun> make_run(std::uintptr_t build, std::span<const std::byte> input,
                                     RunSettings settings, Transport &transport) {
  poc::Reader in(input);
  std::tuple<std::remove_cvref_t<P>...> arguments{};
  read_arguments(in, arguments, std::index_sequence_for<P...>{});
  in.expect_end();
  return std::make_unique<Run>(
      std::make_shared<const Graph>(std::apply(function_from_token<Graph(P...)>(build), arguments)),
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

} // namespace detail
} // namespace dataflow
