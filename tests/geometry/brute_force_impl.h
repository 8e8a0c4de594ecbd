#pragma once
// Template definitions for brute_force.h.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace diskref::geom::brute {

template <class F>
double minimise_periodic(F f, int coarse, int keep) {
  const double two_pi = 2 * std::numbers::pi;
  const double step = two_pi / coarse;
  std::vector<double> v(coarse);
  for (int i = 0; i < coarse; ++i) v[i] = f(i * step);
  std::vector<std::pair<double, int>> minima;
  for (int i = 0; i < coarse; ++i)
    if (v[i] <= v[(i + coarse - 1) % coarse] && v[i] <= v[(i + 1) % coarse]) minima.push_back({v[i], i});
  std::sort(minima.begin(), minima.end());
  double best = *std::min_element(v.begin(), v.end());
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int m = 0; m < std::min<int>(keep, static_cast<int>(minima.size())); ++m) {
    double lo = (minima[m].second - 1) * step, hi = (minima[m].second + 1) * step;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = f(x1), f2 = f(x2);
    for (int it = 0; it < 48; ++it) {
      if (f1 < f2) {
        hi = x2, x2 = x1, f2 = f1;
        x1 = hi - g * (hi - lo), f1 = f(x1);
      } else {
        lo = x1, x1 = x2, f1 = f2;
        x2 = lo + g * (hi - lo), f2 = f(x2);
      }
    }
    best = std::min({best, f1, f2});
  }
  return best;
}

}  // namespace diskref::geom::brute
