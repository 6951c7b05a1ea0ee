//===- tools/poc_store.cpp - Inspect and maintain a poc object store ------===//
//
// poc-store [--store DIR] list|show|remove|verify|clean ...
// Run `poc-store --help` for the commands; docs/persistence.md for the store.
//
//===----------------------------------------------------------------------===//
#include "poc/persist.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace poc::persist;

namespace {

/// Exit codes, documented in --help and docs/persistence.md.
enum Exit : int {
  Success = 0,
  Failed = 1, ///< An object is missing or damaged, or an operation failed.
  Usage = 2,  ///< Bad command line, including an invalid address.
};

const char *const HelpText = R"(usage: poc-store [--store DIR] COMMAND [ARGS]

Inspect and maintain a store of poc++ persistent objects.

commands:
  list [PREFIX]        one line per object: address, class, payload size and
                       saved time (UTC); only addresses starting with PREFIX
  show ADDR...         everything the record of each object says, after
                       checking both of its checksums
  remove ADDR...       delete objects for good (refused for an object that
                       a running program has active)
  verify               check every record in full; also report temporary
                       files of interrupted saves and files no save created
  clean [--older-than SECONDS]
                       delete temporary files of interrupted saves that were
                       not modified for SECONDS (default 60)

options:
  --store DIR          the store directory; default $POC_STORE, else
                       $XDG_DATA_HOME/poc/store, else ~/.local/share/poc/store
  -h, --help           this text

Addresses are like data/set/PageDevice/34 (a poc:// prefix is accepted).

exit status: 0 success; 1 an object is missing or damaged or an operation
failed; 2 bad command line or invalid address.
)";

/// A usage error: message, then a hint, exit code 2.
struct UsageError {
  std::string message;
};

std::string format_time(SavedTime t) {
  auto ns = t.time_since_epoch().count();
  std::time_t secs = static_cast<std::time_t>(ns / 1000000000);
  long frac = static_cast<long>(ns % 1000000000);
  if (frac < 0) {
    frac += 1000000000;
    --secs;
  }
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  char buf[64];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:09}Z", std::string_view(buf, n), frac);
}

std::string hex64(std::uint64_t v) { return fmt::format("{:#018x}", v); }

/// The error's message without the library's "poc store: " prefix, which
/// the tool replaces with its own name.
std::string message_of(const store_error &e) {
  std::string_view what = e.what();
  constexpr std::string_view prefix = "poc store: ";
  if (what.starts_with(prefix))
    what.remove_prefix(prefix.size());
  return std::string(what);
}

Address parse_address(const std::string &text) {
  try {
    return Address::parse(text);
  } catch (const store_error &e) {
    throw UsageError{message_of(e)};
  }
}

void report(const store_error &e) { std::cerr << "poc-store: " << message_of(e) << "\n"; }

int cmd_list(const Store &store, const std::vector<std::string> &args) {
  if (args.size() > 1)
    throw UsageError{"list takes at most one PREFIX"};
  int rc = Success;
  for (const Address &a : store.list(args.empty() ? "" : args[0])) {
    try {
      RecordInfo info = store.info(a);
      std::cout << a.str() << "  " << info.class_name << "  " << info.payload_size << " bytes  "
                << format_time(info.saved_time) << "\n";
    } catch (const store_error &e) {
      std::cout << a.str() << "  DAMAGED (" << to_string(e.kind()) << ")\n";
      report(e);
      rc = Failed;
    }
  }
  return rc;
}

/// Runs `action` on every address in `args` (all parsed first, so one bad
/// address changes nothing). An action reports a failure by returning false
/// or throwing store_error; the others still run. Returns the exit code.
template <class Action>
int for_each_address(const char *command, const std::vector<std::string> &args, Action action) {
  if (args.empty())
    throw UsageError{std::string(command) + " needs at least one ADDR"};
  std::vector<Address> addresses;
  for (const std::string &text : args)
    addresses.push_back(parse_address(text));
  int rc = Success;
  for (const Address &a : addresses) {
    try {
      if (!action(a))
        rc = Failed;
    } catch (const store_error &e) {
      report(e);
      rc = Failed;
    }
  }
  return rc;
}

