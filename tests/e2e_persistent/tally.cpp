// Persistent processes in the language (docs/language.md): created with
// new(poc::persistent_at(...)), reached again by a later run of the program
// in the paper's form `Tally* t = "poc://e2e/tally";`, and removed with
// delete. Each phase is a separate run of this program (a separate job).
#include "tally.hpp"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  std::string phase = argc > 1 ? argv[1] : "";
  if (phase == "create") {
    Tally *t = new (poc::persistent_at("m", "e2e/tally")) Tally("first run");
    t->add(40);
    t->add(2);
    std::printf("created: total %ld\n", t->total());
  } else if (phase == "resume") {
    Tally *t = "poc://e2e/tally";
    if (!t) {
      std::printf("FAILED: no object at e2e/tally\n");
      return 1;
    }
    std::printf("resumed: owner '%s', total %ld after %zu steps\n", t->owner().c_str(), t->total(),
                t->steps());
    t->add(1);
    poc::checkpoint(t);
    std::printf("checkpointed: total %ld\n", t->total());
  } else if (phase == "remove") {
    Tally *t = "poc://e2e/tally";
    std::printf("final: total %ld after %zu steps\n", t->total(), t->steps());
    delete t;
    Tally *gone = "poc://e2e/tally";
    std::printf(gone ? "FAILED: still there\n" : "removed\n");
  } else {
    std::fprintf(stderr, "usage: %s create|resume|remove\n", argv[0]);
    return 2;
  }
  return 0;
}
