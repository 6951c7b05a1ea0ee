//===- page_store.cpp - Choosing the medium of a PageDevice ---------------===//

#include "page_store.hpp"

namespace pocstd::detail {

std::unique_ptr<PageStore> openPageStore(const Storage &storage, std::size_t pages,
                                         std::size_t pageSize, OpenFile how) {
  switch (storage.medium) {
  case Medium::Memory:
    return makeMemoryPageStore(pages, pageSize);
  case Medium::File:
    return makeFilePageStore(storage.path, pages, pageSize, storage.direct_io, how);
  }
  throw std::invalid_argument("PageDevice: unknown storage medium " +
                              std::to_string(static_cast<int>(storage.medium)));
}

} // namespace pocstd::detail
