#include "links.hpp"

#include "check_mpi.hpp"
#include "host_numbers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace poc::detail {

namespace {

/// Errors are reported as exceptions (a truncated block is bad input, not
/// a reason to abort the job).
void return_errors(const Link &link) {
  MPI_Comm_set_errhandler(link.requests, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(link.blocks, MPI_ERRORS_RETURN);
}

} // namespace

Links::Links(int world_base, int self, int parent) : self_(self), parent_(parent) {
  int size = 1;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  world_ = std::make_shared<Link>();
  world_->base = world_base;
  world_->count = size;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &world_->requests), "MPI_Comm_dup");
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &world_->blocks), "MPI_Comm_dup");
  return_errors(*world_);
  world_->posted = std::make_unique<PostedReceives>(world_->requests);
  links_.push_back(world_);
}

Links::~Links() {
  // Messages still arriving at the end of the job have nobody to serve them.
  world_->posted.reset();
  MPI_Comm_free(&world_->requests);
  MPI_Comm_free(&world_->blocks);
}

void Links::add(std::shared_ptr<Link> link) {
  return_errors(*link);
  link->posted = std::make_unique<PostedReceives>(link->requests);
  std::unique_lock g(mu_);
  links_.push_back(std::move(link));
  count_.store(links_.size(), std::memory_order_relaxed);
}

void Links::remove(const Link *link) {
  std::shared_ptr<Link> removed;
  {
    std::unique_lock g(mu_);
    auto it =
        std::find_if(links_.begin(), links_.end(), [&](const auto &l) { return l.get() == link; });
    if (it == links_.end())
      return;
    removed = std::move(*it);
    links_.erase(it);
    count_.store(links_.size(), std::memory_order_relaxed);
  }
  // The poller no longer sees the link: its receives can be cancelled.
  if (std::size_t lost = removed->posted->cancel())
    fmt::print(stderr, "poc: host {}: {} message(s) arrived on a link after it was closed\n", self_,
               lost);
}

std::shared_ptr<Link> Links::to(int host) const {
  if (world_->covers(host))
    return world_;
  std::shared_lock g(mu_);
  for (const auto &l : links_)
    if (l->covers(host) && !l->closing.load(std::memory_order_relaxed))
      return l;
  return nullptr;
}

bool Links::permanently_linked(int host) const {
  if (world_->covers(host) || host == parent_)
    return true;
  std::shared_lock g(mu_);
  for (const auto &l : links_)
    if (l->permanent() && l->covers(host))
      return true;
  return false;
}

std::vector<std::shared_ptr<Link>> Links::of(Link::Kind kind) const {
  std::shared_lock g(mu_);
  std::vector<std::shared_ptr<Link>> out;
  for (const auto &l : links_)
    if (l->kind == kind)
      out.push_back(l);
  return out;
}

std::shared_ptr<Link> Links::route(int dest, int &hop) const {
  hop = dest;
  if (auto l = to(dest))
    return l;
  // Relay along permanent links: a spawned host sends to its parent; a job
  // rank sends to the rank that spawned the destination.
  hop = parent_ >= 0 ? parent_ : is_spawned_host(dest) ? spawner_of(dest) : -1;
  if (hop < 0 || hop == self_)
    return nullptr;
  return to(hop);
}

} // namespace poc::detail
