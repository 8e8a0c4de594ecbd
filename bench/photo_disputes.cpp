// photo_disputes: how well a dispute is settled from one phone photo (issue 40, spec §14;
// `scripts/figures.sh photo_disputes build/bench/photo_disputes` writes docs/figures/photo_disputes.md,
// linked from docs/guide/photo-disputes.md). Not in CI: its photos are 12-48 Mpx.
//
// Over a seeded sample of rendered phone photos (bench/photo_dispute_sample.h: the space they are
// drawn from), each written as a phone writes it (JPEG with EXIF) and ruled on as a user's is —
// photo::decode_photo on the file's bytes, then photo::rule_on_photo with every pair's range
// question and the close pairs' overlap questions — it compares with the truth:
//
//   position   each disk found against its true place, in the ruling's own frame: the photo
//              fixes the table only up to a turn and a shift (no corner marker need be in it), and
//              rule_on_photo puts the origin at one disk's centre (its "reference"), +x along its
//              tag; the truth is put in that frame, and the reference disk (error 0 by definition)
//              left out. Coverage: the share of the errors (each axis) within 2 sigma; 95 % if
//              sigma is honest.
//   margins    each range answer's margin_mm (each overlap's separation_mm) against the true one,
//              and the share within 2 sigma;
//   calls      "too close to call" against the true |margin|, and wrong calls (yes when the truth
//              is no, or no when it is yes), which must not happen outside "too close to call";
//   tag size   the smallest tag side in pixels (of the two disks a range question is about) from
//              which on 95 % of the range answers have sigma <= 0.5 mm and error <= 0.5 mm.
//
// Every figure is broken down by tilt, distance, megapixels and whether the EXIF gave the focal
// length. Render and ruling times are printed to compare, not asserted.
//
//   build/bench/photo_disputes [--photos N] [--seed S] [--keep DIR]
//
// --keep DIR writes each photo (photo_NN.jpg), a 1200 px copy to look at (photo_NN_small.png) and the
// ruling's annotated picture, 1600 px (photo_NN_ruled.png).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "bench/photo_dispute_sample.h"
#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"

namespace {

using namespace diskref;

struct DiskRecord {
  std::string name;
  double tag_mm = 0;
  double tag_px = 0;
  bool in_view = false;
  bool seen = false;      // placed by the ruling
  bool found = false;     // placed, and not the ruling's origin: its error is known
  double ex = 0, ey = 0;  // error in the ruling's frame (the reference disk's), mm
  double sigma = 0;
};

struct AnswerRecord {
  bool range = true;  // else overlap
  double truth = 0;   // true margin_mm (range) or separation_mm (overlap)
  std::optional<double> measured, sigma;
  std::string call;   // "yes", "no", "too close to call", or "" when unanswered
  double tag_px = 0;  // the smaller tag of the two disks, px
  bool truth_yes() const { return range ? truth >= 0 : truth <= 0; }
};

struct PhotoRecord {
  simulator::PhoneShot shot;
  double render_s = 0, rule_s = 0;          // wall
  double render_cpu_s = 0, rule_cpu_s = 0;  // CPU, all threads
  std::string refused;                      // why the photo was refused, or empty
  std::vector<DiskRecord> disks;
  std::vector<AnswerRecord> answers;
};

// Wall time, and the CPU time of all the process's threads: the machine may be shared, and the
// CPU time is what the work costs whoever else runs.
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  double wall_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(); }
  double cpu_s() const { return static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC; }
};

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j[key].is_number()) return j[key].get<double>();
  return std::nullopt;
}

// The truth in the ruling's own frame (rule_on_photo: origin at the reference disk's centre, +x
// along its tag's +x), and each found disk's error there. The reference disk is the origin, its
// error 0 by definition: it is left out of the errors (found stays false).
void errors_in_ruling_frame(std::vector<DiskRecord>& disks,
                            const std::map<std::string, std::pair<double, double>>& measured,
                            const std::string& reference, const std::vector<simulator::PhotoDiskTruth>& truth,
                            const model::DiskRegistry& registry) {
  const simulator::PhotoDiskTruth* origin = nullptr;
  for (const auto& t : truth)
    if (t.name == reference) origin = &t;
  if (!origin) return;
  const double tag_x =
      (origin->heading - registry.find(reference)->tags[0].heading_offset_deg) * std::numbers::pi / 180;
  const double c = std::cos(tag_x), s = std::sin(tag_x);
  for (std::size_t i = 0; i < disks.size(); ++i) {
    if (disks[i].name == reference || !measured.count(disks[i].name)) continue;
    const double dx = truth[i].x - origin->x, dy = truth[i].y - origin->y;
    disks[i].found = true;
    disks[i].ex = measured.at(disks[i].name).first - (c * dx + s * dy);
    disks[i].ey = measured.at(disks[i].name).second - (-s * dx + c * dy);
  }
}

