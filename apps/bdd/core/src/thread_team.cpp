#include "bdd/thread_team.hpp"

namespace bdd {

ThreadTeam::ThreadTeam(Manager &rank_manager, unsigned threads, unsigned spawn_depth)
    : rank_manager_(rank_manager),
      pool_(threads, [this](unsigned worker, const Task &task, unsigned depth) {
        Manager &m = worker == 0 ? rank_manager_ : *helpers_[worker - 1];
        return m.run_stolen(task, depth);
      }) {
  // The helpers sleep until the first run, so their Managers may be made
  // after the pool.
  for (unsigned w = 1; w < threads; ++w) {
    counters_.push_back(std::make_unique<ThreadCounters>());
    helpers_.push_back(std::make_unique<Manager>(rank_manager.table(), rank_manager.cache(),
                                                 counters_.back().get()));
    helpers_.back()->set_task_pool(&pool_, w, spawn_depth);
  }
  rank_manager_.set_task_pool(&pool_, 0, spawn_depth);
}

ThreadTeam::~ThreadTeam() { rank_manager_.set_task_pool(nullptr, 0, 0); }

void ThreadTeam::set_extension(const Manager::Extension *extension) {
  rank_manager_.set_extension(extension);
  for (auto &m : helpers_)
    m->set_extension(extension);
}

void ThreadTeam::run(const std::function<void()> &compute) {
  // TaskPool::run returns only once the helpers are idle: their counters
  // are final for this run, and visible here.
  struct Absorb {
    ThreadTeam &team;
    ~Absorb() {
      for (auto &c : team.counters_) {
        team.rank_manager_.table().absorb(c->table);
        team.rank_manager_.cache().absorb(c->cache);
      }
    }
  } absorb{*this};
  pool_.run(compute);
}

} // namespace bdd
