#pragma once
// The state of an OS process on this node, as /proc/PID/stat gives it ('R',
// 'S', 'T' stopped, 'Z' ended but not yet reaped, ...), or 0 once it is
// gone. Signals take effect asynchronously: a test that stops or kills a
// host waits for the state before it relies on it.
#include <fstream>
#include <iterator>
#include <string>

inline char process_state(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses.
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() ? text[close + 2] : 0;
}
