#include "gmock/gmock.h"

int main() { return 0; }
