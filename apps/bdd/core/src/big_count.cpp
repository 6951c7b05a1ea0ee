#include "bdd/big_count.hpp"

#include <algorithm>
#include <cassert>

namespace bdd {

BigCount::BigCount(std::uint64_t value) {
  while (value) {
    limbs_.push_back(static_cast<std::uint32_t>(value));
    value >>= 32;
  }
}

BigCount BigCount::power_of_two(unsigned exponent) { return BigCount(1) << exponent; }

void BigCount::trim() {
  while (!limbs_.empty() && limbs_.back() == 0)
    limbs_.pop_back();
}

BigCount &BigCount::operator+=(const BigCount &other) {
  limbs_.resize(std::max(limbs_.size(), other.limbs_.size()) + 1, 0);
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    std::uint64_t sum = carry + limbs_[i] + (i < other.limbs_.size() ? other.limbs_[i] : 0);
    limbs_[i] = static_cast<std::uint32_t>(sum);
    carry = sum >> 32;
  }
  trim();
  return *this;
}

BigCount &BigCount::operator-=(const BigCount &other) {
  assert(other.limbs_.size() <= limbs_.size());
  std::int64_t borrow = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    std::int64_t diff = static_cast<std::int64_t>(limbs_[i]) - borrow -
                        (i < other.limbs_.size() ? other.limbs_[i] : 0);
    borrow = diff < 0 ? 1 : 0;
    limbs_[i] = static_cast<std::uint32_t>(diff + (borrow << 32));
  }
  assert(borrow == 0);
  trim();
  return *this;
}

BigCount &BigCount::operator<<=(unsigned bits) {
  if (limbs_.empty())
    return *this;
  limbs_.insert(limbs_.begin(), bits / 32, 0);
  if (unsigned shift = bits % 32) {
    std::uint32_t carry = 0;
    for (auto &limb : limbs_) {
      std::uint32_t next = limb >> (32 - shift);
      limb = (limb << shift) | carry;
      carry = next;
    }
    if (carry)
      limbs_.push_back(carry);
  }
  return *this;
}

std::string BigCount::to_string() const {
  if (limbs_.empty())
    return "0";
  std::vector<std::uint32_t> n = limbs_;
  std::string digits;
  while (!n.empty()) {
    std::uint64_t rest = 0;
    for (std::size_t i = n.size(); i-- > 0;) {
      std::uint64_t cur = (rest << 32) | n[i];
      n[i] = static_cast<std::uint32_t>(cur / 1000000000u);
      rest = cur % 1000000000u;
    }
    while (!n.empty() && n.back() == 0)
      n.pop_back();
    for (int d = 0; d < 9 && (!n.empty() || rest); ++d) {
      digits.push_back(static_cast<char>('0' + rest % 10));
      rest /= 10;
    }
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

double BigCount::to_double() const {
  double value = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;)
    value = value * 4294967296.0 + limbs_[i];
  return value;
}

} // namespace bdd
