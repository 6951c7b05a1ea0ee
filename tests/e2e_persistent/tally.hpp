#pragma once
// The process class of the persistent-process programs: its state (private
// fields included) is saved by the Serializer poc++ generates for it.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

class Tally {
public:
  Tally() = default;
  explicit Tally(std::string owner) : owner_(std::move(owner)) {}
  long add(long x) {
    total_ += x;
    history_.push_back(x);
    return total_;
  }
  long total() const { return total_; }
  std::string owner() const { return owner_; }
  std::size_t steps() const { return history_.size(); }

private:
  std::string owner_;
  long total_ = 0;
  std::vector<long> history_;
};
