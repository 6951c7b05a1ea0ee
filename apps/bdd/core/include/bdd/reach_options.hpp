//===- bdd/reach_options.hpp - The bdd-reach command line -----------*- C++ -*-===//
///
/// \file
/// ReachOptions: what `bdd-reach` can be told, parsed and checked before
/// any process is created (a bad option is one line and exit status 2).
///
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace bdd {

/// A command line that cannot be run; what() is the message for the user.
class OptionError : public std::runtime_error {
public:
  explicit OptionError(const std::string &what) : std::runtime_error(what) {}
};

/// A parsed bdd-reach command line, sent whole to every worker process as
/// its constructor's argument (poc++ makes its serializer). Strings stay
/// strings, as the command line gave them; each was checked by the parser.
struct ReachOptions {
  std::string model;            ///< MODEL.bdd
  std::string strategy = "bfs"; ///< bfs | chain | sat
  std::string format = "auto";  ///< auto | sylvan | 2014
  std::string access = "auto";  ///< auto | rma | shared
  int table_mib = 128;          ///< node table per rank
  int cache_mib = 0;            ///< operation cache per rank; 0: an eighth of the table's
  int chunk = 8;                ///< buckets per probe chunk
  bool steal = false;           ///< chain and sat: the other members steal tasks
  bool gc = true;               ///< bfs and chain: collect garbage between levels
  bool progress = false;        ///< one line per level
  int threads = 0;      ///< threads per rank, sharing its table and cache; 0: the rank's cores
  int spawn_depth = 16; ///< with threads: spawn within this many spawning calls
  bool help = false;
};

/// Most threads per rank.
inline constexpr int kMaxThreads = 64;

/// Parses `args` (without the program name). Throws OptionError.
ReachOptions parse_reach_options(const std::vector<std::string> &args);

/// The usage text.
const char *reach_usage();

} // namespace bdd
