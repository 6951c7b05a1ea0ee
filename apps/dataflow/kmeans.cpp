//===- kmeans.cpp - dataflow-kmeans: k-means as a stream graph -----------===//
///
/// dataflow-kmeans [--points N] [--clusters K] [--parts P] [--iterations I]
///
/// Lloyd's k-means on N points in the plane drawn around K centres (from a
/// fixed seed), as a stream graph with a feedback loop (DtCraft's k-means,
/// DtCraft, Huang et al. 2017): a master vertex sends the centroids to P part vertices, each
/// holding N/P points; each part sends back the sums and counts of its
/// points per nearest centroid; the master averages them and sends the new
/// centroids, until no point changes cluster or I iterations have run. It
/// then reports the centroids and closes every stream. Each part is a
/// container of its own, so the parts spread over the machines.
///
//===----------------------------------------------------------------------===//
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <vector>

namespace {

struct KmeansProblem {
  long points = 0, clusters = 0, parts = 0, iterations = 0;
  long first(long part) const { return points / parts * part + std::min(part, points % parts); }
};

/// Points [begin, end) of the problem, x and y interleaved. Point i comes
/// from its own generator, so any part can make its points alone.
std::vector<double> make_points(const KmeansProblem &p, long begin, long end) {
  std::vector<double> xy;
  xy.reserve(2 * (end - begin));
  for (long i = begin; i < end; ++i) {
    std::mt19937_64 random(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull);
    std::normal_distribution<double> spread(0.0, 0.6);
    const long centre = i % p.clusters;
    xy.push_back(static_cast<double>(centre % 4) * 3.0 + spread(random));
    xy.push_back(static_cast<double>(centre / 4) * 3.0 + spread(random));
  }
  return xy;
}

/// A part's answer: per cluster the sum of x, the sum of y and the count,
/// then the number of its points whose cluster changed.
using Partial = std::vector<double>;

Partial assign(const std::vector<double> &xy, std::vector<long> &cluster,
               const std::vector<double> &centroids) {
  const std::size_t k = centroids.size() / 2;
  Partial partial(3 * k + 1, 0.0);
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    const double x = xy[2 * i], y = xy[2 * i + 1];
    long best = 0;
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      const double dx = x - centroids[2 * c], dy = y - centroids[2 * c + 1];
      if (dx * dx + dy * dy < nearest) {
        nearest = dx * dx + dy * dy;
        best = static_cast<long>(c);
      }
    }
    partial[3 * best] += x;
    partial[3 * best + 1] += y;
    partial[3 * best + 2] += 1;
    partial[3 * k] += cluster[i] != best;
    cluster[i] = best;
  }
  return partial;
}

/// The master's state: the centroids and the partials of this iteration.
struct Master {
  std::vector<double> centroids;
  std::vector<Partial> partials;
  long arrived = 0, iteration = 0;
};

/// New centroids from the partials, added in part order (so every run adds
/// the same numbers in the same order); returns the points that moved.
double update(std::vector<double> &centroids, const std::vector<Partial> &partials) {
  const std::size_t k = centroids.size() / 2;
  double moved = 0;
  for (std::size_t c = 0; c < k; ++c) {
    double sx = 0, sy = 0, n = 0;
    for (const Partial &p : partials) {
      sx += p[3 * c];
      sy += p[3 * c + 1];
      n += p[3 * c + 2];
    }
    if (n > 0) {
      centroids[2 * c] = sx / n;
      centroids[2 * c + 1] = sy / n;
    }
  }
  for (const Partial &p : partials)
    moved += p[3 * k];
  return moved;
}

/// The first K points are the first centroids.
std::vector<double> initial_centroids(const KmeansProblem &p) {
  return make_points(p, 0, p.clusters);
}

} // namespace

