// GoogleMock and GoogleTest as user headers (-I), in a plain file: the
// record of the classes it calls once crashed on a dependent `delete`
// (issue 41 part 0).
#include "gmock/gmock.h"
#include "gtest/gtest.h"

struct Store {
  virtual ~Store() = default;
  virtual int get(int key) = 0;
};
struct MockStore : Store {
  MOCK_METHOD(int, get, (int key), (override));
};
int lookup(Store &s) { return s.get(1); }
int main() { return 0; }
