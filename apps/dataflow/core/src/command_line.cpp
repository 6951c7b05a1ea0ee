//===- command_line.cpp - The dataflow programs' options -----------------===//
#include <dataflow/command_line.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>

namespace dataflow {

namespace {

long parse_long(const std::string &option, const std::string &text, long minimum) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw usage_error(fmt::format("{} needs a whole number, got '{}'", option, text));
  if (value < minimum)
    throw usage_error(
        fmt::format("{} needs a number of at least {}, got {}", option, minimum, value));
  return value;
}

} // namespace

CommandLine::CommandLine(std::string program, std::string synopsis)
    : program_(std::move(program)), synopsis_(std::move(synopsis)) {
  option("--scheduler", "distributed (default: one per machine) or central (all through rank 0)",
         [this](const std::string &v) {
           if (v == "distributed")
             run_.scheduling = Scheduling::distributed;
           else if (v == "central")
             run_.scheduling = Scheduling::central;
           else
             throw usage_error(
                 fmt::format("--scheduler needs distributed or central, got '{}'", v));
         });
  option("--workers", "workers per machine (default: its cores shared among its ranks)",
         [this](const std::string &v) { run_.workers = parse_long("--workers", v, 1); });
  option(
      "--steal",
      "on (or --steal alone) or off (default): idle machines take ready tasks from busy "
      "ones",
      [this](const std::string &v) {
        if (v != "on" && v != "off")
          throw usage_error(fmt::format("--steal needs on or off, got '{}'", v));
        run_.steal = v == "on";
      },
      "on");
  option("--allocation", "FILE: read the placement from FILE, or write it there if absent",
         [this](const std::string &v) { run_.allocation_file = v; });
  option("--dot", "FILE: write the placed graph as Graphviz DOT (FILE.svg, .png: drawn by dot)",
         [this](const std::string &v) { run_.dot_file = v; });
  option("--trace", "FILE: write a Chrome trace-event JSON of the run (Perfetto)",
         [this](const std::string &v) { run_.trace_file = v; });
}

void CommandLine::option(std::string name, std::string help,
                         std::function<void(const std::string &)> set,
                         std::optional<std::string> alone) {
  if (name.empty() || name == "--" || (name[0] == '-' && name.compare(0, 2, "--") != 0))
    throw std::invalid_argument(fmt::format(
        "CommandLine::option: '{}' is not an option name: write \"--count\" or \"count\"", name));
  if (name.compare(0, 2, "--") != 0)
    name = "--" + name;
  options_.push_back({std::move(name), std::move(help), std::move(set), std::move(alone)});
}

void CommandLine::option(std::string name, std::string help, long &value, long minimum) {
  const std::string label = name.compare(0, 2, "--") == 0 ? name : "--" + name;
  option(std::move(name), std::move(help),
         [&value, label, minimum](const std::string &v) { value = parse_long(label, v, minimum); });
}

void CommandLine::option(std::string name, std::string help, std::size_t &value,
                         std::size_t minimum) {
  const std::string label = name.compare(0, 2, "--") == 0 ? name : "--" + name;
  option(std::move(name), std::move(help), [&value, label, minimum](const std::string &v) {
    value = static_cast<std::size_t>(parse_long(label, v, static_cast<long>(minimum)));
  });
}

void CommandLine::operands(std::size_t count, std::string message) {
  operand_minimum_ = operand_maximum_ = count;
  operand_message_ = std::move(message);
}

void CommandLine::operands_from(std::size_t minimum, std::string message) {
  operand_minimum_ = minimum;
  operand_maximum_ = SIZE_MAX;
  operand_message_ = std::move(message);
}

void CommandLine::check_operands(const std::vector<std::string> &given) const {
  if (given.size() < operand_minimum_ || given.size() > operand_maximum_)
    throw usage_error(operand_message_);
}

