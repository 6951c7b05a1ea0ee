#pragma once
// The state of an OS process on this node, as /proc/PID/stat gives it ('R',
// 'S', 'T' stopped, 'Z' ended but not yet reaped, ...), or 0 once it is
// gone. Signals take effect asynchronously: a test that stops or kills a
// host waits for the state before it relies on it.
#include <fcntl.h>
#include <unistd.h>

#include <string>

inline char process_state(int pid) {
  // Plain read(2), not a stream: a process reaped between the open and the
  // read makes the read fail (ESRCH), which means gone, where libstdc++'s
  // filebuf throws.
  const int fd = open(("/proc/" + std::to_string(pid) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  char buffer[1024];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  close(fd);
  if (n <= 0)
    return 0;
  // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses.
  const std::string text(buffer, static_cast<std::size_t>(n));
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() ? text[paren + 2] : 0;
}
