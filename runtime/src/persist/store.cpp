//===- persist/store.cpp - A directory of persistent objects --------------===//
//
// Every operation reaches its record through detail::walk (no symbolic links
// below the root); saves are temporary file + fdatasync + rename + directory
// fsync.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/store.hpp"

#include "lock_file.hpp"
#include "path_walk.hpp"
#include "poc/persist/crc32c.hpp"
#include "poc/persist/error.hpp"
#include "posix_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;

namespace poc::persist {

using detail::FileMode;
using detail::IoContext;
using detail::Restart;
using detail::throw_io;
using detail::UniqueFd;
using detail::walk;
using detail::Walk;
using detail::with_restarts;

namespace {

constexpr std::string_view TempSuffix = ".tmp";

/// A name for a temporary file next to \p leaf that no other save uses:
/// the process id separates processes, the counter threads and attempts.
std::string temp_name(const std::string &leaf) {
  static std::atomic<std::uint64_t> counter{0};
  return "." + leaf + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) +
         std::string(TempSuffix);
}

/// Whether \p name has the form temp_name() gives: ".<leaf>.pobj.<pid>.<n>.tmp".
bool is_temporary_name(std::string_view name) {
  if (!name.starts_with('.') || !name.ends_with(TempSuffix))
    return false;
  name = name.substr(1, name.size() - 1 - TempSuffix.size());
  for (int field = 0; field < 2; ++field) {
    std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == name.size() ||
        name.find_first_not_of("0123456789", dot + 1) != std::string_view::npos)
      return false;
    name = name.substr(0, dot);
  }
  return name.ends_with(Address::file_suffix) &&
         Address::check(name.substr(0, name.size() - Address::file_suffix.size())).empty() &&
         name.find('/') == std::string_view::npos;
}

/// Bytes the first read of a record asks for: the whole header and, for
/// small objects, the whole payload, so loading those takes one read.
constexpr std::size_t FirstReadBytes = 16 * 1024;
static_assert(FirstReadBytes >= record::fixed_header_size + record::max_class_name_length +
                                    Address::max_length + 4,
              "the first read must cover the longest header");

/// An open record file and what its header says.
struct OpenRecord {
  UniqueFd fd;
  record::FixedHeader fixed;
  RecordInfo info;
  std::vector<std::byte> head; ///< The file's first bytes: header, then payload.
};

[[noreturn]] void not_found(const IoContext &ctx) {
  throw store_error(store_errc::not_found, ctx.address,
                    "no such object in store (" + ctx.file + ")");
}

/// Opens and validates the header and size of the record of \p address.
OpenRecord open_record(const fs::path &root, const Address &address, const IoContext &ctx) {
  Walk w = with_restarts(ctx, [&] { return walk(root, address, false, false, ctx); });
  if (!w.found)
    not_found(ctx);
  // O_NONBLOCK: a FIFO planted under a record's name must not hang the open
  // (it is then rejected as not a regular file); regular files ignore it.
  UniqueFd fd(::openat(w.parent(), w.leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT)
      not_found(ctx);
    if (errno == ELOOP)
      throw store_error(store_errc::io, ctx.address,
                        ctx.file + " is a symbolic link; the store does not follow links");
    throw_io(ctx, "cannot open", errno);
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    throw_io(ctx, "cannot stat", errno);
  if (!S_ISREG(st.st_mode))
    throw store_error(store_errc::io, ctx.address, ctx.file + " is not a regular file");
  auto file_size = static_cast<std::uint64_t>(st.st_size);

  record::Source src{ctx.address, ctx.file};
  std::vector<std::byte> head(
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, FirstReadBytes)));
  head.resize(detail::read_at(fd.get(), head, 0, ctx));
  record::FixedHeader fixed = record::decode_fixed(head, src);
  std::uint64_t header_size = fixed.header_size();
  RecordInfo info = record::decode_header(fixed, head, src);

  if (fixed.payload_size > std::numeric_limits<std::uint64_t>::max() - header_size ||
      file_size < header_size + fixed.payload_size)
    throw store_error(store_errc::truncated, ctx.address,
                      ctx.file + " is truncated: it has " + std::to_string(file_size) +
                          " bytes, the record needs " + std::to_string(header_size) + " + " +
                          std::to_string(fixed.payload_size));
  if (file_size > header_size + fixed.payload_size)
    throw store_error(store_errc::corrupt, ctx.address,
                      ctx.file + " has " +
                          std::to_string(file_size - header_size - fixed.payload_size) +
                          " bytes after the end of its record");
  return OpenRecord{std::move(fd), fixed, std::move(info), std::move(head)};
}

