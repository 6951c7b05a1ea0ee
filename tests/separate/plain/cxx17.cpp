// Valid C++17 that C++20 rejects (a u8 literal is char8_t there): compiled
// with the standard the command asks for, or clang++'s default.
#include <cstdio>

int main() {
  const char *greeting = u8"hello";
  std::puts(greeting);
}
