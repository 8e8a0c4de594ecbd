#include "ui/photo_result.h"

#include <fmt/format.h>

namespace diskref::ui {
namespace {

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

std::string text(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
}

std::vector<std::string> texts(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_array()) return out;
  for (const nlohmann::json& e : j.at(key)) {
    if (e.is_string())
      out.push_back(e.get<std::string>());
    else if (e.is_object() && e.contains("name") && e.at("name").is_string())
      out.push_back(e.at("name").get<std::string>());
  }
  return out;
}

// The call the ruling gives; without one (a ruling without sigma), the plain yes/no of the answer.
referee::Call call_of(const nlohmann::json& a, const char* plain_key) {
  if (auto c = parse_call(text(a, "call"))) return *c;
  if (a.contains(plain_key) && a.at(plain_key).is_boolean())
    return a.at(plain_key).get<bool>() ? referee::Call::yes : referee::Call::no;
  return referee::Call::too_close;
}

std::string words(referee::Call c, const char* yes, const char* no) {
  return c == referee::Call::yes ? yes : c == referee::Call::no ? no : "TOO CLOSE TO CALL";
}

// The margin with its uncertainty as the live dispute banner writes it: ± kCallSigmas sigma, the
// band inside which a call is "too close".
std::string margin_detail(const char* what, std::optional<double> margin, std::optional<double> sigma) {
  if (!margin) return {};
  if (!sigma) return fmt::format("{} {:+.2f} mm", what, *margin);
  return fmt::format("{} {:+.2f} mm \u00b1 {:.2f}", what, *margin, referee::kCallSigmas * *sigma);
}

std::string sigma_line(std::optional<double> sigma) {
  if (!sigma) return "no uncertainty given";
  return fmt::format("uncertainty \u00b1{:.2f} mm ({:.0f} sigma; sigma {:.2f} mm from the photo)",
                     referee::kCallSigmas * *sigma, referee::kCallSigmas, *sigma);
}

// The one number the call turns on (photo/question_margins.h), else the answer's own.
std::optional<double> decisive(const nlohmann::json& a, const char* own) {
  if (auto m = number(a, "decisive_margin_mm")) return m;
  return number(a, own);
}

PhotoAnswerShown range_answer(const nlohmann::json& a) {
  const nlohmann::json& r = a.contains("range") ? a.at("range") : a;
  PhotoAnswerShown s;
  s.call = call_of(a, "in_range");
  s.headline = words(*s.call, "IN RANGE", "OUT OF RANGE");
  const auto sigma = number(a, "sigma_mm");
  s.detail = margin_detail("margin", decisive(a, "margin_mm"), sigma);
  if (!text(r, "from").empty()) s.question = fmt::format("range {} to {}", text(r, "from"), text(r, "to"));
  if (auto gap = number(a, "gap_mm"), reach = number(a, "reach_mm"), margin = number(a, "margin_mm");
      gap && reach && margin)
    s.lines.push_back(fmt::format("gap {:.2f} mm   reach {:.2f} mm   margin {:+.2f} mm", *gap, *reach, *margin));
  s.lines.push_back(sigma_line(sigma));
  return s;
}

PhotoAnswerShown overlap_answer(const nlohmann::json& a) {
  PhotoAnswerShown s;
  s.call = call_of(a, "overlap");
  s.headline = words(*s.call, "OVERLAPPING", "NOT OVERLAPPING");
  const auto sigma = number(a, "sigma_mm");
  s.detail = margin_detail("separation", decisive(a, "separation_mm"), sigma);
  s.lines.push_back(sigma_line(sigma));
  return s;
}

PhotoAnswerShown move_answer(const nlohmann::json& a) {
  PhotoAnswerShown s;
  const std::vector<std::string> ends_on = texts(a, "end_overlaps");
  const bool hits =
      a.contains("torpedo_contacts") && a.at("torpedo_contacts").is_array() && !a.at("torpedo_contacts").empty();
  // A move's call is whether it ends on (or hits) something: "yes" it does.
  if (auto c = parse_call(text(a, "call")))
    s.call = *c;
  else
    s.call = ends_on.empty() && !hits ? referee::Call::no : referee::Call::yes;
  if (*s.call == referee::Call::too_close)
    s.headline = "TOO CLOSE TO CALL";
  else if (hits)
    s.headline = "HITS A TORPEDO";
  else if (!ends_on.empty())
    s.headline = "ENDS ON " + ends_on.front();
  else
    s.headline = *s.call == referee::Call::yes ? "ENDS ON A DISK" : "ENDS CLEAR";
  const auto sigma = number(a, "sigma_mm");
  // The margin of the nearest contact (a torpedo passed, a disk where it ends), when there is one.
  s.detail = margin_detail("nearest contact", number(a, "decisive_margin_mm"), sigma);
  if (a.contains("landings") && a.at("landings").is_array() && !a.at("landings").empty()) {
    const nlohmann::json& end = a.at("landings").back();
    if (auto x = number(end, "x"), y = number(end, "y"), h = number(end, "heading"); x && y && h)
      s.lines.push_back(fmt::format("lands at ({:.1f}, {:.1f}) mm, heading {:.0f} deg after {} flip{}", *x, *y, *h,
                                    a.at("landings").size(), a.at("landings").size() == 1 ? "" : "s"));
  }
  if (hits) {
    std::string t = "torpedo contacts:";
    for (const nlohmann::json& c : a.at("torpedo_contacts"))
      t += fmt::format(" {} at flip {};", text(c, "disk"), c.contains("flip") ? c.at("flip").dump() : "?");
    s.lines.push_back(t);
  } else {
    s.lines.push_back("torpedo contacts: none");
  }
  std::string ends = "ends overlapping:";
  for (const std::string& n : ends_on) ends += " " + n;
  s.lines.push_back(ends_on.empty() ? "ends overlapping: nothing" : ends);
  if (a.contains("leaves_play_area") && a.at("leaves_play_area").is_boolean())
    s.lines.push_back(std::string("leaves the play area: ") + (a.at("leaves_play_area").get<bool>() ? "yes" : "no"));
  if (sigma) s.lines.push_back(sigma_line(sigma));
  return s;
}

// A question the photo cannot answer: a disk it needs is not in it.
PhotoAnswerShown cannot_tell_answer(const nlohmann::json& a) {
  PhotoAnswerShown s;
  s.headline = "CANNOT TELL";
  const std::vector<std::string> missing = texts(a, "unseen");
  std::string names;
  for (const std::string& n : missing) names += (names.empty() ? "" : ", ") + n;
  s.detail = names.empty() ? "a disk it needs is not in the photo" : "not in the photo: " + names;
  return s;
}

}  // namespace