/// The header of a record of \p parts saved at \p now.
std::vector<std::byte> make_header(const Address &address, std::string_view class_name,
                                   std::uint64_t layout_hash,
                                   std::span<const std::span<const std::byte>> parts,
                                   SavedTime now) {
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
  for (std::span<const std::byte> part : parts) {
    size += part.size();
    crc = crc32c(part.data(), part.size(), crc);
  }
  return record::encode_header(RecordInfo{address, std::string(class_name), layout_hash, size, now},
                               crc);
}

/// Writes header and parts to a new temporary file in \p w's directory,
/// flushed (fdatasync) if \p sync. \returns its name. \throws Restart if the
/// directory vanished.
std::string write_temp(const Walk &w, std::span<const std::byte> header,
                       std::span<const std::span<const std::byte>> parts, bool sync,
                       const IoContext &ctx) {
  std::string temp = temp_name(w.leaf);
  UniqueFd fd(::openat(w.parent(), temp.c_str(),
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, FileMode));
  if (!fd) {
    if (errno == ENOENT || errno == EEXIST)
      throw Restart{};
    throw_io(ctx, "cannot create a temporary file for", errno);
  }
  try {
    detail::write_all(fd.get(), header, ctx);
    for (std::span<const std::byte> part : parts)
      detail::write_all(fd.get(), part, ctx);
    if (sync)
      detail::sync_fd(fd.get(), true, ctx);
    // close() reports delayed write errors on some file systems (NFS).
    if (::close(fd.release()) != 0)
      throw_io(ctx, "cannot close the temporary file of", errno);
  } catch (...) {
    ::unlinkat(w.parent(), temp.c_str(), 0);
    throw;
  }
  return temp;
}

/// Renames \p temp onto the record of \p w, flushing the directory if
/// \p sync; removes \p temp if the rename fails.
void install(const Walk &w, const std::string &temp, bool sync, const IoContext &ctx) {
  if (::renameat(w.parent(), temp.c_str(), w.parent(), w.leaf.c_str()) != 0) {
    int err = errno;
    ::unlinkat(w.parent(), temp.c_str(), 0);
    throw_io(ctx, "cannot rename the temporary file onto", err);
  }
  if (sync)
    detail::sync_fd(w.parent(), false, ctx);
}

} // namespace

Store::Store(fs::path root, StoreOptions options) : Root(std::move(root)), Options(options) {
  if (Root.empty())
    throw store_error(store_errc::no_root, "", "the store directory path is empty");
}

fs::path Store::default_root() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? v : "";
  };
  // Made absolute now, so that a later chdir() does not move the store.
  if (std::string dir = env("POC_STORE"); !dir.empty())
    return fs::absolute(dir);
  if (std::string xdg = env("XDG_DATA_HOME"); !xdg.empty() && xdg.front() == '/')
    return fs::path(xdg) / "poc" / "store";
  if (std::string home = env("HOME"); !home.empty())
    return fs::path(home) / ".local" / "share" / "poc" / "store";
  throw store_error(store_errc::no_root, "",
                    "no store directory: set POC_STORE (or XDG_DATA_HOME or HOME)");
}

fs::path Store::file_of(const Address &address) const { return Root / address.relative_file(); }

SavedTime Store::save(const Address &address, std::string_view class_name,
                      std::uint64_t layout_hash, std::span<const std::byte> payload) const {
  std::span<const std::byte> parts[] = {payload};
  return save_parts(address, class_name, layout_hash, parts);
}