PhotoRecord rule_one(const bench::DisputePhoto& sample, int index, const std::filesystem::path& keep) {
  PhotoRecord record;
  record.shot = sample.shot;
  Stopwatch render;
  const simulator::PhonePhoto photo = simulator::take_phone_photo(sample.scene, sample.shot);
  record.render_s = render.wall_s();
  record.render_cpu_s = render.cpu_s();
  if (!keep.empty()) {
    std::ofstream(keep / fmt::format("photo_{:02}.jpg", index), std::ios::binary)
        .write(reinterpret_cast<const char*>(photo.jpeg.data()), static_cast<std::streamsize>(photo.jpeg.size()));
    // A small picture to look at (upright, as a viewer shows it).
    const cv::Mat upright = cv::imdecode(photo.jpeg, cv::IMREAD_COLOR);
    cv::Mat small;
    cv::resize(upright, small, {}, 1200.0 / std::max(upright.cols, upright.rows),
               1200.0 / std::max(upright.cols, upright.rows), cv::INTER_AREA);
    cv::imwrite((keep / fmt::format("photo_{:02}_small.png", index)).string(), small);
  }
  const model::DiskRegistry& registry = sample.scene.registry;
  for (const simulator::PhotoDiskTruth& t : photo.disks)
    record.disks.push_back(
        {t.name, registry.find(t.name)->tags[0].size_mm, t.tag_px, t.in_view, false, false, 0, 0, 0});
  const nlohmann::json questions = bench::dispute_questions(sample.scene, photo.disks);

  const Stopwatch rule;
  photo::PhotoRuling ruling;
  try {
    const photo::Photo decoded = photo::decode_photo(photo.jpeg, fmt::format("photo {}", index));
    ruling = photo::rule_on_photo(decoded, registry, questions);
  } catch (const std::exception& e) {
    record.rule_s = rule.wall_s();
    record.rule_cpu_s = rule.cpu_s();
    record.refused = e.what();
    return record;
  }
  record.rule_s = rule.wall_s();
  record.rule_cpu_s = rule.cpu_s();
  if (!keep.empty() && !ruling.annotated.empty()) {
    const double scale = 1600.0 / std::max(ruling.annotated.cols, ruling.annotated.rows);
    cv::Mat small;
    cv::resize(ruling.annotated, small, {}, scale, scale, cv::INTER_AREA);
    cv::imwrite((keep / fmt::format("photo_{:02}_ruled.png", index)).string(), small);
  }

  std::map<std::string, std::pair<double, double>> measured;
  std::string reference;
  if (ruling.answer.contains("disks"))
    for (const auto& d : ruling.answer["disks"]) {
      const auto x = number(d, "x"), y = number(d, "y");
      if (!x || !y || !d.contains("name")) continue;
      const std::string name = d["name"].get<std::string>();
      measured[name] = {*x, *y};
      if (d.value("reference", false)) reference = name;
      for (DiskRecord& r : record.disks)
        if (r.name == name) {
          r.sigma = number(d, "sigma_mm").value_or(0);
          r.seen = true;
        }
    }
  errors_in_ruling_frame(record.disks, measured, reference, photo.disks, registry);

  // The answers, by question id, against the true geometry.
  std::map<std::string, nlohmann::json> by_id;
  if (ruling.answer.contains("answers"))
    for (const auto& a : ruling.answer["answers"])
      if (a.contains("id")) by_id[a["id"].get<std::string>()] = a;
  auto placed = [&](const std::string& name) {
    for (const auto& d : sample.scene.disks)
      if (d.name == name)
        return geom::PlacedShape{registry.find(name)->shape, geom::Pose::from_degrees(d.x, d.y, d.heading)};
    throw std::logic_error("no disk " + name);
  };
  auto tag_px = [&](const std::string& name) {
    for (const auto& t : photo.disks)
      if (t.name == name) return t.tag_px;
    return 0.0;
  };
  for (const auto& q : questions) {
    AnswerRecord a;
    std::string first, second;
    if (q.contains("range")) {
      first = q["range"]["from"].get<std::string>();
      second = q["range"]["to"].get<std::string>();
      const auto& t = q["range"]["template"];
      a.truth = geom::range_check(placed(first), placed(second),
                                  geom::Rect{t["length_mm"].get<double>(), t["width_mm"].get<double>()})
                    .margin_mm;
    } else {
      a.range = false;
      first = q["overlap"]["a"].get<std::string>();
      second = q["overlap"]["b"].get<std::string>();
      a.truth = geom::signed_distance(placed(first), placed(second)).distance;
    }
    a.tag_px = std::min(tag_px(first), tag_px(second));
    auto it = by_id.find(q["id"].get<std::string>());
    if (it != by_id.end()) {
      a.measured = number(it->second, a.range ? "margin_mm" : "separation_mm");
      a.sigma = number(it->second, "sigma_mm");
      if (it->second.contains("call") && it->second["call"].is_string()) a.call = it->second["call"].get<std::string>();
    }
    record.answers.push_back(a);
  }
  return record;
}

