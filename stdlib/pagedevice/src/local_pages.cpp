//===- local_pages.cpp - Zero-copy access to a local server ---------------===//

#include "pocstd/local_pages.hpp"

namespace pocstd {

LocalPages::LocalPages(PageDevice *device)
    : device_(device && device->sharesPages() ? device : nullptr) {}

std::byte *LocalPages::page(std::size_t index) const { return device_->sharedPage(index); }

} // namespace pocstd
