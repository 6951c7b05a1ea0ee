// A program whose class Tally has other fields than the one that saved the
// state at e2e/tally: activation must refuse the record (layout mismatch)
// with an error naming the object, never misread it.
#include <cstdio>
#include <string>

class Tally {
public:
  Tally() = default;
  double total() const { return total_; }

private:
  double total_ = 0; // was: std::string owner_; long total_; std::vector<long>
};

int main() {
  try {
    Tally *t = "poc://e2e/tally";
    std::printf("FAILED: loaded a record of another layout (total %g)\n", t ? t->total() : -1.0);
  } catch (const poc::remote_error &e) {
    std::printf("refused: %s\n", e.what());
  }
  return 0;
}