// ----- statistics -----

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

std::string number_text(double v, int decimals = 2) {
  return std::isnan(v) ? "–" : fmt::format("{:.{}f}", v, decimals);
}
std::string share_text(long long part, long long whole) {
  return whole == 0 ? "–"
                    : fmt::format("{:.0f} % ({}/{})", 100.0 * static_cast<double>(part) / static_cast<double>(whole),
                                  part, whole);
}

bool answered(const AnswerRecord& a) {
  return a.measured && a.sigma && !a.call.empty();
}
bool wrong_call(const AnswerRecord& a) {
  return (a.call == "yes" && !a.truth_yes()) || (a.call == "no" && a.truth_yes());
}

// The smallest tag side (px) from which on 95 % of the range answers have sigma and error within 0.5 mm.
std::string smallest_good_tag(const std::vector<const AnswerRecord*>& answers) {
  std::vector<const AnswerRecord*> range;
  for (const AnswerRecord* a : answers)
    if (a->range && answered(*a)) range.push_back(a);
  std::sort(range.begin(), range.end(), [](auto* a, auto* b) { return a->tag_px < b->tag_px; });
  // From the largest tags down: the last place where what lies above still holds.
  std::optional<double> smallest;
  long long good = 0, count = 0;
  for (auto it = range.rbegin(); it != range.rend(); ++it) {
    ++count;
    good += (*(*it)->sigma <= 0.5 && std::abs(*(*it)->measured - (*it)->truth) <= 0.5) ? 1 : 0;
    if (static_cast<double>(good) >= 0.95 * static_cast<double>(count)) smallest = (*it)->tag_px;
  }
  if (range.empty()) return "–";
  if (!smallest) return "none";
  // Good down to the smallest tag the sample has: the limit lies lower, unmeasured.
  if (*smallest <= range.front()->tag_px) return fmt::format("≤ {:.0f}", *smallest);
  return fmt::format("{:.0f}", *smallest);
}

struct Row {
  long long photos = 0, ruled = 0, in_view = 0, found = 0;
  std::vector<double> position_error;
  long long axes = 0, axes_covered = 0;
  std::vector<double> margin_error;
  long long margins = 0, margins_covered = 0, too_close = 0, wrong = 0, unanswered = 0;
  std::vector<const AnswerRecord*> answers;
};

Row summarize(const std::vector<const PhotoRecord*>& photos) {
  Row r;
  for (const PhotoRecord* p : photos) {
    ++r.photos;
    if (p->refused.empty()) ++r.ruled;
    for (const DiskRecord& d : p->disks) {
      r.in_view += d.in_view;
      r.found += d.seen;
      if (!d.found) continue;
      r.position_error.push_back(std::hypot(d.ex, d.ey));
      if (d.sigma > 0) {
        r.axes += 2;
        r.axes_covered += (std::abs(d.ex) <= 2 * d.sigma) + (std::abs(d.ey) <= 2 * d.sigma);
      }
    }
    for (const AnswerRecord& a : p->answers) {
      r.answers.push_back(&a);
      if (!answered(a)) {
        ++r.unanswered;
        continue;
      }
      const double e = *a.measured - a.truth;
      r.margin_error.push_back(std::abs(e));
      ++r.margins;
      r.margins_covered += std::abs(e) <= 2 * *a.sigma;
      r.too_close += a.call == "too close to call";
      r.wrong += wrong_call(a);
    }
  }
  return r;
}