dataflow::StreamGraph kmeans_graph(const KmeansProblem &p) {
  dataflow::StreamGraph g;
  auto master = std::make_shared<Master>();
  using Centroids = std::vector<double>;
  auto to_parts = std::make_shared<std::vector<dataflow::Stream<Centroids>>>();
  auto from_parts = std::make_shared<std::vector<dataflow::Stream<Partial>>>();

  auto m = g.vertex("master", [master, to_parts, p](dataflow::Vertex &v) {
    master->centroids = initial_centroids(p);
    master->partials.assign(p.parts, Partial());
    for (const auto &s : *to_parts)
      v.write(s, master->centroids);
  });
  m.reports<std::vector<double>>();
  g.container({m}, 0);

  for (long part = 0; part < p.parts; ++part) {
    struct Part {
      std::vector<double> xy;
      std::vector<long> cluster;
    };
    auto state = std::make_shared<Part>();
    auto vertex = g.vertex("part " + std::to_string(part), [state, p, part](dataflow::Vertex &) {
      state->xy = make_points(p, p.first(part), p.first(part + 1));
      state->cluster.assign(state->xy.size() / 2, -1);
    });
    g.container({vertex});
    to_parts->push_back(g.stream<Centroids>(
        m, vertex, [state, from_parts, part](dataflow::Vertex &v, const Centroids &c) {
          v.write((*from_parts)[part], assign(state->xy, state->cluster, c));
          return dataflow::Signal::keep;
        }));
    from_parts->push_back(g.stream<Partial>(
        vertex, m, [master, to_parts, from_parts, p, part](dataflow::Vertex &v, const Partial &r) {
          master->partials[part] = r;
          if (++master->arrived < p.parts)
            return dataflow::Signal::keep;
          master->arrived = 0;
          const double moved = update(master->centroids, master->partials);
          ++master->iteration;
          if (moved == 0 || master->iteration == p.iterations) {
            Centroids report = master->centroids;
            report.push_back(static_cast<double>(master->iteration));
            v.report(report);
            for (long q = 0; q < p.parts; ++q) {
              v.close((*to_parts)[q]);
              v.close((*from_parts)[q]);
            }
            return dataflow::Signal::close;
          }
          for (const auto &s : *to_parts)
            v.write(s, master->centroids);
          return dataflow::Signal::keep;
        }));
  }
  return g;
}

int main(int argc, char **argv) {
  KmeansProblem p{200'000, 8, 8, 100};
  dataflow::CommandLine line("dataflow-kmeans");
  line.option("--points", "N: points (default 200000)", p.points, 1);
  line.option("--clusters", "K: clusters (default 8)", p.clusters, 1);
  line.option("--parts", "P: part vertices holding the points (default 8)", p.parts, 1);
  line.option("--iterations", "I: at most I iterations (default 100)", p.iterations, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    if (p.clusters > p.points || p.parts > p.points)
      throw dataflow::usage_error("--clusters and --parts must not exceed --points");
    std::vector<double> centroids;
    long iterations = 0;
    if (line.sequential()) {
      std::vector<std::vector<double>> xy;
      std::vector<std::vector<long>> cluster;
      for (long part = 0; part < p.parts; ++part) {
        xy.push_back(make_points(p, p.first(part), p.first(part + 1)));
        cluster.emplace_back(xy.back().size() / 2, -1);
      }
      centroids = initial_centroids(p);
      std::vector<Partial> partials(p.parts);
      for (double moved = 1; moved > 0 && iterations < p.iterations;) {
        for (long part = 0; part < p.parts; ++part)
          partials[part] = assign(xy[part], cluster[part], centroids);
        moved = update(centroids, partials);
        ++iterations;
      }
    } else {
      const dataflow::Results r = dataflow::run(kmeans_graph, p, line);
      centroids = r.value<std::vector<double>>("master");
      iterations = static_cast<long>(centroids.back());
      centroids.pop_back();
    }
    std::printf("kmeans: %ld points, %ld clusters, %ld iterations\n", p.points, p.clusters,
                iterations);
    for (std::size_t c = 0; c < centroids.size() / 2; ++c)
      std::printf("centroid %zu: %.9f %.9f\n", c, centroids[2 * c], centroids[2 * c + 1]);
  });
}
