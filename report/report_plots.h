#pragma once
// Small SVG plots for the report's tracking health page: a value over the session's time, one
// line a series, with its axes labelled. SVG so the page stays one file that prints sharp.

#include <string>
#include <vector>

namespace diskref::report {

struct PlotSeries {
  std::string name;
  std::string css_colour;
  std::vector<std::pair<double, double>> points;  // (t seconds, value)
};

// An <svg> `width` x `height` px; y from 0 to the largest value (or `y_max` when larger).
std::string line_plot_svg(const std::string& title, const std::string& y_unit, const std::vector<PlotSeries>& series,
                          int width, int height, double y_max = 0);

}  // namespace diskref::report