std::vector<std::string> CommandLine::parse(int argc, char **argv) {
  std::vector<std::string> operands;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg == "--sequential" || arg == "--stats") {
      (arg == "--stats" ? stats_ : sequential_) = true;
      run_.node_stats = run_.node_stats || arg == "--stats";
      run_.print_stats = run_.print_stats || arg == "--stats";
      continue;
    }
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      operands.push_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const Option *found = nullptr;
    for (const Option &o : options_)
      if (o.name == name)
        found = &o;
    if (!found)
      throw usage_error(fmt::format("unknown option '{}'", name));
    const bool alone = i + 1 == argc || std::string(argv[i + 1]).compare(0, 2, "--") == 0;
    std::string value;
    if (equals != std::string::npos)
      value = arg.substr(equals + 1);
    else if (alone && found->alone)
      value = *found->alone;
    else if (i + 1 < argc)
      value = argv[++i];
    else
      throw usage_error(fmt::format("{} needs a value", name));
    found->set(value);
  }
  return operands;
}

std::string CommandLine::usage() const {
  std::string text =
      fmt::format("usage: {} [options]{}{}\n", program_, synopsis_.empty() ? "" : " ", synopsis_);
  for (const Option &o : options_)
    text += fmt::format("  {:<14} {}\n", o.name, o.help);
  text += fmt::format("  {:<14} {}\n", "--sequential",
                      "run the program's sequential version, or the graph in this process");
  text += fmt::format("  {:<14} {}\n", "--stats",
                      "print the run's counters and a table per node on standard error");
  return text;
}

int program_main(CommandLine &line, int argc, char **argv,
                 const std::function<void(const std::vector<std::string> &)> &body) {
  std::vector<std::string> operands;
  try {
    operands = line.parse(argc, argv);
    if (line.help()) {
      std::fputs(line.usage().c_str(), stdout);
      return 0;
    }
    line.check_operands(operands);
    body(operands);
  } catch (const usage_error &e) {
    std::fprintf(stderr, "%s: %s\n%s", line.program().c_str(), e.what(), line.usage().c_str());
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", line.program().c_str(), e.what());
    return 1;
  }
  return 0;
}

void print_stats(const RunStats &stats) {
  fmt::print(stderr, "dataflow: {} machines, workers [{}], placement {:.6f} s{}, run {:.6f} s\n",
             stats.machines, fmt::join(stats.workers, " "), stats.placement_seconds,
             stats.placement_from_file ? " (from the allocation file)" : "", stats.run_seconds);
  MachineStats all;
  for (std::size_t m = 0; m < stats.per_machine.size(); ++m) {
    const MachineStats &s = stats.per_machine[m];
    fmt::print(stderr,
               "dataflow: machine {}: jobs {} batches sent {} received {} records received {} "
               "stolen {}\n",
               m, s.jobs_run, s.batches_sent, s.batches_received, s.records_received,
               s.jobs_stolen);
    all.jobs_run += s.jobs_run;
    all.jobs_restored += s.jobs_restored;
    all.checkpoints += s.checkpoints;
    all.checkpointed += s.checkpointed;
    all.checkpoint_us += s.checkpoint_us;
  }
  if (stats.attempt > 1)
    fmt::print(stderr,
               "dataflow: re-deploy after {} failure{}: the checkpoint held {} instances; {} "
               "jobs took their outputs from it, {} ran; it began at {:.6f}\n",
               stats.attempt - 1, stats.attempt > 2 ? "s" : "", stats.checkpoint_entries,
               all.jobs_restored, all.jobs_run - all.jobs_restored, stats.began_at);
  if (all.checkpoints > 0)
    fmt::print(stderr,
               "dataflow: checkpoints: {} records of {} instances, written in {:.3f} s (in the "
               "background)\n",
               all.checkpoints, all.checkpointed, static_cast<double>(all.checkpoint_us) / 1e6);
  if (stats.nodes.empty())
    return;
  std::size_t width = 4;
  for (const NodeStats &n : stats.nodes)
    width = std::max(width, n.name.size());
  fmt::print(stderr, "{:<{}} {:>7} {:>9} {:>6} {:>12} {:>12} {:>12} {:>12}\n", "node", width,
             "machine", "instances", "stolen", "total ms", "mean ms", "bytes in", "bytes out");
  for (const NodeStats &n : stats.nodes)
    fmt::print(stderr, "{:<{}} {:>7} {:>9} {:>6} {:>12.3f} {:>12.3f} {:>12} {:>12}\n", n.name,
               width, n.machine, n.instances, n.stolen, n.total_us / 1000,
               n.instances ? n.total_us / 1000 / static_cast<double>(n.instances) : 0.0, n.bytes_in,
               n.bytes_out);
}

} // namespace dataflow