void print_breakdown(const std::string& title, const std::vector<PhotoRecord>& records,
                     const std::vector<std::pair<std::string, std::function<bool(const PhotoRecord&)>>>& groups) {
  fmt::print("\n### By {}\n\n", title);
  fmt::print(
      "| {} | photos | ruled | disks found / in view | position error median / p95 mm | axes within 2σ | "
      "margin error median / p95 mm | margins within 2σ | too close to call | wrong calls | unanswered | "
      "smallest good tag px |\n",
      title);
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [name, in_group] : groups) {
    std::vector<const PhotoRecord*> chosen;
    for (const PhotoRecord& p : records)
      if (in_group(p)) chosen.push_back(&p);
    const Row r = summarize(chosen);
    fmt::print("| {} | {} | {} | {} / {} | {} / {} | {} | {} / {} | {} | {} | {} | {} | {} |\n", name, r.photos,
               r.ruled, r.found, r.in_view, number_text(quantile(r.position_error, 0.5)),
               number_text(quantile(r.position_error, 0.95)), share_text(r.axes_covered, r.axes),
               number_text(quantile(r.margin_error, 0.5)), number_text(quantile(r.margin_error, 0.95)),
               share_text(r.margins_covered, r.margins), share_text(r.too_close, r.margins), r.wrong, r.unanswered,
               smallest_good_tag(r.answers));
  }
}

using Group = std::pair<std::string, std::function<bool(const PhotoRecord&)>>;

std::vector<Group> bins(const std::string& unit, const std::vector<double>& edges,
                        std::function<double(const PhotoRecord&)> value) {
  std::vector<Group> out{{"all", [](const PhotoRecord&) { return true; }}};
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const double lo = edges[i], hi = edges[i + 1];
    const bool last = i + 2 == edges.size();  // the space's upper end belongs to the last bin
    out.push_back({fmt::format("{:g}–{:g} {}", lo, hi, unit), [=](const PhotoRecord& p) {
                     const double v = value(p);
                     return v >= lo && (v < hi || (last && v <= hi));
                   }});
  }
  return out;
}

void print_calls(const std::vector<PhotoRecord>& records) {
  fmt::print("\n### Calls against the true margin\n\n");
  fmt::print("Range questions by true |margin_mm|, overlap questions by true |separation_mm|.\n\n");
  fmt::print(
      "| question | true \\|margin\\| mm | answers | too close to call | right calls | wrong calls | unanswered |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  const std::vector<double> edges{0, 0.05, 0.1, 0.2, 0.5, 1, 2, 4, 10, 1e9};
  for (bool range : {true, false})
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
      long long n = 0, close = 0, right = 0, wrong = 0, unanswered = 0;
      for (const PhotoRecord& p : records)
        for (const AnswerRecord& a : p.answers) {
          if (a.range != range || std::abs(a.truth) < edges[i] || std::abs(a.truth) >= edges[i + 1]) continue;
          ++n;
          if (!answered(a)) {
            ++unanswered;
            continue;
          }
          close += a.call == "too close to call";
          wrong += wrong_call(a);
          right += a.call != "too close to call" && !wrong_call(a);
        }
      if (n == 0) continue;
      const std::string bin =
          edges[i + 1] > 1e8 ? fmt::format("≥ {:g}", edges[i]) : fmt::format("{:g}–{:g}", edges[i], edges[i + 1]);
      fmt::print("| {} | {} | {} | {} | {} | {} | {} |\n", range ? "range" : "overlap", bin, n,
                 share_text(close, n - unanswered), share_text(right, n - unanswered), wrong, unanswered);
    }
}

