// Plain C++ (no process operation) for driver-deps.cpp.
#include "input.h"
int main() { return INPUT_VALUE - INPUT_VALUE; }
