//===- options.cpp - Command line of the fft3d program --------------------===//

#include "fft3d/options.hpp"

#include <poc/persist/address.hpp>

#include <charconv>
#include <limits>
#include <sstream>

namespace fft3d {

namespace {

[[noreturn]] void bad(const std::string &what) {
  throw OptionError("fft3d: " + what + " (see fft3d --help)");
}

long long parseInteger(const std::string &option, const std::string &text, long long min,
                       long long max) {
  long long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max)
    bad(option + " needs an integer in " + std::to_string(min) + ".." + std::to_string(max) +
        ", got '" + text + "'");
  return v;
}

/// "N" or "N1xN2xN3".
std::array<int, 3> parseShape(const std::string &option, const std::string &text) {
  std::array<int, 3> out{};
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, 'x'))
    parts.push_back(part);
  if (parts.size() == 1)
    parts = {parts[0], parts[0], parts[0]};
  if (parts.size() != 3)
    bad(option + " needs N or N1xN2xN3, got '" + text + "'");
  for (int d = 0; d < 3; ++d)
    out[d] = static_cast<int>(parseInteger(option, parts[d], 1, 1 << 20));
  return out;
}

std::vector<std::string> parseList(const std::string &option, const std::string &text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ','))
    if (item.empty())
      bad(option + " has an empty machine name in '" + text + "'");
    else
      out.push_back(item);
  if (out.empty())
    bad(option + " needs at least one machine name");
  return out;
}

bool parseOnOff(const std::string &option, const std::string &text) {
  if (text == "on")
    return true;
  if (text == "off")
    return false;
  bad(option + " needs on or off, got '" + text + "'");
}

void validate(const Options &o) {
  for (int d = 0; d < 3; ++d)
    if (o.page[d] > o.size[d])
      bad("the page (" + std::to_string(o.page[d]) + ") is larger than the array (" +
          std::to_string(o.size[d]) + ") along dimension " + std::to_string(d + 1));
  // Every pass hands out page lines to the F processes; each needs one.
  for (int d = 0; d < 3; ++d) {
    long long lines = 1;
    for (int e = 0; e < 3; ++e)
      if (e != d)
        lines *= o.pages(e);
    if (o.ffts > lines)
      bad("--ffts " + std::to_string(o.ffts) + " exceeds the " + std::to_string(lines) +
          " page lines along dimension " + std::to_string(d + 1) +
          "; use fewer FFT processes or smaller pages");
  }
  if (o.passes == 2 && !o.inCore)
    bad("--passes 2 runs in core only: out of core a page plane (n1 x N2 x N3) is too large "
        "a buffer and a cache; use --passes 3");
  if (o.passes == 2 && o.ffts > o.pages(0))
    bad("--ffts " + std::to_string(o.ffts) + " exceeds the " + std::to_string(o.pages(0)) +
        " page planes along dimension 1 that --passes 2 hands out; use --passes 3, fewer FFT "
        "processes or thinner pages");
  if (!o.inCore && o.directory.empty())
    bad("--out-of-core needs a directory");
  if (o.resume && o.inCore)
    bad("--resume continues an out-of-core run; it needs --out-of-core DIR");
  if (o.keep && o.inCore)
    bad("--keep leaves an out-of-core run in the store; it needs --out-of-core DIR");
  if (o.haltAfterRecords && o.inCore)
    bad("--halt-after-records counts out-of-core progress records; it needs --out-of-core DIR");
  // The longest address the run's objects get.
  std::string longest = o.run + "/PageDevice/" + std::to_string(o.servers - 1);
  if (std::string why = poc::persist::Address::check(longest); !why.empty())
    bad("--run '" + o.run + "' cannot name objects in the store: " + why);
}

} // namespace