void print_tag_sizes(const std::vector<PhotoRecord>& records) {
  fmt::print("\n### Range answers by tag size in the picture\n\n");
  fmt::print("The smaller of the two disks' tags (side of the detector's square, px).\n\n");
  fmt::print("| tag px | range answers | σ median mm | σ ≤ 0.5 mm | \\|error\\| ≤ 0.5 mm | error within 2σ |\n");
  fmt::print("|---|---|---|---|---|---|\n");
  const std::vector<double> edges{0, 15, 20, 25, 30, 45, 70, 100, 150, 250, 1e9};
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    std::vector<double> sigmas;
    long long small_sigma = 0, small_error = 0, covered = 0;
    for (const PhotoRecord& p : records)
      for (const AnswerRecord& a : p.answers) {
        if (!a.range || !answered(a) || a.tag_px < edges[i] || a.tag_px >= edges[i + 1]) continue;
        sigmas.push_back(*a.sigma);
        small_sigma += *a.sigma <= 0.5;
        small_error += std::abs(*a.measured - a.truth) <= 0.5;
        covered += std::abs(*a.measured - a.truth) <= 2 * *a.sigma;
      }
    if (sigmas.empty()) continue;
    const auto n = static_cast<long long>(sigmas.size());
    const std::string bin =
        edges[i + 1] > 1e8 ? fmt::format("≥ {:g}", edges[i]) : fmt::format("{:g}–{:g}", edges[i], edges[i + 1]);
    fmt::print("| {} | {} | {} | {} | {} | {} |\n", bin, n, number_text(quantile(sigmas, 0.5)),
               share_text(small_sigma, n), share_text(small_error, n), share_text(covered, n));
  }
}

void print_disks(const std::vector<PhotoRecord>& records) {
  fmt::print("\n### Per disk\n\n");
  fmt::print(
      "| disk | tag mm | in view | found | tag px median | position error median / p95 mm | σ median mm | axes within "
      "2σ |\n");
  fmt::print("|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> names;
  for (const DiskRecord& d : records.front().disks) names.push_back(d.name);
  for (const std::string& name : names) {
    long long in_view = 0, found = 0, axes = 0, covered = 0;
    std::vector<double> px, error, sigma;
    double tag_mm = 0;
    for (const PhotoRecord& p : records)
      for (const DiskRecord& d : p.disks) {
        if (d.name != name) continue;
        tag_mm = d.tag_mm;
        in_view += d.in_view;
        if (d.in_view) px.push_back(d.tag_px);
        found += d.seen;
        if (!d.found) continue;
        error.push_back(std::hypot(d.ex, d.ey));
        if (d.sigma > 0) {
          sigma.push_back(d.sigma);
          axes += 2;
          covered += (std::abs(d.ex) <= 2 * d.sigma) + (std::abs(d.ey) <= 2 * d.sigma);
        }
      }
    fmt::print("| {} | {:g} | {} | {} | {} | {} / {} | {} | {} |\n", name, tag_mm, in_view, found,
               number_text(quantile(px, 0.5), 0), number_text(quantile(error, 0.5)), number_text(quantile(error, 0.95)),
               number_text(quantile(sigma, 0.5)), share_text(covered, axes));
  }
}

void print_times(const std::vector<PhotoRecord>& records, const bench::SampleSpace& space) {
  fmt::print("\n### Time per photo\n\n");
  fmt::print(
      "Rendering the photo (simulator/phone_photo.h: render, shake, noise, JPEG, EXIF) and ruling on it (decode_photo "
      "and rule_on_photo), seconds on this machine: CPU time of all threads, and wall time (the machine may be "
      "shared).\n\n");
  fmt::print(
      "| Mpx | photos | render CPU median / max s | render wall median / max s | rule CPU median / max s | rule wall "
      "median / max s |\n");
  fmt::print("|---|---|---|---|---|---|\n");
  for (double mp : space.megapixels) {
    std::vector<double> render, rule, render_cpu, rule_cpu;
    for (const PhotoRecord& p : records)
      if (p.shot.megapixels == mp) {
        render.push_back(p.render_s);
        rule.push_back(p.rule_s);
        render_cpu.push_back(p.render_cpu_s);
        rule_cpu.push_back(p.rule_cpu_s);
      }
    auto pair = [](const std::vector<double>& v) {
      return number_text(quantile(v, 0.5), 1) + " / " + number_text(quantile(v, 1.0), 1);
    };
    fmt::print("| {:g} | {} | {} | {} | {} | {} |\n", mp, render.size(), pair(render_cpu), pair(render), pair(rule_cpu),
               pair(rule));
  }
}

void print_refusals(const std::vector<PhotoRecord>& records) {
  std::map<std::string, int> reasons;
  for (const PhotoRecord& p : records)
    if (!p.refused.empty()) ++reasons[p.refused.substr(0, 160)];
  if (reasons.empty()) return;
  fmt::print("\n### Photos not ruled on\n\n| photos | why |\n|---|---|\n");
  for (const auto& [why, n] : reasons) fmt::print("| {} | {} |\n", n, why);
}

}  // namespace

