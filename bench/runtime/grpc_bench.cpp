// A poc++ synchronous call against a gRPC synchronous unary call, both
// int -> int between two processes of the same job (gRPC over loopback
// TCP). Run with two ranks: rank 1 serves gRPC, then both run poc::run.

#include "echo.grpc.pb.h"
#include "echo.hpp"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <mpi.h>
#include <poc/gen/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;
constexpr int kRuns = 7;
constexpr int kIters = 5000;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

class EchoService final : public pocbench::Echo::Service {
  grpc::Status Inc(grpc::ServerContext *, const pocbench::Int *in, pocbench::Int *out) override {
    out->set_v(in->v() + 1);
    return grpc::Status::OK;
  }
};

/// Median round trip (us) of the gRPC call; rank 1 serves.
double grpc_round_trip(int rank) {
  int port = 0;
  if (rank == 1) {
    EchoService service;
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    MPI_Send(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    int done = 0;
    MPI_Recv(&done, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    server->Shutdown();
    return 0;
  }
  MPI_Recv(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  auto stub = pocbench::Echo::NewStub(channel);
  std::vector<double> runs;
  pocbench::Int in, out;
  for (int run = 0; run < kRuns + 1; ++run) {
    auto t0 = clock_type::now();
    for (int i = 0; i < kIters; ++i) {
      grpc::ClientContext ctx;
      in.set_v(i);
      grpc::Status st = stub->Inc(&ctx, in, &out);
      if (!st.ok()) {
        fmt::print(stderr, "grpc call failed: {}\n", st.error_message());
        break;
      }
    }
    if (run > 0) // the first run warms the connection up
      runs.push_back(std::chrono::duration<double>(clock_type::now() - t0).count() / kIters * 1e6);
  }
  int done = 1;
  MPI_Send(&done, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
  return median(runs);
}

} // namespace

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fmt::print(stderr, "runtime_grpc_bench needs exactly 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  double grpc_us = grpc_round_trip(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = poc::run(argc, argv, [&](int, char **) {
    bench::Echo *e = poc::create<bench::Echo>("bench", bench::Echo_interface::ctor_0);
    std::vector<double> runs;
    int x = 0;
    for (int run = 0; run < kRuns; ++run) {
      auto t0 = clock_type::now();
      for (int i = 0; i < kIters; ++i)
        x = bench::Echo_client::inc_0(e, x);
      runs.push_back(std::chrono::duration<double>(clock_type::now() - t0).count() / kIters * 1e6);
    }
    double poc_us = median(runs);
    fmt::print("RESULT|sync call vs gRPC sync unary call, loopback (us)|{:.3f}|{:.3f}|us|{:.3f}\n",
               poc_us, grpc_us, poc_us / grpc_us);
    poc::destroy(e);
    return 0;
  });
  MPI_Finalize();
  return rc;
}
