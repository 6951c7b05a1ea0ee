"""Generated template-heavy programs for the mutation fuzzer (issue 23, part 0).

The project's own programs use few templates, so poc++'s instantiation of
the user's templates after the parse (docs/compiler.md, section 6) met
little real library code; a real project's test suite crashed it on the copy
of an array member inside a user's template. `generate(rng)` writes a small,
valid C++20 program that includes and instantiates the standard library's
headers and installed libraries' headers (fmt, GoogleTest) with user structs
holding C arrays, nested arrays, std::array, strings and containers: the
user's function and class templates copy, move, swap, compare, sort, visit,
hash into containers and format them, and a generic part instantiates every
template with every struct. With `process=True` the program also has a
process class whose methods take those structs, called from a template.

Everything depends only on the random generator, so a fixed seed writes the
same programs.
"""

# Headers every program includes (what the snippets below need), then the
# optional ones, each with the snippets it enables.
BASE_HEADERS = ["<algorithm>", "<array>", "<cstdio>", "<cstring>", "<map>", "<string>",
                "<utility>", "<vector>"]

# Field kinds: (declaration with {n} for the name, expression reading an int
# from x's field, headers). Every kind is sendable, copyable and has ==.
FIELDS = [
    ("int {n}[{k}];", "x.{n}[0]", []),
    ("double {n}[{k}][2];", "int(x.{n}[0][1])", []),
    ("char {n}[{k}];", "int(x.{n}[0])", []),
    ("std::array<int, {k}> {n};", "x.{n}[0]", []),
    ("std::string {n};", "int(x.{n}.size())", []),
    ("std::vector<int> {n};", "int(x.{n}.size())", []),
    ("std::map<int, std::string> {n};", "int(x.{n}.size())", []),
    ("std::optional<double> {n};", "int(x.{n}.has_value())", ["<optional>"]),
    ("std::pair<int, std::string> {n};", "x.{n}.first", []),
    ("std::tuple<int, double, std::string> {n};", "std::get<0>(x.{n})", ["<tuple>"]),
    ("std::shared_ptr<int> {n};", "int(bool(x.{n}))", ["<memory>"]),
]

