//===- tests/persist/crash_worker.cpp - The job the crash test kills ------===//
//
// persist_crash_worker STORE WRITER OBJECTS STEPS [batch]
//
// Leases every object of writer WRITER, resumes it from the store (an absent object
// starts at step 0), then advances the objects round-robin, saving each new
// state, until all reach STEPS. After each completed save it reports
// "s <object> <step>" on stdout, so the driver knows which saves must
// survive a kill; at the end it prints "done <result>". With "batch" each
// round of saves is one Store::save_all.
// Exit codes: 0 done, 3 the store held a state outside the sequence, 2 usage.
//
//===----------------------------------------------------------------------===//
#include "crash_workload.hpp"
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace poc::persist;
namespace ct = poc::persist::crashtest;

namespace {

/// Unbuffered, so a report is out before the next save starts.
void report(const std::string &line) {
  std::string l = line + "\n";
  for (std::size_t done = 0; done < l.size();) {
    ssize_t n = ::write(1, l.data() + done, l.size() - done);
    if (n <= 0)
      std::exit(4);
    done += static_cast<std::size_t>(n);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 5 || argc > 6 || (argc == 6 && std::string(argv[5]) != "batch")) {
    std::fprintf(stderr, "usage: %s STORE WRITER OBJECTS STEPS [batch]\n", argv[0]);
    return 2;
  }
  bool batch = argc == 6;
  Store store(argv[1]);
  int writer = std::atoi(argv[2]), objects = std::atoi(argv[3]);
  auto steps = static_cast<std::uint32_t>(std::atoi(argv[4]));
  try {
    std::vector<std::uint32_t> at(objects, 0);
    // Like the runtime activating persistent processes: lease each object
    // first. A killed predecessor's leases must have been released.
    std::vector<Lease> leases;
    for (int i = 0; i < objects; ++i) {
      auto addr = Address::parse(ct::address_of(writer, i));
      leases.push_back(store.lease(addr));
      if (!store.contains(addr))
        continue;
      Record r = store.load(addr, ct::ClassName, ct::LayoutHash);
      auto k = ct::step_of(writer, i, r.payload);
      if (!k) {
        std::fprintf(stderr, "worker %d: object %d holds a state outside the sequence\n", writer,
                     i);
        return 3;
      }
      at[i] = *k;
    }
    for (bool busy = true; busy;) {
      busy = false;
      // One round: every unfinished object advances one step.
      std::vector<int> round;
      std::vector<std::vector<std::byte>> states;
      for (int i = 0; i < objects; ++i)
        if (at[i] < steps) {
          round.push_back(i);
          states.push_back(ct::state(writer, i, at[i] + 1));
        }
      busy = !round.empty();
      if (batch) {
        std::vector<std::span<const std::byte>> parts(states.begin(), states.end());
        std::vector<Store::SaveItem> items;
        for (std::size_t j = 0; j < round.size(); ++j)
          items.push_back({Address::parse(ct::address_of(writer, round[j])), ct::ClassName,
                           ct::LayoutHash, std::span(&parts[j], 1)});
        store.save_all(items);
      }
      for (std::size_t j = 0; j < round.size(); ++j) {
        int i = round[j];
        if (!batch)
          store.save(Address::parse(ct::address_of(writer, i)), ct::ClassName, ct::LayoutHash,
                     states[j]);
        ++at[i];
        report("s " + std::to_string(i) + " " + std::to_string(at[i]));
      }
    }
    // The result is computed from what the store holds, not from memory.
    std::uint64_t result = 0;
    for (int i = 0; i < objects; ++i) {
      Record r =
          store.load(Address::parse(ct::address_of(writer, i)), ct::ClassName, ct::LayoutHash);
      if (ct::step_of(writer, i, r.payload) != steps)
        return 3;
      std::uint64_t v;
      std::memcpy(&v, r.payload.data() + 12, 8);
      result ^= v;
    }
    report("done " + std::to_string(result));
  } catch (const store_error &e) {
    std::fprintf(stderr, "worker %d: %s\n", writer, e.what());
    return 1;
  }
  return 0;
}
