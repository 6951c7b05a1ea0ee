#include "bdd/reach_options.hpp"

#include "bdd/choice.hpp"
#include "bdd/distributed_memory.hpp"
#include "bdd/model.hpp"
#include "bdd/reachability.hpp"

#include <charconv>

namespace bdd {

namespace {

int parse_int(const std::string &option, const std::string &text, int lo, int hi) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi)
    throw OptionError(option + " needs an integer in " + std::to_string(lo) + ".." +
                      std::to_string(hi) + ", got '" + text + "'");
  return value;
}

/// Runs a parse_* checker, turning its complaint into an OptionError.
template <class Check> void check_choice(Check &&check) {
  try {
    check();
  } catch (const std::invalid_argument &e) {
    throw OptionError(e.what());
  }
}

/// "on" or "off" as a bool.
bool parse_switch(const std::string &option, const std::string &text) {
  bool on = false;
  check_choice([&] { on = parse_choice<bool>(option, text, {{"on", true}, {"off", false}}); });
  return on;
}

} // namespace

const char *reach_usage() {
  return "usage: bdd-reach [--strategy bfs|chain|sat] [--format auto|sylvan|2014]\n"
         "                 [--table-mib N] [--cache-mib N] [--chunk C]\n"
         "                 [--access auto|rma|shared] [--steal on|off] [--gc on|off]\n"
         "                 [--threads N] [--spawn-depth D] [--progress] MODEL.bdd\n";
}

ReachOptions parse_reach_options(const std::vector<std::string> &args) {
  ReachOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&]() -> const std::string & {
      if (i + 1 >= args.size())
        throw OptionError(a + " needs a value");
      return args[++i];
    };
    if (a == "--strategy") {
      o.strategy = value();
      check_choice([&] { parse_strategy(o.strategy); });
    } else if (a == "--format") {
      o.format = value();
      check_choice([&] { parse_model_format(o.format); });
    } else if (a == "--access") {
      o.access = value();
      check_choice([&] { parse_access(o.access); });
    } else if (a == "--table-mib") {
      o.table_mib = parse_int(a, value(), 1, 1 << 20);
    } else if (a == "--cache-mib") {
      o.cache_mib = parse_int(a, value(), 1, 1 << 20);
    } else if (a == "--chunk") {
      o.chunk = parse_int(a, value(), 1, 64);
      if (o.chunk & (o.chunk - 1))
        throw OptionError("--chunk needs a power of two, got " + std::to_string(o.chunk));
    } else if (a == "--steal") {
      o.steal = parse_switch(a, value());
    } else if (a == "--gc") {
      o.gc = parse_switch(a, value());
    } else if (a == "--threads") {
      o.threads = parse_int(a, value(), 1, kMaxThreads);
    } else if (a == "--spawn-depth") {
      o.spawn_depth = parse_int(a, value(), 1, 1 << 20);
    } else if (a == "--progress") {
      o.progress = true;
    } else if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (!a.empty() && a[0] == '-') {
      throw OptionError("unknown option '" + a + "'");
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      throw OptionError("one model file only, got '" + o.model + "' and '" + a + "'");
    }
  }
  if (o.model.empty() && !o.help)
    throw OptionError("no model file given");
  // The threads reach the table and the cache with CPU atomics; over MPI's
  // one-sided operations they would make MPI calls concurrently, and the
  // members' stealing keeps one stack per member, not per thread.
  if (o.threads > 1 && o.access == "rma")
    throw OptionError("--threads above 1 needs shared access (--access auto or shared), not rma");
  if (o.threads > 1 && o.steal)
    throw OptionError("--threads above 1 and --steal on do not combine");
  return o;
}

} // namespace bdd
