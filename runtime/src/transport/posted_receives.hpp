#pragma once
/// \file
/// Receives posted ahead of the messages on one link's request
/// communicator. The poller tests the oldest of them instead of probing:
/// with Open MPI an empty `MPI_Improbe` takes the matching lock and runs
/// the progress loop every time, and a matched probe plus `MPI_Mrecv` costs
/// two passes through the matching engine per message, where a receive
/// that is already posted is matched as the message arrives.

#include <mpi.h>

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace poc::detail {

class PostedReceives {
public:
  /// The largest message a posted receive takes. A larger one travels as
  /// an `oversized` announcement followed by its bytes as out-of-band
  /// chunks (Engine::send_oversized), so every message on the request
  /// communicator fits and the posted receives can take any source and tag.
  static constexpr std::size_t kSlotBytes = 16 * 1024;
  /// How many receives stay posted per link: enough for a stream of
  /// started calls to land in posted buffers while the poller routes the
  /// previous ones (further messages wait in MPI's unexpected queue).
  static constexpr std::size_t kSlots = 8;

  /// A message taken by the oldest posted receive.
  struct Arrival {
    int rank = 0; ///< the sender's rank in the communicator
    int tag = 0;
    /// The message; empty if `error` is set.
    std::vector<std::byte> bytes;
    /// MPI_SUCCESS, or the error the receive completed with (a message
    /// larger than kSlotBytes from a sender that did not announce it).
    int error = 0;
  };

  /// Posts kSlots receives on `comm` (any source, any tag).
  explicit PostedReceives(MPI_Comm comm);
  /// Cancels what is still posted (see cancel()).
  ~PostedReceives();
  PostedReceives(const PostedReceives &) = delete;
  PostedReceives &operator=(const PostedReceives &) = delete;

  /// The message of the oldest posted receive if it has arrived, which is
  /// then posted again. Messages come out in the order MPI matched them,
  /// so each sender's stay in the order sent. Only one thread at a time
  /// may call this (the engine's poller).
  std::optional<Arrival> next();

  /// Cancels the posted receives before the communicator is freed or
  /// disconnected; returns how many had already taken a message, which is
  /// then lost (none, if the link's close protocol held).
  std::size_t cancel() noexcept;

private:
  void post(std::size_t slot);

  MPI_Comm comm_;
  std::array<MPI_Request, kSlots> requests_;
  std::array<std::vector<std::byte>, kSlots> buffers_;
  /// The slot whose receive was posted first among those still posted.
  std::size_t oldest_ = 0;
  bool cancelled_ = false;
};

} // namespace poc::detail
