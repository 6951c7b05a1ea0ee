// GoogleMock and GoogleTest as user headers (-I) in a file with process
// operations: poc++'s parse and rewriting walk every declaration of these
// large user headers.
#include "gmock/gmock.h"
#include "gtest/gtest.h"

class Account {
public:
  void add(int n) { total += n; }
  int balance() const { return total; }

private:
  int total = 0;
};

struct Clock {
  virtual ~Clock() = default;
  virtual int now() = 0;
};
struct MockClock : Clock {
  MOCK_METHOD(int, now, (), (override));
};

int main() {
  Account *a = new ("machine1") Account;
  a->add(3);
  int b = a->balance();
  delete a;
  return b == 3 ? 0 : 1;
}
