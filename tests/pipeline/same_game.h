#pragma once
// Test support: whether a game refereed from a live camera is the game its video file gives, as
// their logs say it (LOG.json, spec §9): the same entries in the same order, the camera gap's
// warning apart, and the same books at the end.
//
// The camera's times are taken back to the video's (`camera_t0`: the camera's time of the video's
// first frame). An entry's time may differ by `time_s` (a live camera times its frames as they
// come); a moment the file has while the camera was away (an entry, the drop it read) is, from the
// camera, at the first frame after the gap (the input it came from fell due when there was no frame
// to give it at). Poses,
// distances and headings may differ by `position_mm` and `heading_deg` (the camera's frames are
// JPEG pictures of the file's: the tracker measures them a little differently); a decimal number
// inside a text is such a measure, compared where the entry gives it as a number. Everything else
// (the actions, the drops read, the counts, the books) must be equal, but for `reading`: the
// number of the settle an entry was read at counts a recording's stills, and a camera that was away
// during a settle of the table counts one fewer.

#include <cmath>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace diskref::pipeline::testing {

struct SameGameTolerances {
  double camera_t0 = 0;
  double time_s = 1e-6;
  double position_mm = 1e-6;
  double heading_deg = 1e-6;
};

inline bool is_camera_gap(const nlohmann::json& entry) {
  // Looked up with find (json::value here makes gcc 12 at -O2 see a null dereference that is not
  // there, and warnings are errors).
  const auto warning = entry.find("warning");
  if (warning == entry.end() || !warning->is_object()) return false;
  const auto kind = warning->find("kind");
  return kind != warning->end() && kind->is_string() && kind->get_ref<const std::string&>() == "camera_gap";
}

inline std::size_t camera_gaps_in(const nlohmann::json& log) {
  std::size_t n = 0;
  for (const nlohmann::json& e : log.at("log")) n += is_camera_gap(e) ? 1 : 0;
  return n;
}

namespace same_game_detail {

struct Span {
  double from = 0, to = 0;
};

class Comparison {
 public:
  Comparison(const SameGameTolerances& tolerances, std::optional<Span> gap) : tol_(tolerances), gap_(gap) {}

  // Differences between the camera's value `c` and the file's `f` at `path`.
  void compare(const nlohmann::json& c, const nlohmann::json& f, const std::string& path) {
    if (c.is_object() && f.is_object()) {
      for (const auto& [key, value] : f.items()) {
        if (key == "reading" && value.is_number_integer()) continue;
        if (!c.contains(key))
          differ(path + "." + key, "missing from the camera's", value.dump());
        else
          compare(c.at(key), value, path + "." + key);
      }
      for (const auto& [key, value] : c.items())
        if (!f.contains(key)) differ(path + "." + key, value.dump(), "missing from the file's");
    } else if (c.is_array() && f.is_array()) {
      if (c.size() != f.size()) differ(path, std::to_string(c.size()) + " items", std::to_string(f.size()) + " items");
      for (std::size_t i = 0; i < std::min(c.size(), f.size()); ++i)
        compare(c[i], f[i], path + "[" + std::to_string(i) + "]");
    } else if (c.is_number_float() || f.is_number_float()) {
      if (!c.is_number() || !f.is_number()) return differ(path, c.dump(), f.dump());
      compare_measure(c.get<double>(), f.get<double>(), path);
    } else if (c.is_string() && f.is_string()) {
      if (without_decimals(c.get<std::string>()) != without_decimals(f.get<std::string>()))
        differ(path, c.dump(), f.dump());
    } else if (c != f) {
      differ(path, c.dump(), f.dump());
    }
  }

  const std::vector<std::string>& differences() const { return differences_; }

 private:
  static std::string key_of(const std::string& path) {
    const std::size_t dot = path.rfind('.');
    std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    return key.substr(0, key.find('['));
  }
  static bool is_time(const std::string& key) { return key == "t" || key == "from" || key == "to"; }
  static std::string without_decimals(const std::string& text) {
    static const std::regex decimal("-?[0-9]+\\.[0-9]+");
    return std::regex_replace(text, decimal, "#");
  }

  void compare_measure(double c, double f, const std::string& path) {
    const std::string key = key_of(path);
    if (is_time(key)) {
      const double camera = c - tol_.camera_t0;
      // At the first frame after the gap: the file's moment fell while the camera was away.
      if (gap_ && f > gap_->from - tol_.time_s && f < gap_->to && std::abs(camera - gap_->to) <= tol_.time_s) return;
      if (std::abs(camera - f) > tol_.time_s) differ(path, std::to_string(camera), std::to_string(f));
    } else {
      const bool angle = key == "heading" || key.find("deg") != std::string::npos;
      if (std::abs(c - f) > (angle ? tol_.heading_deg : tol_.position_mm))
        differ(path, std::to_string(c), std::to_string(f));
    }
  }
  void differ(const std::string& path, const std::string& camera, const std::string& file) {
    differences_.push_back(path + ": the camera's " + camera + ", the file's " + file);
  }

  SameGameTolerances tol_;
  std::optional<Span> gap_;
  std::vector<std::string> differences_;
};

}  // namespace same_game_detail

// What differs between the camera's log and the file's, beyond the tolerances: one line each
// (empty: the same game). The camera's log must say at most one camera gap; it is taken out.
inline std::vector<std::string> differences_between(const nlohmann::json& camera_log, const nlohmann::json& file_log,
                                                    const SameGameTolerances& tolerances) {
  std::optional<same_game_detail::Span> gap;
  nlohmann::json camera_entries = nlohmann::json::array();
  for (const nlohmann::json& e : camera_log.at("log")) {
    if (!is_camera_gap(e)) {
      camera_entries.push_back(e);
      continue;
    }
    if (gap) return {"the camera's log says more than one camera gap"};
    gap = same_game_detail::Span{e.at("warning").at("from").get<double>() - tolerances.camera_t0,
                                 e.at("warning").at("to").get<double>() - tolerances.camera_t0};
  }
  same_game_detail::Comparison comparison(tolerances, gap);
  comparison.compare(camera_entries, file_log.at("log"), "log");
  comparison.compare(camera_log.at("final_state"), file_log.at("final_state"), "final_state");
  comparison.compare(camera_log.at("refused"), file_log.at("refused"), "refused");
  comparison.compare(camera_log.value("waiting", nlohmann::json::array()),
                     file_log.value("waiting", nlohmann::json::array()), "waiting");
  return comparison.differences();
}

inline std::string lines(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& t : texts) out += t + "\n";
  return out;
}

}  // namespace diskref::pipeline::testing