SavedTime Store::save_parts(const Address &address, std::string_view class_name,
                            std::uint64_t layout_hash,
                            std::span<const std::span<const std::byte>> parts) const {
  std::string file = file_of(address).string();
  IoContext ctx{address.str(), file};
  SavedTime now =
      std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  std::vector<std::byte> header = make_header(address, class_name, layout_hash, parts, now);
  with_restarts(ctx, [&] {
    Walk w = walk(Root, address, true, Options.durable, ctx);
    std::string temp = write_temp(w, header, parts, Options.durable, ctx);
    install(w, temp, Options.durable, ctx);
  });
  return now;
}

SavedTime Store::save_all(std::span<const SaveItem> items) const {
  SavedTime now =
      std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  // Temporaries written but not yet renamed, removed again if anything fails.
  std::vector<std::pair<const SaveItem *, std::string>> pending;
  std::size_t installed = 0;
  auto abandon = [&] {
    for (std::size_t i = installed; i < pending.size(); ++i) {
      auto &[item, temp] = pending[i];
      std::string file = file_of(item->address).string();
      IoContext ctx{item->address.str(), file};
      try {
        Walk w = walk(Root, item->address, false, false, ctx);
        if (w.found)
          ::unlinkat(w.parent(), temp.c_str(), 0);
      } catch (...) {
        // Best effort: clean() removes what is left.
      }
    }
  };
  try {
    // 1. Every record's data into a temporary file, none flushed yet.
    for (const SaveItem &item : items) {
      std::string file = file_of(item.address).string();
      IoContext ctx{item.address.str(), file};
      std::vector<std::byte> header =
          make_header(item.address, item.class_name, item.layout_hash, item.parts, now);
      with_restarts(ctx, [&] {
        Walk w = walk(Root, item.address, true, Options.durable, ctx);
        pending.emplace_back(&item, write_temp(w, header, item.parts, false, ctx));
      });
    }
    // 2. One flush of the file system instead of one per record, then the
    //    renames, then one more flush for the renames.
    if (Options.durable)
      sync_file_system();
    // In order, so that of two items with one address the later one wins.
    for (; installed < pending.size(); ++installed) {
      auto &[item, temp] = pending[installed];
      std::string file = file_of(item->address).string();
      IoContext ctx{item->address.str(), file};
      // The temporary keeps its directory from being pruned, so no restart.
      Walk w = walk(Root, item->address, false, false, ctx);
      install(w, temp, false, ctx);
    }
    if (Options.durable)
      sync_file_system();
  } catch (...) {
    abandon();
    throw;
  }
  return now;
}

