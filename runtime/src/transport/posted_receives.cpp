#include "posted_receives.hpp"

#include "check_mpi.hpp"

namespace poc::detail {

PostedReceives::PostedReceives(MPI_Comm comm) : comm_(comm) {
  requests_.fill(MPI_REQUEST_NULL);
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    buffers_[slot].resize(kSlotBytes);
    post(slot);
  }
}

PostedReceives::~PostedReceives() { cancel(); }

void PostedReceives::post(std::size_t slot) {
  check_mpi(MPI_Irecv(buffers_[slot].data(), static_cast<int>(kSlotBytes), MPI_BYTE, MPI_ANY_SOURCE,
                      MPI_ANY_TAG, comm_, &requests_[slot]),
            "MPI_Irecv");
}

std::optional<PostedReceives::Arrival> PostedReceives::next() {
  int flag = 0;
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  const int rc = MPI_Test(&requests_[oldest_], &flag, &st);
  if (rc != MPI_SUCCESS) {
    // The request completed with an error (e.g. truncation); it is freed.
    flag = 1;
    st.MPI_ERROR = rc;
  }
  if (!flag)
    return std::nullopt;
  Arrival a;
  a.rank = st.MPI_SOURCE;
  a.tag = st.MPI_TAG;
  a.error = st.MPI_ERROR;
  if (a.error == MPI_SUCCESS) {
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    const auto *data = buffers_[oldest_].data();
    a.bytes.assign(data, data + count);
  }
  post(oldest_);
  oldest_ = (oldest_ + 1) % kSlots;
  return a;
}

std::size_t PostedReceives::cancel() noexcept {
  if (cancelled_)
    return 0;
  cancelled_ = true;
  std::size_t lost = 0;
  for (MPI_Request &r : requests_) {
    if (r == MPI_REQUEST_NULL)
      continue;
    MPI_Cancel(&r);
    MPI_Status st;
    MPI_Wait(&r, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    if (!cancelled)
      ++lost;
  }
  return lost;
}

} // namespace poc::detail
