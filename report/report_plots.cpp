#include "report/report_plots.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_text.h"

namespace diskref::report {
namespace {

// 1, 2 or 5 times a power of ten: a tick step a person reads at once.
double nice_step(double range, int ticks) {
  const double raw = range / std::max(1, ticks);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

}  // namespace

std::string line_plot_svg(const std::string& title, const std::string& y_unit, const std::vector<PlotSeries>& series,
                          int width, int height, double y_max) {
  double t0 = 1e300, t1 = -1e300, top = y_max;
  for (const PlotSeries& s : series)
    for (const auto& [t, v] : s.points) {
      t0 = std::min(t0, t), t1 = std::max(t1, t), top = std::max(top, v);
    }
  if (t0 > t1) t0 = 0, t1 = 1;
  if (t1 - t0 < 1e-9) t1 = t0 + 1;
  if (top <= 0) top = 1;
  const double y_step = nice_step(top, 4);
  top = std::ceil(top / y_step) * y_step;
  const int left = 56, right = 12, upper = 28, lower = 34;
  const double w = width - left - right, h = height - upper - lower;
  const auto X = [&](double t) { return left + (t - t0) / (t1 - t0) * w; };
  const auto Y = [&](double v) { return upper + h - v / top * h; };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<text x=\"{2}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{3}</text>",
      width, height, left, html_text(title));
  for (double v = 0; v <= top + 1e-9; v += y_step)
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" font-size=\"11\" text-anchor=\"end\">{5:g}</text>",
        left, width - right, Y(v), left - 6, Y(v) + 4, v);
  const double t_step = nice_step(t1 - t0, 6);
  for (double t = std::ceil(t0 / t_step) * t_step; t <= t1 + 1e-9; t += t_step)
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{:g} s</text>", X(t),
                       height - lower + 16, t);
  svg += fmt::format(
      "<text x=\"12\" y=\"{:.1f}\" font-size=\"11\" transform=\"rotate(-90 12 {:.1f})\" "
      "text-anchor=\"middle\">{}</text>",
      upper + h / 2, upper + h / 2, html_text(y_unit));
  double legend_x = left + 4;
  for (const PlotSeries& s : series) {
    std::string points;
    for (const auto& [t, v] : s.points) points += fmt::format("{:.1f},{:.1f} ", X(t), Y(v));
    svg +=
        fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>", points, s.css_colour);
    svg += fmt::format(
        "<rect x=\"{:.0f}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.0f}\" y=\"{}\" "
        "font-size=\"11\">{}</text>",
        legend_x, height - 14, s.css_colour, legend_x + 14, height - 5, html_text(s.name));
    legend_x += 24 + 7.0 * static_cast<double>(s.name.size());
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"none\" stroke=\"#888\"/></svg>",
                     left, upper, w, h);
  return svg;
}

}  // namespace diskref::report
