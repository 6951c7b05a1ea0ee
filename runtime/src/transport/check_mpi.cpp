#include "check_mpi.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace poc::detail {

void check_mpi(int rc, const char *what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("poc: ") + what + " failed: " + std::string(text, len));
}

} // namespace poc::detail
