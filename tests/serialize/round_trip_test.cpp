//===- round_trip_test.cpp - Every supported type survives a round trip ---===//
#include "round_trip.hpp"

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace {

using poc::test::round_trip;

template <class T> void expect_limits_round_trip() {
  EXPECT_EQ(round_trip(std::numeric_limits<T>::min()), std::numeric_limits<T>::min());
  EXPECT_EQ(round_trip(std::numeric_limits<T>::max()), std::numeric_limits<T>::max());
  EXPECT_EQ(round_trip(std::numeric_limits<T>::lowest()), std::numeric_limits<T>::lowest());
  EXPECT_EQ(round_trip(T{}), T{});
}

TEST(RoundTrip, ArithmeticExtremes) {
  expect_limits_round_trip<char>();
  expect_limits_round_trip<signed char>();
  expect_limits_round_trip<unsigned char>();
  expect_limits_round_trip<char8_t>();
  expect_limits_round_trip<char16_t>();
  expect_limits_round_trip<char32_t>();
  expect_limits_round_trip<wchar_t>();
  expect_limits_round_trip<short>();
  expect_limits_round_trip<unsigned short>();
  expect_limits_round_trip<int>();
  expect_limits_round_trip<unsigned>();
  expect_limits_round_trip<long>();
  expect_limits_round_trip<unsigned long>();
  expect_limits_round_trip<long long>();
  expect_limits_round_trip<unsigned long long>();
  expect_limits_round_trip<float>();
  expect_limits_round_trip<double>();
  expect_limits_round_trip<long double>();
  EXPECT_TRUE(round_trip(true));
  EXPECT_FALSE(round_trip(false));
}

TEST(RoundTrip, FloatingPointSpecialValues) {
  EXPECT_TRUE(std::isnan(round_trip(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(round_trip(std::numeric_limits<double>::infinity()),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(round_trip(-std::numeric_limits<float>::infinity()),
            -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::signbit(round_trip(-0.0)));
  EXPECT_EQ(round_trip(std::numeric_limits<double>::denorm_min()),
            std::numeric_limits<double>::denorm_min());
}

TEST(RoundTrip, EnumsAndByte) {
  enum Plain { A = -5, B = 1 << 30 };
  enum class Small : std::uint8_t { X = 200 };
  enum class Flag : bool { Off, On };
  EXPECT_EQ(round_trip(A), A);
  EXPECT_EQ(round_trip(B), B);
  EXPECT_EQ(round_trip(Small::X), Small::X);
  EXPECT_EQ(round_trip(Flag::On), Flag::On);
  EXPECT_EQ(round_trip(std::byte{0xFE}), std::byte{0xFE});
}

TEST(RoundTrip, Strings) {
  EXPECT_EQ(round_trip(std::string()), "");
  EXPECT_EQ(round_trip(std::string("hello")), "hello");
  std::string with_nul("a\0b\0", 4);
  EXPECT_EQ(round_trip(with_nul), with_nul);
  std::string unicode = "Grüße, 世界, \U0001F600, Ελληνικά";
  EXPECT_EQ(round_trip(unicode), unicode);
  // (EXPECT_TRUE: the system GoogleTest cannot print char8_t strings.)
  EXPECT_TRUE(round_trip(std::u8string(u8"π ≈ 3.14")) == u8"π ≈ 3.14");
  EXPECT_EQ(round_trip(std::u16string(u"\u00e9t\u00e9 \U0001F600")), u"\u00e9t\u00e9 \U0001F600");
  EXPECT_EQ(round_trip(std::u32string(U"\U0010FFFF")), U"\U0010FFFF");
  EXPECT_EQ(round_trip(std::wstring(L"wide")), L"wide");
  std::string long_string(100000, 'x');
  EXPECT_EQ(round_trip(long_string), long_string);
}

TEST(RoundTrip, StringViewIsReceivedAsString) {
  poc::Writer w;
  w.write(std::string_view("view"));
  poc::Reader r(w.bytes());
  EXPECT_EQ(r.read<std::string>(), "view");
  r.expect_end();
}

TEST(RoundTrip, SpanIsReceivedAsVector) {
  std::vector<int> ints{1, 2, 3};
  std::vector<std::string> strings{"a", "bc"};
  poc::Writer w;
  w.write(std::span<const int>(ints));
  w.write(std::span<std::string>(strings));
  poc::Reader r(w.bytes());
  EXPECT_EQ(r.read<std::vector<int>>(), ints);
  EXPECT_EQ(r.read<std::vector<std::string>>(), strings);
  r.expect_end();
}

TEST(RoundTrip, Vectors) {
  EXPECT_EQ(round_trip(std::vector<int>()), std::vector<int>());
  EXPECT_EQ(round_trip(std::vector<double>{1.5, -2.5}), (std::vector<double>{1.5, -2.5}));
  EXPECT_EQ(round_trip(std::vector<std::string>{"", "a", "bb"}),
            (std::vector<std::string>{"", "a", "bb"}));
  EXPECT_EQ(round_trip(std::vector<std::vector<int>>{{}, {1}, {2, 3}}),
            (std::vector<std::vector<int>>{{}, {1}, {2, 3}}));
  std::vector<bool> bits;
  for (int i = 0; i < 77; ++i)
    bits.push_back(i % 3 == 0);
  EXPECT_EQ(round_trip(bits), bits);
  EXPECT_EQ(round_trip(std::vector<bool>()), std::vector<bool>());
  std::vector<std::complex<float>> waves{{1, 2}, {3, -4}};
  EXPECT_EQ(round_trip(waves), waves);
}

TEST(RoundTrip, ReadingOverwritesPreviousContents) {
  poc::Writer w;
  w.write(std::vector<std::string>{"x"});
  w.write(std::map<int, int>{{1, 1}});
  poc::Reader r(w.bytes());
  std::vector<std::string> v{"old", "older", "oldest"};
  std::map<int, int> m{{5, 5}, {6, 6}};
  r.read_all(v, m);
  EXPECT_EQ(v, std::vector<std::string>{"x"});
  EXPECT_EQ(m, (std::map<int, int>{{1, 1}}));
}

TEST(RoundTrip, FixedArrays) {
  std::array<int, 4> a{1, 2, 3, 4};
  EXPECT_EQ(round_trip(a), a);
  std::array<std::string, 2> s{"x", "yz"};
  EXPECT_EQ(round_trip(s), s);
  EXPECT_EQ(round_trip(std::array<int, 0>{}), (std::array<int, 0>{}));

  poc::Writer w;
  int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
  std::string names[2] = {"p", "q"};
  w.write_all(grid, names);
  poc::Reader r(w.bytes());
  int grid_in[2][3] = {};
  std::string names_in[2];
  r.read_all(grid_in, names_in);
  r.expect_end();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(grid_in[i][j], grid[i][j]);
  EXPECT_EQ(names_in[0], "p");
  EXPECT_EQ(names_in[1], "q");
}

TEST(RoundTrip, SequenceContainers) {
  std::deque<std::string> d{"a", "b"};
  EXPECT_EQ(round_trip(d), d);
  std::list<double> l{1, 2, 3};
  EXPECT_EQ(round_trip(l), l);
  EXPECT_EQ(round_trip(std::list<int>()), std::list<int>());
}

TEST(RoundTrip, AssociativeContainers) {
  std::map<std::string, std::vector<int>> m{{"one", {1}}, {"two", {2, 2}}, {"", {}}};
  EXPECT_EQ(round_trip(m), m);
  std::unordered_map<int, std::string> um{{1, "a"}, {-7, "b"}};
  EXPECT_EQ(round_trip(um), um);
  std::set<std::string> s{"x", "y"};
  EXPECT_EQ(round_trip(s), s);
  std::unordered_set<long> us{1, 2, 3};
  EXPECT_EQ(round_trip(us), us);
  std::multimap<int, int> mm{{1, 2}, {1, 3}, {0, 1}};
  EXPECT_EQ(round_trip(mm), mm);
  std::multiset<int> ms{5, 5, 1};
  EXPECT_EQ(round_trip(ms), ms);
  std::unordered_multimap<int, int> umm{{1, 1}, {1, 2}};
  EXPECT_EQ(round_trip(umm), umm);
  std::unordered_multiset<int> ums{4, 4};
  EXPECT_EQ(round_trip(ums), ums);
  std::map<int, int, std::greater<>> reversed{{1, 1}, {2, 2}};
  EXPECT_EQ(round_trip(reversed), reversed);
  EXPECT_EQ(round_trip(std::map<int, int>()), (std::map<int, int>()));
}

TEST(RoundTrip, Utilities) {
  std::pair<int, std::string> p{3, "three"};
  EXPECT_EQ(round_trip(p), p);
  std::tuple<int, std::string, double, bool> t{1, "x", 2.5, true};
  EXPECT_EQ(round_trip(t), t);
  EXPECT_EQ(round_trip(std::tuple<>()), std::tuple<>());
  EXPECT_EQ(round_trip(std::optional<std::string>()), std::nullopt);
  EXPECT_EQ(round_trip(std::optional<std::string>("v")), "v");
  using V = std::variant<std::monostate, int, std::string, std::vector<double>>;
  EXPECT_EQ(round_trip(V()), V());
  EXPECT_EQ(round_trip(V(5)), V(5));
  EXPECT_EQ(round_trip(V(std::string("s"))), V(std::string("s")));
  EXPECT_EQ(round_trip(V(std::vector<double>{1})), V(std::vector<double>{1}));
  std::complex<double> c{1.5, -2};
  EXPECT_EQ(round_trip(c), c);
}

TEST(RoundTrip, VariantReadReusesOrReplacesTheAlternative) {
  using V = std::variant<int, std::string>;
  poc::Writer w;
  w.write(V(std::string("new")));
  w.write(V(9));
  poc::Reader r(w.bytes());
  V v = std::string("old");
  r.read(v);
  EXPECT_EQ(v, V(std::string("new")));
  r.read(v);
  EXPECT_EQ(v, V(9));
}

/// A class serialized through its own members.
class Account {
public:
  Account() = default;
  Account(std::string owner, long cents) : owner_(std::move(owner)), cents_(cents) {}
  void poc_write(poc::Writer &w) const { w.write_all(owner_, cents_); }
  void poc_read(poc::Reader &r) { r.read_all(owner_, cents_); }
  bool operator==(const Account &) const = default;

private:
  std::string owner_;
  long cents_ = 0;
};

/// A class with a hand-written Serializer, like the ones poc++ generates.
struct Point {
  double x = 0, y = 0;
  bool operator==(const Point &) const = default;
};

} // namespace

template <> struct poc::Serializer<Point> {
  static constexpr std::size_t min_size = 16;
  static void write(Writer &w, const Point &p) { w.write_all(p.x, p.y); }
  static void read(Reader &r, Point &p) { r.read_all(p.x, p.y); }
};

namespace {

TEST(RoundTrip, UserClasses) {
  Account a("ada", 1234);
  EXPECT_EQ(round_trip(a), a);
  EXPECT_EQ(round_trip(Point{1, 2}), (Point{1, 2}));
  std::vector<Point> points{{1, 2}, {3, 4}};
  EXPECT_EQ(round_trip(points), points);
  static_assert(poc::min_encoded_size_v<Point> == 16);
  std::vector<Account> accounts{a, {"bob", -1}};
  EXPECT_EQ(round_trip(accounts), accounts);
}

TEST(RoundTrip, NestedCombinations) {
  using Nested =
      std::map<std::string, std::vector<std::optional<std::tuple<int, std::set<std::string>,
                                                                 std::variant<Point, Account>>>>>;
  Nested n;
  n["first"].push_back(std::nullopt);
  n["first"].push_back(std::tuple{1, std::set<std::string>{"a", "b"}, Point{3, 4}});
  n["second"].push_back(std::tuple{2, std::set<std::string>{}, Account("c", 5)});
  n["empty"];
  EXPECT_EQ(round_trip(n), n);

  std::vector<std::map<int, std::deque<std::list<std::pair<std::string, double>>>>> deep(2);
  deep[1][7].push_back({{"pi", 3.14}, {"e", 2.72}});
  deep[1][7].emplace_back();
  EXPECT_EQ(round_trip(deep), deep);
}

TEST(RoundTrip, ReadAllAndWriteAllKeepOrder) {
  poc::Writer w;
  w.write_all(1, std::string("two"), 3.0, std::vector<int>{4});
  poc::Reader r(w.bytes());
  int one;
  std::string two;
  double three;
  std::vector<int> four;
  r.read_all(one, two, three, four);
  r.expect_end();
  EXPECT_EQ(one, 1);
  EXPECT_EQ(two, "two");
  EXPECT_EQ(three, 3.0);
  EXPECT_EQ(four, std::vector<int>{4});
}

} // namespace