int main(int argc, char** argv) {
  int photos = 64;
  uint64_t seed = 40;
  std::filesystem::path keep;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--photos" && i + 1 < argc)
      photos = std::stoi(argv[++i]);
    else if (arg == "--seed" && i + 1 < argc)
      seed = std::stoull(argv[++i]);
    else if (arg == "--keep" && i + 1 < argc)
      keep = argv[++i];
    else {
      std::fprintf(stderr, "usage: photo_disputes [--photos N] [--seed S] [--keep DIR]\n");
      return 2;
    }
  }
  if (!keep.empty()) std::filesystem::create_directories(keep);
  const bench::SampleSpace space;
  std::vector<PhotoRecord> records;
  for (int i = 0; i < photos; ++i) {
    const bench::DisputePhoto sample = bench::draw_dispute_photo(space, seed, i);
    records.push_back(rule_one(sample, i, keep));
    const PhotoRecord& r = records.back();
    int in_view = 0, found = 0;
    for (const DiskRecord& d : r.disks) {
      in_view += d.in_view;
      found += d.seen;
    }
    fmt::print(stderr,
               "photo {}/{}: {:g} Mpx, tilt {:.0f}°, {:.0f} cm, {}: render {:.1f} s (CPU {:.1f} s), rule {:.1f} s (CPU "
               "{:.1f} s), {} of {} disks in view found{}\n",
               i + 1, photos, r.shot.megapixels, r.shot.tilt_deg, r.shot.distance_mm / 10,
               r.shot.exif_focal_length ? "EXIF focal length" : "no focal length", r.render_s, r.render_cpu_s, r.rule_s,
               r.rule_cpu_s, found, in_view, r.refused.empty() ? "" : " (refused: " + r.refused + ")");
  }

  fmt::print("## Disputes settled from one phone photo\n\n");
  fmt::print(
      "{} rendered phone photos (seed {}): {} Mpx (4:3; 2 Mpx is the copy a messenger app sends), {:g}–{:g} mm "
      "equivalent lenses with a little radial distortion, {:g}–{:g}° from vertical, {:g}–{:g} cm from the point "
      "looked at, any yaw, roll within ±10°, a hand's shake of {:g}–{:g} px at 12 Mpx (scaled with the picture's "
      "side), sensor noise, JPEG quality 85–92 (4:2:0) with the EXIF focal length on about {:.0f} % of them. Each "
      "table: four ships (24 mm tags) and a torpedo (9.5 mm tag); one pair of ships at a true range margin of "
      "either sign and another pair apart by {:g}–{:g} mm (log-uniform: as many near 0 as far). Every range "
      "question between disks in the picture, and overlap questions for the close pairs.\n",
      photos, seed, fmt::join(space.megapixels, "/"), space.focal_35mm_lo, space.focal_35mm_hi, space.tilt_lo,
      space.tilt_hi, space.distance_lo / 10, space.distance_hi / 10, space.shake_lo_px, space.shake_hi_px,
      100 * space.exif_share, space.close_lo_mm, space.close_hi_mm);
  fmt::print(
      "\nPositions are in each ruling's own frame (origin at its reference disk, +x along that disk's tag; the photo "
      "fixes no table corner), the reference disk left out. \"Smallest good tag\": the smallest tag side in pixels "
      "from which on 95 % of the "
      "range answers have σ ≤ 0.5 mm and error ≤ 0.5 mm. 2σ should cover 95 %.\n");

  print_breakdown("tilt", records, bins("°", {20, 35, 50, 60}, [](const PhotoRecord& p) { return p.shot.tilt_deg; }));
  print_breakdown("distance", records,
                  bins("cm", {30, 45, 60, 80}, [](const PhotoRecord& p) { return p.shot.distance_mm / 10; }));
  {
    std::vector<Group> groups{{"all", [](const PhotoRecord&) { return true; }}};
    for (double mp : space.megapixels)
      groups.push_back({fmt::format("{:g} Mpx", mp), [mp](const PhotoRecord& p) { return p.shot.megapixels == mp; }});
    print_breakdown("megapixels", records, groups);
  }
  print_breakdown("EXIF focal length", records,
                  {{"all", [](const PhotoRecord&) { return true; }},
                   {"given", [](const PhotoRecord& p) { return p.shot.exif_focal_length; }},
                   {"absent", [](const PhotoRecord& p) { return !p.shot.exif_focal_length; }}});
  print_disks(records);
  print_calls(records);
  print_tag_sizes(records);
  print_times(records, space);
  print_refusals(records);
  return 0;
}