# Function templates over one type T (a user struct with an int `key`
# first). Each: (headers, definition, call with {x} an lvalue of the struct).
FUNCTIONS = [
    ([], "template <class T> void assign(T &x, const T &y) { x = y; }", "assign({x}, {x});"),
    ([], "template <class T> T copied(const T &x) { T y(x); y = x; return y; }",
     "r += copied({x}).key;"),
    ([], "template <class T> void moved(T &x) { T y(std::move(x)); x = std::move(y); }",
     "moved({x});"),
    ([], "template <class T> void swapped(T &x) { T y = x; std::swap(x, y); using std::swap; "
         "swap(y, x); }", "swapped({x});"),
    ([], "template <class T> bool same(const T &x) { T y = x; return x == y && !(x != y); }",
     "r += same({x});"),
    ([], "template <class T> int sorted(const T &x) {\n"
         "  std::vector<T> v(3, x);\n  v.push_back(x);\n  v.insert(v.begin(), x);\n"
         "  v[1].key = -1;\n"
         "  std::sort(v.begin(), v.end(), [](const T &a, const T &b) { return a.key < b.key; });\n"
         "  std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.key > b.key; });\n"
         "  std::reverse(v.begin(), v.end());\n  v.erase(v.begin());\n"
         "  auto it = std::find_if(v.begin(), v.end(), [](const T &a) { return a.key < 0; });\n"
         "  return int(it - v.begin()) + int(v.size());\n}", "r += sorted({x});"),
    ([], "template <class T> int mapped(const T &x) {\n  std::map<int, T> m;\n  m[1] = x;\n"
         "  m.emplace(2, x);\n  m.insert_or_assign(3, m.at(1));\n  int n = 0;\n"
         "  for (auto &[k, e] : m)\n    n += k + e.key;\n  return n;\n}", "r += mapped({x});"),
    (["<unordered_map>"], "template <class T> int hashed(const T &x) {\n"
     "  std::unordered_map<std::string, T> m{{\"a\", x}};\n  m[\"b\"] = m[\"a\"];\n"
     "  return int(m.size());\n}", "r += hashed({x});"),
    (["<set>"], "template <class T> int ordered(const T &x) {\n"
     "  auto less = [](const T &a, const T &b) { return a.key < b.key; };\n"
     "  std::set<T, decltype(less)> s(less);\n  s.insert(x);\n  T y = x;\n  y.key += 1;\n"
     "  s.insert(y);\n  return int(s.size());\n}", "r += ordered({x});"),
    (["<deque>", "<list>"], "template <class T> int queued(const T &x) {\n"
     "  std::deque<T> d{x, x};\n  d.push_front(x);\n  std::list<T> l(d.begin(), d.end());\n"
     "  l.sort([](const T &a, const T &b) { return a.key < b.key; });\n  l.unique();\n"
     "  return int(d.size() + l.size());\n}", "r += queued({x});"),
    (["<optional>"], "template <class T> std::optional<T> maybe(bool b, const T &x) {\n"
     "  if (b)\n    return x;\n  return std::nullopt;\n}",
     "r += maybe(true, {x})->key + maybe(false, {x}).has_value();"),
    (["<variant>"], "template <class T> int visited(const T &x) {\n"
     "  std::variant<int, T> v = x;\n  v = 3;\n  v = x;\n"
     "  return std::visit([](const auto &e) {\n"
     "    if constexpr (std::is_same_v<std::decay_t<decltype(e)>, int>)\n      return e;\n"
     "    else\n      return e.key;\n  }, v);\n}", "r += visited({x});"),
    (["<tuple>"], "template <class... T> int tupled(const T &...xs) {\n"
     "  std::tuple<T...> t(xs...);\n  auto u = t;\n  t = u;\n"
     "  return std::apply([](const auto &...e) { return (0 + ... + e.key); }, t);\n}",
     "r += tupled({x}, {x});"),
    (["<functional>"], "template <class T> int called(const T &x) {\n"
     "  std::function<T(T)> f = [](T y) { y.key += 1; return y; };\n"
     "  auto g = std::bind(f, std::placeholders::_1);\n"
     "  return std::invoke(g, x).key;\n}", "r += called({x});"),
    (["<memory>"], "template <class T> int owned(const T &x) {\n"
     "  auto u = std::make_unique<T>(x);\n  std::shared_ptr<T> s = std::make_shared<T>(*u);\n"
     "  *u = *s;\n  std::vector<std::unique_ptr<T>> v;\n  v.push_back(std::move(u));\n"
     "  return v.front()->key + int(s.use_count());\n}", "r += owned({x});"),
    ([], "template <class T, std::size_t N> int arrays(const T (&in)[N]) {\n"
     "  T out[N];\n  std::copy(in, in + N, out);\n  std::array<T, N> a{};\n"
     "  for (std::size_t i = 0; i < N; ++i)\n    a[i] = out[i];\n  auto b = a;\n"
     "  return b[N - 1].key;\n}", "{{ {T} in[2] = {{{x}, {x}}}; r += arrays(in); }}"),
    (["<numeric>"], "template <class T> int summed(const std::vector<T> &v) {\n"
     "  return std::accumulate(v.begin(), v.end(), 0, [](int s, const T &e) { return s + e.key; });\n}",
     "r += summed(std::vector<{T}>{{{x}, {x}}});"),
    (["<regex>"], "template <class T> int matched(const T &x) {\n"
     "  std::regex re(\"k([0-9]+)\");\n  std::smatch m;\n  std::string s = \"k\" + std::to_string(x.key);\n"
     "  return std::regex_match(s, m, re) ? int(m.size()) : -1;\n}", "r += matched({x});"),
    (["<fmt/format.h>"], "template <class T> int formatted(const T &x) {\n"
     "  std::string s = fmt::format(\"{} {}\", x.key, sizeof(T));\n  fmt::memory_buffer b;\n"
     "  fmt::format_to(std::back_inserter(b), \"{:>4}\", x.key);\n  return int(s.size() + b.size());\n}",
     "r += formatted({x});"),
    (["<ranges>"], "template <class T> int ranged(const T &x) {\n"
     "  std::vector<T> v{x, x, x};\n  std::ranges::sort(v, {}, &T::key);\n  int n = 0;\n"
     "  for (const T &e : v | std::views::filter([](const T &e) { return e.key >= 0; }))\n"
     "    n += e.key;\n  return n;\n}", "r += ranged({x});"),
    (["<concepts>"], "template <class T>\n  requires std::copyable<T>\nint constrained(T x) {\n"
     "  auto twice = [](std::copyable auto y) { auto z = y; return z; };\n  return twice(x).key;\n}",
     "r += constrained({x});"),
]