Options parseOptions(int argc, const char *const *argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasValue = false;
    if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto next = [&]() -> std::string {
      if (hasValue)
        return value;
      if (i + 1 >= argc)
        bad(arg + " needs a value");
      return argv[++i];
    };
    auto flag = [&] {
      if (hasValue)
        bad(arg + " takes no value");
    };
    if (arg == "--size")
      o.size = parseShape(arg, next());
    else if (arg == "--page")
      o.page = parseShape(arg, next());
    else if (arg == "--servers")
      o.servers = static_cast<int>(parseInteger(arg, next(), 1, 4096));
    else if (arg == "--ffts")
      o.ffts = static_cast<int>(parseInteger(arg, next(), 1, 4096));
    else if (arg == "--server-machines")
      o.serverMachines = parseList(arg, next());
    else if (arg == "--fft-machines")
      o.fftMachines = parseList(arg, next());
    else if (arg == "--in-core") {
      flag();
      o.inCore = true;
    } else if (arg == "--out-of-core") {
      o.inCore = false;
      o.directory = next();
      if (o.directory.empty())
        bad("--out-of-core needs a directory");
    } else if (arg == "--resume") {
      flag();
      o.resume = true;
    } else if (arg == "--run")
      o.run = next();
    else if (arg == "--record-every")
      o.recordEvery = static_cast<int>(parseInteger(arg, next(), 1, 1 << 30));
    else if (arg == "--halt-after-records")
      o.haltAfterRecords = static_cast<int>(parseInteger(arg, next(), 1, 1 << 30));
    else if (arg == "--keep") {
      flag();
      o.keep = true;
    } else if (arg == "--buffered-io") {
      flag();
      o.directIO = false;
    } else if (arg == "--passes")
      o.passes = static_cast<int>(parseInteger(arg, next(), 2, 3));
    else if (arg == "--prefetch")
      o.prefetch = parseOnOff(arg, next());
    else if (arg == "--page-map") {
      std::string m = next();
      if (m != "circulant" && m != "slabs")
        bad("--page-map needs circulant or slabs, got '" + m + "'");
      o.pageMap = m == "slabs" ? pocstd::PageLayout::Slabs : pocstd::PageLayout::Circulant;
    } else if (arg == "--transpose") {
      std::string t = next();
      if (t != "server" && t != "client")
        bad("--transpose needs server or client, got '" + t + "'");
      o.clientTranspose = t == "client";
    } else if (arg == "--direction") {
      std::string d = next();
      if (d == "forward")
        o.direction = Direction::Forward;
      else if (d == "inverse")
        o.direction = Direction::Inverse;
      else if (d == "roundtrip")
        o.direction = Direction::RoundTrip;
      else
        bad("--direction needs forward, inverse or roundtrip, got '" + d + "'");
    } else if (arg == "--verify") {
      flag();
      o.verify = true;
    } else if (arg == "--plan") {
      std::string p = next();
      if (p != "estimate" && p != "measure")
        bad("--plan needs estimate or measure, got '" + p + "'");
      o.measure = p == "measure";
    } else if (arg == "--quiet") {
      flag();
      o.progress = false;
    } else if (arg == "--seed")
      o.seed = static_cast<std::uint64_t>(
          parseInteger(arg, next(), 0, std::numeric_limits<long long>::max()));
    else if (arg == "--csv") {
      o.csv = next();
      if (o.csv.empty())
        bad("--csv needs a file name");
    } else if (arg == "--help" || arg == "-h") {
      o.help = true;
      return o;
    } else
      bad("unknown option '" + std::string(argv[i]) + "'");
  }
  if (o.passes == 0)
    o.passes = o.inCore && o.ffts <= o.pages(0) ? 2 : 3;
  validate(o);
  return o;
}

std::string usage() {
  return R"(usage: fft3d [options]
A 3D complex FFT of an N1 x N2 x N3 array stored in pages on S page servers,
computed line by line by F FFT processes (Givelberg, sections 4-5).

  --size N | N1xN2xN3       array size (default 32)
  --page n | n1xn2xn3       page size (default 8; need not divide the size)
  --servers S               page server processes (default 2)
  --ffts F                  FFT processes (default 2)
  --server-machines m1,...  machines for the servers, round robin (default: any)
  --fft-machines m1,...     machines for the FFT processes, round robin
  --in-core                 pages in the servers' memory (default)
  --out-of-core DIR         pages in one file per server in DIR
  --buffered-io             out-of-core files without O_DIRECT
  --run NAME                out-of-core: the run's name in the object store ($POC_STORE;
                            default fft3d); its page servers and progress are persistent
                            processes NAME/PageDevice/<s> and NAME/progress
  --resume                  continue the out-of-core run NAME from each FFT process's
                            last recorded line (after a kill)
  --record-every K          out-of-core: lines between durable progress records (default 32)
  --keep                    leave the finished run in the store (default: delete it)
  --halt-after-records R    for restart tests: each FFT process halts (waits to be
                            killed) after R durable progress records of this job
  --passes 2|3              passes over the array per transform: 3 is the paper's fft1,
                            fft2, fft3; 2 does the 2D FFTs of a page plane (n1 x N2 x N3)
                            at a time, then fft1 (in core only; default 2 in core when
                            every FFT process gets a page plane, else 3)
  --prefetch on|off         servers read the next line while FFTs run (default on)
  --transpose server|client where pages are transposed for fft1/fft2 (default server)
  --page-map slabs|circulant  pages on servers: a slab of dimension 1 per server (default),
                            or the paper's circulant map; FFT process p runs with server
                            p % S, so with slabs and F = S fft2 and fft3 find every page
                            of their lines in their own host's memory
  --direction forward|inverse|roundtrip   (default forward; inverse is normalised)
  --verify                  check the result: a round trip against its input; one
                            transform by Parseval and, up to 2^27 points, against
                            FFTW's in-core 3D transform
  --plan estimate|measure   FFTW planner effort (default estimate)
  --seed N                  input data seed (default 1)
  --quiet                   no per-iteration progress lines
  --csv FILE                per-iteration and per-phase timings as CSV (for plots)
)";
}

} // namespace fft3d