int cmd_show(const Store &store, const std::vector<std::string> &args) {
  return for_each_address("show", args, [&](const Address &a) {
    Record r = store.load(a);
    std::cout << "address:      " << a.str() << "\n"
              << "file:         " << store.file_of(a).string() << "\n"
              << "class:        " << r.info.class_name << "\n"
              << "layout hash:  " << hex64(r.info.layout_hash) << "\n"
              << "format:       " << record::format_version << "\n"
              << "payload:      " << r.info.payload_size << " bytes\n"
              << "saved:        " << format_time(r.info.saved_time) << "\n"
              << "checksums:    ok\n";
    return true;
  });
}

int cmd_remove(const Store &store, const std::vector<std::string> &args) {
  return for_each_address("remove", args, [&](const Address &a) {
    // Never pull an object from under a program that has it active.
    Lease lease = store.lease(a);
    if (!store.remove(a)) {
      std::cerr << "poc-store: object '" << a.str() << "': no such object in store\n";
      return false;
    }
    std::cout << "removed " << a.str() << "\n";
    return true;
  });
}

int cmd_verify(const Store &store, const std::vector<std::string> &args) {
  if (!args.empty())
    throw UsageError{"verify takes no arguments"};
  ScanResult scan = store.scan();
  std::size_t damaged = 0;
  for (const Address &a : scan.objects) {
    try {
      store.load(a);
    } catch (const store_error &e) {
      report(e);
      ++damaged;
    }
  }
  for (const auto &p : scan.temporaries)
    std::cerr << "poc-store: note: temporary file of an interrupted save: " << p.string() << "\n";
  for (const auto &p : scan.foreign)
    std::cerr << "poc-store: warning: file not created by the store: " << p.string() << "\n";
  std::cout << scan.objects.size() - damaged << " objects ok, " << damaged << " damaged, "
            << scan.temporaries.size() << " temporary files, " << scan.foreign.size()
            << " foreign files\n";
  return damaged ? Failed : Success;
}

int cmd_clean(const Store &store, const std::vector<std::string> &args) {
  long age = 60;
  if (!args.empty()) {
    if (args.size() != 2 || args[0] != "--older-than")
      throw UsageError{"clean takes only --older-than SECONDS"};
    char *end = nullptr;
    errno = 0;
    age = std::strtol(args[1].c_str(), &end, 10);
    if (args[1].empty() || *end || errno || age < 0)
      throw UsageError{"--older-than needs a number of seconds, not '" + args[1] + "'"};
  }
  std::size_t removed = store.clean(std::chrono::seconds(age));
  std::cout << "removed " << removed << " temporary files\n";
  return Success;
}

bool is_command(const std::string &cmd) {
  return cmd == "list" || cmd == "show" || cmd == "remove" || cmd == "verify" || cmd == "clean";
}

int run(int argc, char **argv) {
  std::optional<std::string> root;
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (rest.empty() && (a == "-h" || a == "--help")) {
      std::cout << HelpText;
      return Success;
    }
    if (rest.empty() && a == "--store") {
      if (++i == argc)
        throw UsageError{"--store needs a directory"};
      root = argv[i];
    } else if (rest.empty() && a.starts_with("--store=")) {
      root = a.substr(8);
    } else if (rest.empty() && a.starts_with("-")) {
      throw UsageError{"unknown option '" + a + "'"};
    } else {
      rest.push_back(a);
    }
  }
  if (rest.empty())
    throw UsageError{"no command given"};
  if (root && root->empty())
    throw UsageError{"--store needs a directory"};
  Store store(root ? std::filesystem::path(*root) : Store::default_root());
  // A mistyped --store would otherwise look like an empty store. (An
  // unknown command is reported as such below.)
  std::error_code ec;
  if (!std::filesystem::is_directory(store.root(), ec) && is_command(rest.front()))
    throw store_error(store_errc::not_found, "",
                      "store directory " + store.root().string() +
                          " does not exist (use --store DIR or POC_STORE)");
  std::string cmd = rest.front();
  rest.erase(rest.begin());
  if (cmd == "list")
    return cmd_list(store, rest);
  if (cmd == "show")
    return cmd_show(store, rest);
  if (cmd == "remove")
    return cmd_remove(store, rest);
  if (cmd == "verify")
    return cmd_verify(store, rest);
  if (cmd == "clean")
    return cmd_clean(store, rest);
  throw UsageError{"unknown command '" + cmd + "'"};
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError &e) {
    std::cerr << "poc-store: " << e.message << "\n(run 'poc-store --help' for usage)\n";
    return Usage;
  } catch (const store_error &e) {
    report(e);
    return Failed;
  } catch (const std::exception &e) {
    std::cerr << "poc-store: " << e.what() << "\n";
    return Failed;
  }
}
