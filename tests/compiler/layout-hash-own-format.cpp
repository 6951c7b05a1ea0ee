// A served class that writes its own state (poc_write/poc_read) gets a
// LayoutHash from its fields, marked as its own format, unless it declares
// poc_layout_hash, which then versions its format instead (no LayoutHash is
// generated and poc::LayoutHash reads the constant).
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s
#include <poc/poc.hpp>

#include <string>

class Ledger {
public:
  Ledger() = default;
  void add(long amount) { total_ += amount; }
  void poc_write(poc::Writer &w) const {
    w.write(owner_);
    w.write(total_);
  }
  void poc_read(poc::Reader &r) {
    owner_ = r.read<std::string>();
    total_ = r.read<long>();
  }

private:
  std::string owner_;
  long total_ = 0;
};

class Versioned {
public:
  Versioned() = default;
  void set(int v) { value_ = v; }
  static constexpr std::uint64_t poc_layout_hash = 7;
  void poc_write(poc::Writer &w) const { w.write(value_); }
  void poc_read(poc::Reader &r) { value_ = r.read<int>(); }

private:
  int value_ = 0;
};

int main() {
  Ledger *l = new (poc::persistent_at("m", "ledgers/a")) Ledger();
  l->add(5);
  Versioned *v = new (poc::persistent_at("m", "versions/a")) Versioned();
  v->set(1);
  return 0;
}

// CHECK: template <> struct LayoutHash<::Ledger> {
// CHECK-NEXT: {{\[\[maybe_unused\]\] }}static constexpr std::uint64_t value = ::poc::layout_hash("Ledger{own:std::basic_string<char, std::char_traits<char>, std::allocator<char>> owner_;long total_;}");
// CHECK-NOT: struct LayoutHash<::Versioned>
// CHECK: ClassRegistration<::Ledger
