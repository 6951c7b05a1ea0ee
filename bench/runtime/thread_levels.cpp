// What MPI's thread level and the way a message is received cost, in raw
// MPI, before any runtime (issue 25's "ask MPI only for the thread level the
// runtime needs"): an 8-byte round trip between two ranks received three
// ways - a blocking MPI_Recv, a receive posted ahead (any source, any tag)
// and tested until it completes (what the runtime's poller does), and a
// matched probe plus MPI_Mrecv (what it did before). One job per thread
// level, because a process initialises MPI once:
//
//   mpirun -n 2 mpi-thread-levels single|serialized|multiple
//
// Prints one line per way: the level, the way, and the best of 5 runs of
// 50,000 round trips in microseconds.

#include <mpi.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kRounds = 50000;
constexpr int kTag = 1;

/// Receives 8 bytes from any source into `buf`, the way `how` names.
void receive(const char *how, char *buf) {
  if (std::strcmp(how, "blocking") == 0) {
    MPI_Recv(buf, 8, MPI_BYTE, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (std::strcmp(how, "posted") == 0) {
    MPI_Request r;
    MPI_Irecv(buf, 8, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    for (int done = 0; !done;)
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
  } else {
    MPI_Message m;
    MPI_Status st;
    for (int found = 0; !found;)
      MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &found, &m, &st);
    MPI_Mrecv(buf, 8, MPI_BYTE, &m, &st);
  }
}

} // namespace

int main(int argc, char **argv) {
  const char *level = argc > 1 ? argv[1] : "single";
  const int wanted = std::strcmp(level, "multiple") == 0     ? MPI_THREAD_MULTIPLE
                     : std::strcmp(level, "serialized") == 0 ? MPI_THREAD_SERIALIZED
                                                             : MPI_THREAD_SINGLE;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, wanted, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || provided < wanted) {
    if (rank == 0)
      std::fprintf(stderr, "mpi-thread-levels needs 2 ranks and MPI level %s\n", level);
    MPI_Finalize();
    return 1;
  }
  char buf[8] = {};
  const int peer = 1 - rank;
  for (const char *how : {"blocking", "posted", "probe"}) {
    double best = 1e30;
    for (int run = 0; run < 5; ++run) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      for (int i = 0; i < kRounds; ++i) {
        if (rank == 0) {
          MPI_Send(buf, 8, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
          receive(how, buf);
        } else {
          receive(how, buf);
          MPI_Send(buf, 8, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
        }
      }
      const double us = (MPI_Wtime() - t0) / kRounds * 1e6;
      best = us < best ? us : best;
    }
    if (rank == 0)
      std::printf("%-10s %-8s round trip %7.3f us\n", level, how, best);
  }
  MPI_Finalize();
  return 0;
}
