// The paper's sections 2.1, 2.2 and 3.1: a PageDevice process on machine1
// stores pages of data in a file; the main program writes a page through
// the remote pointer `storage` and reads it back.
// Deviations from the paper's text are listed in docs/compiler.md.
#include <poc/annotations.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

using std::size_t;
using std::string;

class Page {
public:
  Page() : n(0), data(nullptr) {}
  Page(size_t n, unsigned char *data) : n(n), data(new unsigned char[n]) {
    std::memcpy(this->data, data, n);
  }
  Page(const Page &p) : Page(p.n, p.data) {}
  Page &operator=(const Page &) = delete;
  ~Page() { delete[] data; }
  size_t size() const { return n; }
  unsigned char *bytes() const { return data; }

protected:
  size_t n;
  unsigned char *data POC_COUNT(n);
};

class PageDevice {
public:
  PageDevice(string filename, size_t NumberOfPages, size_t PageSize)
      : filename(filename), NumberOfPages(NumberOfPages), PageSize(PageSize) {
    file_descriptor = ::open(filename.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (file_descriptor < 0 || ::ftruncate(file_descriptor, NumberOfPages * PageSize) != 0)
      throw std::runtime_error("PageDevice: cannot create " + filename);
  }
  ~PageDevice() {
    ::close(file_descriptor);
    ::unlink(filename.c_str());
  }
  void write(Page *p, size_t PageIndex) {
    check(p, PageIndex);
    if (::pwrite(file_descriptor, p->bytes(), PageSize, PageIndex * PageSize) !=
        static_cast<ssize_t>(PageSize))
      throw std::runtime_error("PageDevice: write failed");
  }
  void read(Page *p, size_t PageIndex) {
    check(p, PageIndex);
    if (::pread(file_descriptor, p->bytes(), PageSize, PageIndex * PageSize) !=
        static_cast<ssize_t>(PageSize))
      throw std::runtime_error("PageDevice: read failed");
  }

protected:
  string filename;
  size_t NumberOfPages;
  size_t PageSize;

private:
  void check(Page *p, size_t PageIndex) const {
    if (p->size() != PageSize || PageIndex >= NumberOfPages)
      throw std::out_of_range("PageDevice: bad page or index");
  }
  int file_descriptor;
};

Page *GenerateDataPage(size_t page_size) {
  unsigned char buffer[4096];
  for (size_t i = 0; i < page_size; ++i)
    buffer[i] = static_cast<unsigned char>(i * 7 + 3);
  return new Page(page_size, buffer);
}

int main() {
  size_t number_of_pages = 32;
  size_t page_size = 4096;
  const char *remote_machine = "machine1";
  string pagefile = "/tmp/poc-pagefile-" + std::to_string(::getpid());
  PageDevice *storage = new (remote_machine) PageDevice(pagefile, number_of_pages, page_size);

  Page *page = GenerateDataPage(page_size);
  size_t PageAddress = 17;
  storage->write(page, PageAddress);

  unsigned char zeros[4096] = {};
  Page *copy = new Page(page_size, zeros);
  storage->read(copy, PageAddress);
  bool equal = std::memcmp(page->bytes(), copy->bytes(), page_size) == 0;
  unsigned long sum = 0;
  for (size_t i = 0; i < page_size; ++i)
    sum += copy->bytes()[i];
  std::printf("page %zu: %zu bytes, checksum %lu, read back %s\n", PageAddress, copy->size(), sum,
              equal ? "equal" : "DIFFERENT");

  delete page;
  delete copy;
  delete storage;
  return equal ? 0 : 1;
}
