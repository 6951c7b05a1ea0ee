#include "bdd/distributed_memory.hpp"
#include "bdd/choice.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

namespace bdd {

namespace {

void check(int rc, const char *what, std::size_t bytes) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(
      std::string(what) + " of " + std::to_string(bytes >> 20) +
      " MiB per rank failed: " + std::string(text, static_cast<std::size_t>(len)));
}

bool all_on_this_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0, size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(comm, &size);
  MPI_Comm_free(&node);
  int here = node_size == size ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&here, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  return everywhere == 1;
}

void prefault(void *base, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  // madvise wants a page-aligned start; an MPI window need not have one.
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(base);
  const std::uintptr_t aligned = start - start % page;
  ::madvise(reinterpret_cast<void *>(aligned), bytes + (start - aligned), MADV_POPULATE_WRITE);
#else
  (void)base;
  (void)bytes;
#endif
}

} // namespace

Access parse_access(const std::string &text) {
  return parse_choice<Access>(
      "--access", text,
      {{"auto", Access::Automatic}, {"rma", Access::Rma}, {"shared", Access::Shared}});
}

const char *access_name(Access access) {
  return access == Access::Shared ? "shared" : access == Access::Rma ? "rma" : "auto";
}

DistributedMemory::DistributedMemory(MPI_Comm comm, std::size_t bytes_per_rank, Access access,
                                     bool zeroed)
    : access_(access), bytes_(bytes_per_rank) {
  MPI_Comm_size(comm, &ranks_);
  MPI_Comm_rank(comm, &rank_);
  bool one_node = all_on_this_node(comm);
  if (access_ == Access::Automatic)
    access_ = one_node ? Access::Shared : Access::Rma;
  if (access_ == Access::Shared && !one_node)
    throw std::runtime_error("shared access needs every rank on one node; use rma");
  // Allocation failures must come back as errors, not abort the job.
  MPI_Errhandler previous;
  MPI_Comm_get_errhandler(comm, &previous);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  void *base = nullptr;
  int rc;
  if (access_ == Access::Shared && ranks_ == 1) {
    // Nobody else reaches it, so no window: private memory, where the
    // kernel can use huge pages (it does not for shared memory here). A
    // table probed at random misses the TLB on nearly every access with
    // 4 KiB pages.
    base = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      base = nullptr;
      rc = MPI_ERR_NO_MEM;
    } else {
      ::madvise(base, bytes_, MADV_HUGEPAGE);
      mapped_ = base;
      rc = MPI_SUCCESS;
    }
  } else if (access_ == Access::Shared) {
    rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes_), 8, MPI_INFO_NULL, comm, &base,
                                 &window_);
  } else {
    rc = MPI_Win_allocate(static_cast<MPI_Aint>(bytes_), 8, MPI_INFO_NULL, comm, &base, &window_);
  }
  MPI_Comm_set_errhandler(comm, previous);
  MPI_Errhandler_free(&previous);
  int ok = rc == MPI_SUCCESS ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (!all_ok) {
    if (rc == MPI_SUCCESS && window_ != MPI_WIN_NULL)
      MPI_Win_free(&window_);
    if (mapped_)
      ::munmap(mapped_, bytes_);
    mapped_ = nullptr;
    check(rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc, "allocating the distributed table", bytes_);
  }
  local_ = static_cast<std::uint64_t *>(base);
  // Zero and fault in the whole segment now, as BuDDy and Sylvan do with
  // their tables: a page's first touch costs a fault, which would otherwise
  // fall on the operations (MPI does not promise zeroed windows either).
  // Populating the pages first, in one call, costs less than faulting them
  // in one at a time: 144 MiB took 0.11-0.18 s by memset alone, 0.07 s
  // populated first, here. Where the kernel cannot, memset faults them in.
  // Unless the caller zeroes only what it uses (the node table's data
  // array, filled from its start, would otherwise be faulted in whole).
  if (zeroed) {
    prefault(local_, bytes_);
    std::memset(local_, 0, bytes_);
  }
  if (mapped_) {
    segments_.assign(1, static_cast<char *>(mapped_));
  } else if (access_ == Access::Shared) {
    segments_.resize(static_cast<std::size_t>(ranks_));
    for (int r = 0; r < ranks_; ++r) {
      MPI_Aint size = 0;
      int unit = 0;
      void *segment = nullptr;
      MPI_Win_shared_query(window_, r, &size, &unit, &segment);
      segments_[static_cast<std::size_t>(r)] = static_cast<char *>(segment);
    }
  }
  if (window_ != MPI_WIN_NULL) {
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
    MPI_Win_sync(window_);
  }
  MPI_Barrier(comm);
}

DistributedMemory::~DistributedMemory() {
  if (window_ != MPI_WIN_NULL) {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  if (mapped_)
    ::munmap(mapped_, bytes_);
}

void DistributedMemory::sync_local() {
  // In the passive epoch, local stores to the window must be synchronised
  // with the window's public copy on both sides of them.
  if (window_ != MPI_WIN_NULL)
    MPI_Win_sync(window_);
}

void DistributedMemory::zero_local(std::size_t offset, std::size_t bytes) {
  sync_local();
  std::memset(reinterpret_cast<char *>(local_) + offset, 0, bytes);
  sync_local();
}

void DistributedMemory::flush(int rank) {
  MPI_Win_flush(rank, window_);
  ++counters_.round_trips;
}

void DistributedMemory::rma_load_words(int rank, std::size_t offset, std::size_t count,
                                       std::uint64_t *out) {
  ++counters_.operations;
  MPI_Get_accumulate(nullptr, 0, MPI_UINT64_T, out, static_cast<int>(count), MPI_UINT64_T, rank,
                     static_cast<MPI_Aint>(offset / 8), static_cast<int>(count), MPI_UINT64_T,
                     MPI_NO_OP, window_);
  flush(rank);
}

std::uint64_t DistributedMemory::rma_compare_and_swap(int rank, std::size_t offset,
                                                      std::uint64_t expected,
                                                      std::uint64_t desired) {
  ++counters_.operations;
  std::uint64_t found = 0;
  MPI_Compare_and_swap(&desired, &expected, &found, MPI_UINT64_T, rank,
                       static_cast<MPI_Aint>(offset / 8), window_);
  flush(rank);
  return found;
}

std::uint64_t DistributedMemory::rma_fetch_add(int rank, std::size_t offset, std::uint64_t value) {
  ++counters_.operations;
  std::uint64_t found = 0;
  MPI_Fetch_and_op(&value, &found, MPI_UINT64_T, rank, static_cast<MPI_Aint>(offset / 8), MPI_SUM,
                   window_);
  flush(rank);
  return found;
}

void DistributedMemory::rma_read_words(int rank, std::size_t offset, std::size_t count,
                                       std::uint64_t *out) {
  ++counters_.operations;
  MPI_Request request;
  MPI_Rget(out, static_cast<int>(count), MPI_UINT64_T, rank, static_cast<MPI_Aint>(offset / 8),
           static_cast<int>(count), MPI_UINT64_T, window_, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  ++counters_.round_trips;
}

void DistributedMemory::rma_write_words(int rank, std::size_t offset, std::size_t count,
                                        const std::uint64_t *in) {
  ++counters_.operations;
  MPI_Accumulate(in, static_cast<int>(count), MPI_UINT64_T, rank, static_cast<MPI_Aint>(offset / 8),
                 static_cast<int>(count), MPI_UINT64_T, MPI_REPLACE, window_);
  flush(rank);
}

} // namespace bdd
