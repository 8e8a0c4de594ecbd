#include "referee/move_reading.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace diskref::referee {
namespace {

// How far from a whole number of flip lengths two rests may be and still be counted.
constexpr double kFlipFraction = 0.35;

model::Face flipped(model::Face f, int flips) {
  if (flips % 2 == 0) return f;
  return f == model::Face::up ? model::Face::down : model::Face::up;
}

// The places it came to rest: rests closer than half a flip to the place before are the same
// place (a turn in place, or the same landing seen again). A place keeps how it arrived (the
// heading it landed with) and how it was left (after any turn there).
struct Place {
  Rest arrival;
  Rest last;
};

std::vector<Place> places(const ReadingInput& in) {
  std::vector<Place> out{{in.start, in.start}};
  for (const Rest& r : in.rests) {
    if (geom::distance(r.pose.position, out.back().last.pose.position) < in.flip_length_mm / 2)
      out.back().last = r;
    else
      out.push_back({r, r});
  }
  return out;
}

double heading_change(const geom::Pose& from, const geom::Pose& to) {
  return geom::angle_difference_deg(to.heading_deg(), from.heading_deg());
}

}  // namespace

MoveReading read_move(const ReadingInput& in) {
  MoveReading out;
  const double L = in.flip_length_mm;
  std::vector<Place> chain = places(in);
  // A turn in place at the start (chain[0] replaced by a later rest) shows as the start's new
  // heading; the legal path starts from the books' pose and heading.
  const geom::Pose start = in.start.pose;
  out.end = in.rests.empty() ? in.start : in.rests.back();
  out.moved_mm = geom::distance(start.position, out.end.pose.position);
  out.turned_deg = heading_change(start, out.end.pose);

  // Flips between consecutive places, and the landings between them that were not seen.
  for (std::size_t i = 1; i < chain.size(); ++i) {
    const Rest& a = chain[i - 1].last;
    const Rest& b = chain[i].last;
    double d = geom::distance(a.pose.position, b.pose.position);
    int n = static_cast<int>(std::lround(d / L));
    if (n < 1 || std::fabs(d / L - n) > kFlipFraction) {
      out.counted = false;
      out.uncounted_why =
          fmt::format("it moved {:.1f} mm between two rests, {:.2f} flip lengths of {:.1f} mm", d, d / L, L);
    }
    n = std::max(n, 1);
    for (int k = 1; k < n; ++k) {
      double f = static_cast<double>(k) / n;
      ReadLanding unseen;
      unseen.pose = {a.pose.position + (b.pose.position - a.pose.position) * f, chain[i].arrival.pose.rotation};
      unseen.sigma_mm = std::max({a.sigma_mm, b.sigma_mm, in.off_path_tolerance_mm / 2});
      unseen.arrival_heading_deg = unseen.pose.heading_deg();
      out.landings.push_back(unseen);
    }
    out.landings.push_back({b, b.pose, b.sigma_mm, chain[i].arrival.pose.heading_deg()});
  }
  out.flips = static_cast<int>(out.landings.size());
  if (out.counted && in.start_face_known && chain.size() > 1 &&
      flipped(chain.front().last.face, out.flips) != chain.back().last.face) {
    out.counted = false;
    out.uncounted_why = fmt::format("{} flip{} by the distance, but it lies {} up", out.flips,
                                    out.flips == 1 ? "" : "s", model::to_string(chain.back().last.face));
  }

  // Where it turned (a ship turns at most once on its legal path: evasive action).
  const double start_heading = start.heading_deg();
  if (in.turns == Turns::once) {
    // Against the start's heading, so that flips a degree or two off each do not add up to a turn:
    // turned in place where it started, landed with a new heading (it turned before that flip), or
    // turned in place at a landing.
    auto turned = [&](const geom::Pose& p) { return std::fabs(heading_change(start, p)) > in.turn_tolerance_deg; };
    if (turned(chain.front().last.pose)) {
      out.turned_after = 0;
      out.turned_to_deg = chain.front().last.pose.heading_deg();
    }
    int flips_before = 0;
    for (std::size_t i = 1; i < chain.size() && !out.turned_after; ++i) {
      int n = static_cast<int>(
          std::lround(geom::distance(chain[i - 1].last.pose.position, chain[i].last.pose.position) / L));
      flips_before += std::max(n, 1);
      if (turned(chain[i].arrival.pose)) {
        out.turned_after = flips_before - 1;
        out.turned_to_deg = chain[i].arrival.pose.heading_deg();
      } else if (turned(chain[i].last.pose)) {
        out.turned_after = flips_before;
        out.turned_to_deg = chain[i].last.pose.heading_deg();
      }
    }
  }

  // The legal landings: one flip length each along the heading; after a turn the rules allow, on
  // from where it turned along its new heading.
  geom::Pose from = start;
  double heading = start_heading;
  for (int k = 1; k <= in.expected_flips; ++k) {
    std::size_t i = static_cast<std::size_t>(k - 1);
    if (in.turns == Turns::every_flip && i < out.landings.size()) heading = out.landings[i].arrival_heading_deg;
    if (in.turns == Turns::at_start && k == 1 && !chain.empty()) heading = chain.front().last.pose.heading_deg();
    if (in.turns == Turns::once && out.turned_after && *out.turned_after == k - 1) {
      heading = out.turned_to_deg;
      if (k - 1 > 0 && i - 1 < out.landings.size()) from = out.landings[i - 1].pose;
    }
    geom::Pose next = geom::Pose::from_degrees(0, 0, heading);
    next.position = from.position + next.heading_dir() * L;
    out.legal.push_back(next);
    from = next;
    if (in.turns == Turns::every_flip && i < out.landings.size()) from.position = out.landings[i].pose.position;
  }

  for (std::size_t i = 0; i < out.landings.size(); ++i) {
    std::optional<double> drift;
    if (out.landings[i].seen && i < out.legal.size())
      drift = geom::distance(out.landings[i].pose.position, out.legal[i].position);
    if (drift) out.max_drift_mm = std::max(out.max_drift_mm, *drift);
    out.drift_mm.push_back(drift);
  }
  return out;
}

}  // namespace diskref::referee
