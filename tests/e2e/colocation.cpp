// poc::machine_of and poc::local_object: a process created on the host of
// another runs in the same OS process and may touch the other's object
// directly; a process elsewhere may not. The output is the same bare and
// under mpirun -n 1 and -n 4.
#include <poc/poc.hpp>

#include <cstdio>
#include <string>

class Slot {
public:
  explicit Slot(int v) : value(v) {}
  int get() const { return value; }
  void set(int v) { value = v; }

private:
  int value;
};

class Peer {
public:
  explicit Peer(Slot *slot) : slot(slot) {}
  /// Writes \p v straight into the slot's object if it lives in this OS
  /// process; false otherwise.
  bool touch(int v) {
    Slot *local = poc::local_object(slot);
    if (!local)
      return false;
    // A call site tests at run time whether its pointer is remote: through
    // the object itself, this is an ordinary call in this thread.
    local->set(v);
    return true;
  }
  /// The host this process runs on.
  std::string host() const { return poc::machine_of(this).name(); }

private:
  Slot *slot;
};

int main() {
  Slot *slot = new ("anywhere") Slot(1);
  Peer *near = new (poc::machine_of(slot)) Peer(slot);
  std::printf("same host: %s\n",
              near->host() == poc::machine_of(slot).name() ? "yes" : "DIFFERENT");
  std::printf("near touches: %s\n", near->touch(7) ? "directly" : "FAILED");
  std::printf("slot holds %d\n", slot->get());

  // From main: direct exactly when the slot runs in main's host.
  Slot mine(3);
  bool here = poc::machine_of(slot) == poc::machine_of(&mine);
  bool direct = poc::local_object(slot) != nullptr;
  std::printf("main's access: %s\n", here == direct ? "matches the host" : "FAILED");
  std::printf("ordinary pointer: %s\n", poc::local_object(&mine) == &mine ? "itself" : "FAILED");

  // A process on another host gets no direct access (with one host, a
  // process of another class stands in: local_object also checks the class).
  if (poc::job_ranks() > 1) {
    int other = poc::remote_id(slot).host == 0 ? 1 : 0;
    Peer *far = new (poc::rank_machine(other)) Peer(slot);
    std::printf("far touches: %s\n", far->touch(9) ? "FAILED" : "refused");
    delete far;
  } else {
    Peer *peer = new (poc::machine_of(slot)) Peer(slot);
    Slot *wrongClass = reinterpret_cast<Slot *>(peer);
    std::printf("far touches: %s\n", poc::local_object(wrongClass) ? "FAILED" : "refused");
    delete peer;
  }
  std::printf("slot holds %d\n", slot->get());

  try {
    new (poc::machine("host:99999")) Slot(0);
    std::printf("bad host: FAILED\n");
  } catch (const poc::usage_error &e) {
    bool named = std::string(e.what()).find("'host:99999' names no host") != std::string::npos;
    std::printf("bad host: %s\n", named ? "refused" : "FAILED");
  }
  try {
    poc::machine_of(nullptr);
    std::printf("null: FAILED\n");
  } catch (const poc::usage_error &) {
    std::printf("null: refused\n");
  }
  delete near;
  delete slot;
  return 0;
}
