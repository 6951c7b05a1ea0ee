#include "in_flight.hpp"

#include <optional>

namespace poc::detail {

bool InFlight::completed(MPI_Request &req, MPI_Status &st) {
  int flag = 0;
  st.MPI_ERROR = MPI_SUCCESS;
  const int rc = MPI_Test(&req, &flag, &st);
  if (rc != MPI_SUCCESS) {
    // The request completed with an error (e.g. a truncated receive).
    st.MPI_ERROR = rc;
    return true;
  }
  return flag != 0;
}

void InFlight::add(MPI_Request req, Completion c, LazyHostLock &lock) {
  MPI_Status st;
  const bool complete = completed(req, st);
  if (complete && !c.batch && !c.done && st.MPI_ERROR == MPI_SUCCESS)
    return; // nobody waits for it: no bookkeeping
  HostLock &lk = lock.get();
  if (complete) {
    InFlight::complete(c, st, lk);
    progress_.notify(lk);
    return;
  }
  requests_.push_back(req);
  completions_.push_back(std::move(c));
  count_.store(requests_.size(), std::memory_order_relaxed);
  // A napping poller must start testing the new request.
  progress_.wake_poller(lk);
}

void InFlight::complete(Completion &c, const MPI_Status &st, HostLock &lk) {
  if (st.MPI_ERROR != MPI_SUCCESS && c.peer >= 0)
    peer_failures_.report(st.MPI_ERROR, "MPI_Isend", c.peer, lk);
  if (c.batch)
    --c.batch->pending;
  if (c.status)
    *c.status = st;
  if (c.done)
    *c.done = true;
  c.owned = {};
  c.batch.reset();
}

void InFlight::test() {
  HostLock lk(progress_);
  if (requests_.empty())
    return;
  const int n = static_cast<int>(requests_.size());
  std::vector<int> idx(static_cast<std::size_t>(n));
  std::vector<MPI_Status> sts(static_cast<std::size_t>(n));
  int outcount = 0;
  for (auto &st : sts)
    st.MPI_ERROR = MPI_SUCCESS;
  MPI_Testsome(n, requests_.data(), &outcount, idx.data(), sts.data());
  if (outcount <= 0 || outcount == MPI_UNDEFINED)
    return;
  for (int k = 0; k < outcount; ++k)
    complete(completions_[static_cast<std::size_t>(idx[k])], sts[static_cast<std::size_t>(k)], lk);
  // Compact: completed requests are MPI_REQUEST_NULL now.
  std::size_t out = 0;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    if (requests_[i] == MPI_REQUEST_NULL)
      continue;
    if (out != i) {
      requests_[out] = requests_[i];
      completions_[out] = std::move(completions_[i]);
    }
    ++out;
  }
  requests_.resize(out);
  completions_.resize(out);
  count_.store(out, std::memory_order_relaxed);
  progress_.notify(lk);
}

void InFlight::cancel_receive(bool *done, HostLock &) {
  for (std::size_t i = 0; i < completions_.size(); ++i) {
    if (completions_[i].done != done)
      continue;
    MPI_Cancel(&requests_[i]);
    MPI_Request_free(&requests_[i]);
    requests_.erase(requests_.begin() + static_cast<std::ptrdiff_t>(i));
    completions_.erase(completions_.begin() + static_cast<std::ptrdiff_t>(i));
    count_.store(requests_.size(), std::memory_order_relaxed);
    return;
  }
}

void InFlight::cancel_all() {
  HostLock lk(progress_);
  for (auto &r : requests_) {
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  }
  requests_.clear();
  completions_.clear();
  count_.store(0);
}

} // namespace poc::detail