# Class templates over T.
CLASSES = [
    ([], "template <class T> class Holder {\npublic:\n  explicit Holder(const T &x) : items{x, x} {}\n"
         "  void set(const T &x) { items[1] = x; last = x; }\n"
         "  T get() const { T y = items[0]; y = last; return y; }\n"
         "  Holder &operator=(const Holder &) = default;\n\nprivate:\n  T items[2];\n  T last{};\n};",
     "{{ Holder<{T}> h({x}); h.set({x}); auto h2 = h; h2 = h; r += h2.get().key; }}"),
    ([], "template <class T, int N = 2> struct Ring {\n  T slots[N]{};\n  int at = 0;\n"
         "  void push(T x) { slots[at++ % N] = std::move(x); }\n"
         "  template <class F> int fold(F f) const { int s = 0; for (const T &e : slots) s += f(e); return s; }\n};",
     "{{ Ring<{T}> g; g.push({x}); g.push({x}); Ring<{T}> g2; g2 = g; "
     "r += g2.fold([](const auto &e) {{ return e.key; }}); }}"),
]

# gtest: a test per program, when chosen.
GTEST = (["<gtest/gtest.h>"],
         "template <class T> void expectCopies(const T &x) {\n  T y = x;\n  EXPECT_EQ(y.key, x.key);\n"
         "  ASSERT_TRUE(y == x);\n}")


def _struct(rng, name, inner):
    fields = ["int key = {};".format(rng.randrange(5))]
    headers = []
    reads = ["x.key"]
    for i in range(rng.randint(1, 4)):
        decl, read, hdrs = rng.choice(FIELDS)
        n = "f%d" % i
        fields.append(decl.format(n=n, k=rng.randint(1, 4)))
        reads.append(read.format(n=n))
        headers += hdrs
    if inner and rng.random() < 0.6:
        fields.append("%s inner[%d];" % (inner, rng.randint(1, 3)))
        reads.append("x.inner[0].key")
    text = "struct %s {\n%s\n  bool operator==(const %s &) const = default;\n};" % (
        name, "\n".join("  " + f for f in fields), name)
    return text, headers, reads


def generate(rng, process=False):
    """A valid C++20 program (the text) built from the pieces above."""
    headers = list(BASE_HEADERS)
    structs, reads = [], {}
    names = ["S%d" % i for i in range(rng.randint(1, 3))]
    for i, name in enumerate(names):
        text, hdrs, rd = _struct(rng, name, names[i - 1] if i else None)
        structs.append(text)
        headers += hdrs
        reads[name] = rd
    funcs = rng.sample(FUNCTIONS, rng.randint(3, min(9, len(FUNCTIONS))))
    classes = rng.sample(CLASSES, rng.randint(0, len(CLASSES)))
    use_gtest = rng.random() < 0.15
    pieces = funcs + classes + ([(GTEST[0], GTEST[1], None)] if use_gtest else [])
    for hdrs, _, _ in pieces:
        headers += hdrs
    # Half the time, the reproducer of issue 23's crash as such: an array
    # member copied in the user's own template, by the implicit assignment.
    in_place = rng.random() < 0.5
    body = ["template <class T> void copyInPlace(T &x) { x = x; }"] if in_place else []
    body += [d for _, d, _ in pieces]

    uses = []
    for name in names:
        calls = ["copyInPlace(x);"] * in_place + [c.format(x="x", T=name) for _, _, c in funcs + classes]
        checks = "\n".join("  r += %s;" % rd for rd in reads[name])
        uses.append("int use%s(%s &x) {\n  int r = 0;\n%s\n%s\n  return r;\n}" % (
            name, name, "\n".join("  " + c for c in calls), checks))
        if use_gtest:
            uses.append("TEST(Generated, %s) { %s x{}; expectCopies(x); }" % (name, name))

    proc = []
    if process:
        s = names[-1]
        proc.append(
            "class Keeper {\npublic:\n  Keeper() = default;\n"
            "  void put(const %s &x) { kept = x; }\n  %s get() const { return kept; }\n"
            "  int key() const { return kept.key; }\n\nprivate:\n  %s kept{};\n};\n"
            "template <class P, class T> int roundTrip(P *p, const T &x) {\n"
            "  p->put(x);\n  T y = p->get();\n  return p->key() + int(y == x);\n}" % (s, s, s))

    main = ["int main() {", "  int r = 0;"]
    for name in names:
        main.append("  { %s x{}; r += use%s(x); }" % (name, name))
    if process:
        main += ["  Keeper *k = new (\"m\") Keeper();", "  %s x{};" % names[-1],
                 "  r += roundTrip(k, x);", "  delete k;"]
    main += ["  std::printf(\"%d\\n\", r);", "  return 0;", "}"]

    lines = ["// Generated by compiler/fuzz/template_programs.py."]
    lines += ["#include %s" % h for h in sorted(set(headers))]
    lines += [""] + structs + [""] + body + [""] + proc + uses + [""] + main
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import random
    import sys
    print(generate(random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1),
                   process=len(sys.argv) > 2))