std::optional<referee::Call> parse_call(const std::string& t) {
  if (t == "yes") return referee::Call::yes;
  if (t == "no") return referee::Call::no;
  if (t == "too close to call" || t == "too_close") return referee::Call::too_close;
  return std::nullopt;
}

PhotoShown photo_shown(const nlohmann::json& ruling) {
  PhotoShown s;
  if (!ruling.is_object()) return s;
  if (ruling.contains("photo")) {
    const nlohmann::json& p = ruling.at("photo");
    s.source = text(p, "source");
    s.frame = text(p, "frame");
    if (p.contains("size") && p.at("size").is_array() && p.at("size").size() == 2 && p.at("size")[0].is_number())
      s.size = fmt::format("{} x {} px", p.at("size")[0].get<long long>(), p.at("size")[1].get<long long>());
    if (p.contains("camera") && p.at("camera").is_object()) {
      const nlohmann::json& c = p.at("camera");
      std::vector<std::string> parts;
      if (!text(c, "model").empty()) parts.push_back(text(c, "model"));
      if (auto f = number(c, "focal_px"))
        parts.push_back(text(c, "focal_from").empty() ? fmt::format("focal {:.0f} px", *f)
                                                      : fmt::format("focal {:.0f} px ({})", *f, text(c, "focal_from")));
      if (auto tilt = number(c, "tilt_deg"), far = number(c, "distance_mm"); tilt && far)
        parts.push_back(fmt::format("{:.0f} deg from above, {:.0f} mm away", *tilt, *far));
      for (const std::string& part : parts) s.camera += (s.camera.empty() ? "" : "; ") + part;
    }
  }
  s.disks_seen = texts(ruling, "disks");
  s.unseen = texts(ruling, "unseen");
  s.notes = texts(ruling, "notes");
  if (ruling.contains("answers") && ruling.at("answers").is_array()) {
    for (const nlohmann::json& a : ruling.at("answers")) {
      PhotoAnswerShown shown;
      if (text(a, "call") == "cannot tell")
        shown = cannot_tell_answer(a);
      else if (a.contains("in_range") || a.contains("reach_mm"))
        shown = range_answer(a);
      else if (a.contains("overlap") || a.contains("separation_mm"))
        shown = overlap_answer(a);
      else if (a.contains("landings"))
        shown = move_answer(a);
      else
        continue;
      if (shown.question.empty()) shown.question = text(a, "id");
      s.answers.push_back(std::move(shown));
    }
  }
  return s;
}

}  // namespace diskref::ui
