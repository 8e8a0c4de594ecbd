// Geometry query speed: signed distance and range for every shape pair, with two baselines in the
// same run (the circle-circle closed form, the cheapest possible exact query; and a polygon
// approximation, what the exact closed forms replace).
//
//   build-*/bench/geometry_bench --benchmark_min_time=0.2
//
// items_per_second is queries per second. Every benchmark cycles through the same 1024 random
// configurations per pair (fixed seed), half of them overlapping.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "engine/geometry/distance.h"
#include "engine/geometry/outline.h"
#include "engine/geometry/range.h"

namespace diskref::geom {
namespace {

constexpr int kConfigurations = 1024;

Shape make_shape(int kind) {
  if (kind == 0) return Circle{63.5};
  if (kind == 1) return FlattedCircle{63.5, 57.2};
  return Rect{88.9, 25.4};
}

struct Pair {
  PlacedShape a, b;
};

std::vector<Pair> make_pairs(int kind_a, int kind_b) {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> angle(0, 360), spread(0, 110);
  std::vector<Pair> pairs;
  for (int i = 0; i < kConfigurations; ++i) {
    Vec2 offset = spread(rng) * Rot::from_degrees(angle(rng)).axis_x();
    pairs.push_back({{make_shape(kind_a), Pose::from_degrees(400, 400, angle(rng))},
                     {make_shape(kind_b), Pose::from_degrees(400 + offset.x, 400 + offset.y, angle(rng))}});
  }
  return pairs;
}

void BM_SignedDistance(benchmark::State& state) {
  auto pairs = make_pairs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(signed_distance(p.a, p.b));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Range(benchmark::State& state) {
  auto pairs = make_pairs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const Rect range_template{88.9, 25.4};
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(range_check(p.a, p.b, range_template));
  }
  state.SetItemsProcessed(state.iterations());
}

// Baseline 1: the circle-circle closed form, with witness points: the floor for any exact query.
void BM_Baseline_CircleClosedForm(benchmark::State& state) {
  auto pairs = make_pairs(0, 0);
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    double ra = std::get<Circle>(p.a.shape).diameter_mm / 2, rb = std::get<Circle>(p.b.shape).diameter_mm / 2;
    Vec2 d = p.b.pose.position - p.a.pose.position;
    Vec2 n = normalized(d);
    DistanceOutput out{length(d) - ra - rb, p.a.pose.position + ra * n, p.b.pose.position - rb * n, n, 0};
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

// Baseline 2: polygon approximation (outlines as polygons with 5-degree chords, up to 0.1 mm
// off for these disks), gap by every vertex against every edge. Gap only: it has no penetration
// depth, and is both slower and less exact than the closed forms.
double polygon_gap(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  auto point_segment = [](Vec2 p, Vec2 s0, Vec2 s1) {
    Vec2 e = s1 - s0;
    double t = std::clamp(dot(p - s0, e) / length_squared(e), 0.0, 1.0);
    return length_squared(p - (s0 + t * e));
  };
  double best = 1e300;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) {
      best = std::min(best, point_segment(a[i], b[j], b[(j + 1) % b.size()]));
      best = std::min(best, point_segment(b[j], a[i], a[(i + 1) % a.size()]));
    }
  return std::sqrt(best);
}

void BM_Baseline_PolygonGap(benchmark::State& state) {
  auto pairs = make_pairs(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(polygon_gap(outline_polygon(p.a, 5.0), outline_polygon(p.b, 5.0)));
  }
  state.SetItemsProcessed(state.iterations());
}

// Pairs by kind: 0 circle, 1 flatted circle, 2 rect.
void all_pairs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"a", "b"});
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = ka; kb < 3; ++kb) b->Args({ka, kb});
}
void disk_pairs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"a", "b"});
  b->Args({0, 0})->Args({0, 1})->Args({1, 1});
}

BENCHMARK(BM_Baseline_CircleClosedForm);
BENCHMARK(BM_SignedDistance)->Apply(all_pairs);
BENCHMARK(BM_Range)->Apply(disk_pairs);
BENCHMARK(BM_Baseline_PolygonGap)->Args({1, 1});

}  // namespace
}  // namespace diskref::geom

BENCHMARK_MAIN();
