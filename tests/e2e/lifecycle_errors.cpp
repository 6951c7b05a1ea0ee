// An exception in a process's constructor, in its destructor (during
// delete) reaches the caller as poc::remote_error naming the original
// exception; the host survives and keeps serving new processes.
#include <cstdio>
#include <stdexcept>
#include <string>

class Fragile {
public:
  explicit Fragile(int size) : size(size) {
    if (size < 0)
      throw std::invalid_argument("negative size " + std::to_string(size));
  }
  ~Fragile() noexcept(false) {
    if (failOnDelete)
      throw std::runtime_error("cannot release " + std::to_string(size));
  }
  void FailOnDelete() { failOnDelete = true; }
  int Size() const { return size; }

private:
  int size;
  bool failOnDelete = false;
};

int main() {
  try {
    Fragile *never = new ("m1") Fragile(-1);
    std::printf("FAILED: the constructor's exception was lost (%d)\n", never->Size());
  } catch (const poc::remote_error &e) {
    std::printf("constructor: %s: %s\n", e.type().c_str(), e.message().c_str());
  }
  Fragile *f = new ("m1") Fragile(3);
  std::printf("a new process on the same host: size %d\n", f->Size());
  f->FailOnDelete();
  try {
    delete f;
    std::printf("FAILED: the destructor's exception was lost\n");
  } catch (const poc::remote_error &e) {
    std::printf("delete: %s: %s\n", e.type().c_str(), e.message().c_str());
  }
  try {
    f->Size();
    std::printf("FAILED: a deleted process answered\n");
  } catch (const poc::remote_error &e) {
    std::printf("after delete: %s: %s\n", e.type().c_str(),
                e.message().find("has ended") != std::string::npos ? "the process has ended"
                                                                   : e.message().c_str());
  }
  Fragile *g = new ("m1") Fragile(5);
  std::printf("the host still serves: size %d\n", g->Size());
  delete g;
  return 0;
}