void Store::sync_file_system() const {
  std::string root = Root.string();
  IoContext ctx{"", root};
  UniqueFd fd(::open(Root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd)
    throw_io(ctx, "cannot open store directory", errno);
  if (::syncfs(fd.get()) != 0)
    throw_io(ctx, "cannot flush the file system of", errno);
}

Record Store::load(const Address &address) const {
  std::string file = file_of(address).string();
  IoContext ctx{address.str(), file};
  OpenRecord r = open_record(Root, address, ctx);
  Record out{std::move(r.info), std::vector<std::byte>(r.fixed.payload_size)};
  // The first read brought the payload's beginning (all of a small one).
  std::size_t header_size = r.fixed.header_size();
  std::size_t have = std::min(r.head.size() - header_size, out.payload.size());
  std::copy_n(r.head.begin() + static_cast<std::ptrdiff_t>(header_size), have, out.payload.begin());
  std::size_t got = have + detail::read_at(r.fd.get(), std::span(out.payload).subspan(have),
                                           header_size + have, ctx);
  record::check_payload(r.fixed, std::span(out.payload.data(), got),
                        record::Source{ctx.address, ctx.file});
  return out;
}

Record Store::load(const Address &address, std::string_view class_name,
                   std::uint64_t layout_hash) const {
  Record r = load(address);
  if (r.info.class_name != class_name)
    throw store_error(store_errc::class_mismatch, address.str(),
                      "stored object is of class " + r.info.class_name + ", expected " +
                          std::string(class_name));
  if (r.info.layout_hash != layout_hash) {
    throw store_error(store_errc::layout_mismatch, address.str(),
                      fmt::format("stored object of class {} was saved by a program with a "
                                  "different layout of that class (stored layout hash {:016x}, "
                                  "this program's {:016x})",
                                  r.info.class_name, r.info.layout_hash, layout_hash));
  }
  return r;
}

RecordInfo Store::info(const Address &address) const {
  std::string file = file_of(address).string();
  IoContext ctx{address.str(), file};
  return open_record(Root, address, ctx).info;
}

bool Store::contains(const Address &address) const {
  std::string file = file_of(address).string();
  IoContext ctx{address.str(), file};
  Walk w = with_restarts(ctx, [&] { return walk(Root, address, false, false, ctx); });
  struct stat st;
  return w.found && ::fstatat(w.parent(), w.leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool Store::remove(const Address &address) const {
  std::string file = file_of(address).string();
  IoContext ctx{address.str(), file};
  Walk w = with_restarts(ctx, [&] { return walk(Root, address, false, false, ctx); });
  if (!w.found)
    return false;
  if (::unlinkat(w.parent(), w.leaf.c_str(), 0) != 0) {
    if (errno == ENOENT)
      return false;
    throw_io(ctx, "cannot remove", errno);
  }
  if (Options.durable)
    detail::sync_fd(w.parent(), false, ctx);
  detail::remove_if_unlocked(w.parent(), detail::lock_name(w.leaf));
  detail::prune_empty(w, address);
  return true;
}

ScanResult Store::scan() const {
  ScanResult out;
  std::error_code ec;
  if (!fs::is_directory(Root, ec))
    return out;
  fs::recursive_directory_iterator it(Root, fs::directory_options::none, ec), end;
  if (ec)
    throw store_error(store_errc::io, "",
                      "cannot read store directory " + Root.string() + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec)
      throw store_error(store_errc::io, "",
                        "cannot read store directory " + Root.string() + ": " + ec.message());
    const fs::directory_entry &e = *it;
    if (e.is_directory(ec) && !e.is_symlink(ec))
      continue;
    std::string name = e.path().filename().string();
    std::string rel = e.path().lexically_relative(Root).generic_string();
    bool regular = e.is_regular_file(ec) && !e.is_symlink(ec);
    if (regular && is_temporary_name(name)) {
      out.temporaries.push_back(e.path());
      continue;
    }
    if (regular && detail::is_lock_name(name)) {
      out.locks.push_back(e.path());
      continue;
    }
    if (regular && rel.ends_with(Address::file_suffix)) {
      std::string addr = rel.substr(0, rel.size() - Address::file_suffix.size());
      if (Address::check(addr).empty()) {
        out.objects.push_back(Address::parse(addr));
        continue;
      }
    }
    out.foreign.push_back(e.path());
  }
  std::sort(out.objects.begin(), out.objects.end());
  return out;
}

std::size_t Store::clean(std::chrono::seconds min_age) const {
  std::size_t removed = 0;
  auto now = fs::file_time_type::clock::now();
  ScanResult found = scan();
  for (const fs::path &lock : found.locks) {
    // ".x.pobj.lock" belongs to "x.pobj"; keep it while that exists.
    std::string name = lock.filename().string();
    std::string record = name.substr(1, name.size() - 1 - std::string_view(".lock").size());
    std::error_code ec;
    if (fs::exists(lock.parent_path() / record, ec) || ec)
      continue;
    UniqueFd dir(::open(lock.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir && detail::remove_if_unlocked(dir.get(), name))
      ++removed;
  }
  for (const fs::path &temp : found.temporaries) {
    std::error_code ec;
    auto modified = fs::last_write_time(temp, ec);
    if (ec || now - modified < min_age)
      continue; // gone meanwhile (renamed into place), or maybe still being written
    if (::unlink(temp.c_str()) == 0)
      ++removed;
  }
  return removed;
}

std::vector<Address> Store::list(std::string_view prefix) const {
  std::vector<Address> all = scan().objects;
  std::erase_if(all, [&](const Address &a) { return !a.str().starts_with(prefix); });
  return all;
}

} // namespace poc::persist
