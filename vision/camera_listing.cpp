#include "vision/camera_listing.h"

#include <fmt/format.h>

namespace diskref::vision {
namespace {

std::string control_line(const CameraControl& c) {
  std::string value = c.value ? std::to_string(*c.value) : "?";
  for (const auto& [v, name] : c.menu)
    if (c.value && v == *c.value) value += " (" + name + ")";
  std::string line = fmt::format("    {:<26} {}", c.name, value);
  if (c.menu.empty())
    line += fmt::format("  [{}..{}, default {}]", c.minimum, c.maximum, c.default_value);
  else {
    std::string entries;
    for (const auto& [v, name] : c.menu) entries += fmt::format("{}{} {}", entries.empty() ? "" : ", ", v, name);
    line += "  [" + entries + "]";
  }
  if (c.inactive) line += "  (inactive now)";
  return line + "\n";
}

}  // namespace

std::string camera_listing(const CameraDescription& d, const std::optional<FormatChoice>& choice,
                           const std::string& choice_problem) {
  std::string out = fmt::format("{}: {}", d.path, d.card.empty() ? "(no name)" : d.card);
  if (!d.driver.empty()) out += fmt::format(" (driver {}, {})", d.driver, d.bus);
  out += "\n";
  if (!d.captures_video) return out + "  not a video capture node (a camera's metadata node): not a picture\n";
  out += "  formats:\n";
  for (const PixelFormatModes& f : d.formats) {
    out += fmt::format("    {:<4} {}{}{}\n", fourcc_text(f.fourcc), f.description, f.compressed ? ", compressed" : "",
                       f.decodable ? "" : " (diskref cannot decode it)");
    for (const FrameSizeRates& s : f.sizes) {
      std::string rates;
      for (double r : s.fps) rates += fmt::format("{}{:g}", rates.empty() ? "" : " ", r);
      out += fmt::format("      {}x{}: {} fps\n", s.width, s.height, rates.empty() ? "?" : rates);
    }
  }
  out += "  controls:\n";
  if (d.controls.empty()) out += "    (none of focus, exposure, white balance, power line)\n";
  for (const CameraControl& c : d.controls) out += control_line(c);
  if (choice)
    out += "  diskref would take: " + choice->why + "\n";
  else if (!choice_problem.empty())
    out += "  diskref would take nothing: " + choice_problem + "\n";
  return out;
}

}  // namespace diskref::vision
