//===- dataflow/command_line.hpp - The dataflow programs' options --------===//
///
/// \file
/// Options every dataflow program takes (--scheduler, --workers, --steal,
/// --allocation, --stats, --sequential), plus the program's own, parsed
/// from argv. A bad option is a usage_error whose message names it.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/run_options.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dataflow {

class usage_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

class CommandLine {
public:
  /// `synopsis`: the program's own options and operands, for the usage text.
  explicit CommandLine(std::string program, std::string synopsis = "");

  /// A program option taking a value: `--name VALUE` or `--name=VALUE`.
  /// `name` is "--count" or "count" (the same option); a name that starts
  /// with a single "-" is a std::invalid_argument. With `alone`, the option
  /// may also be given without a value (last, or before another option),
  /// and then means `--name=alone` (`--steal` is `--steal on`).
  void option(std::string name, std::string help, std::function<void(const std::string &)> set,
              std::optional<std::string> alone = std::nullopt);
  /// An integer option with a lower bound.
  void option(std::string name, std::string help, long &value, long minimum);
  /// A size option (a count, a block size) with a lower bound.
  void option(std::string name, std::string help, std::size_t &value, std::size_t minimum);
  /// The program takes exactly `count` operands: program_main refuses
  /// others with a usage_error saying `message` (after --help is served).
  /// Without this call a program takes none ("takes no operands").
  void operands(std::size_t count, std::string message);
  /// The program takes `minimum` operands or more (a list of sizes, say).
  void operands_from(std::size_t minimum, std::string message);
  /// Throws the usage_error of operands() if `given` is not as many as
  /// the program takes.
  void check_operands(const std::vector<std::string> &given) const;

  /// Parses argv; returns the operands. Throws usage_error.
  std::vector<std::string> parse(int argc, char **argv);

  const RunOptions &run_options() const noexcept { return run_; }
  /// --sequential: run the program's sequential version instead, or (in
  /// `run(build, args..., line)`) the graph in this process, one job at a
  /// time.
  bool sequential() const noexcept { return sequential_; }
  /// --stats: `run` prints the run's counters and node table when it ends
  /// (run_options() has print_stats and node_stats).
  bool stats() const noexcept { return stats_; }
  /// --help was given: print usage() and exit 0.
  bool help() const noexcept { return help_; }
  std::string usage() const;
  const std::string &program() const noexcept { return program_; }

private:
  struct Option {
    std::string name;
    std::string help;
    std::function<void(const std::string &)> set;
    std::optional<std::string> alone;
  };
  std::string program_;
  std::string synopsis_;
  std::vector<Option> options_;
  RunOptions run_;
  /// How many operands the program takes.
  std::size_t operand_minimum_ = 0;
  std::size_t operand_maximum_ = 0;
  std::string operand_message_ = "takes no operands";
  bool sequential_ = false;
  bool stats_ = false;
  bool help_ = false;
};

/// Runs a dataflow program's main: parses options with `line`, checks the
/// operands (CommandLine::operands), calls `body(operands)`, and turns usage errors into exit
/// status 2 (with the usage text) and other errors into a message and status 1.
int program_main(CommandLine &line, int argc, char **argv,
                 const std::function<void(const std::vector<std::string> &)> &body);

/// Prints the counters of a run (--stats), to standard error.
void print_stats(const RunStats &stats);

} // namespace dataflow
