#include "plain_model.hpp"

#include "bdd/model.hpp"

PlainModel read_plain_model(const char *path) {
  const bdd::ModelFile file = bdd::parse_model(path, bdd::ModelFormat::Automatic);
  PlainModel m;
  m.state_variables.assign(file.state_variables.begin(), file.state_variables.end());
  for (const bdd::FileNode &n : file.nodes)
    m.nodes.push_back(PlainNode{n.level, n.low, n.high});
  m.initial = file.initial;
  for (const bdd::FileGroup &g : file.groups)
    m.groups.push_back(PlainGroup{g.relation, {g.variables.begin(), g.variables.end()}});
  return m;
}
