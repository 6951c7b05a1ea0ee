//===- dataflow/worker.hpp - A Worker process ----------------------------===//
///
/// \file
/// Worker processes run the ready jobs of their machine's run: `run` starts
/// `work` on each, and it returns when the run ends. The workers of one
/// machine share its run in memory (they are processes of one host, found
/// by the run's id). Compiled by poc++ with each program.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/entry.hpp>

#include <poc/sync.hpp>

#include <cstdint>

namespace dataflow {

/// Runs ready jobs of its machine's run until the run ends.
class Worker {
public:
  Worker() = default;
  /// Worker `index` of its machine works on run `run_id` until it ends,
  /// then waits for the calls it started.
  void work(std::uint64_t run_id, int index) {
    detail::find_run(run_id)->work(index);
    poc::sync();
  }
};

} // namespace dataflow
