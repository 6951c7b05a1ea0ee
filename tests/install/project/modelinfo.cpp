// A plain C++ program against the installed package's bdd component: reads
// a BEEM model file (bdd::parse_model) and says what it holds; a file that
// is not a model is reported by name.
#include <bdd/model.hpp>

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: modelinfo MODEL.bdd\n");
    return 2;
  }
  try {
    bdd::ModelFile model = bdd::parse_model(argv[1], bdd::parse_model_format("auto"));
    std::printf("groups: %zu, state variables: %zu, nodes in the file: %zu\n", model.groups.size(),
                model.state_variables.size(), model.nodes.size());
  } catch (const bdd::ModelError &e) {
    std::printf("not a model: %s\n", e.what());
    return 1;
  }
  return 0;
}
