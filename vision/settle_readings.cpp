#include "vision/settle_readings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace diskref::vision {
namespace {

TableReading table_of(const model::TrackFrame& frame) {
  TableReading table;
  for (const model::DiskTrack& d : frame.disks)
    if (d.x && d.y && d.state != model::TrackState::lost) table[d.name] = {d.face, *d.x, *d.y};
  return table;
}

}  // namespace

SettleReadings settle_readings(const std::vector<model::TrackFrame>& frames) {
  SettleReadings out;
  bool was_settled = false;
  for (const model::TrackFrame& f : frames) {
    const bool settled = f.settled.value_or(false);
    if (settled && !was_settled) {
      ++out.settles;
      TableReading now = table_of(f);
      if (out.last) {
        for (const auto& [name, p] : now) {
          auto it = out.last->find(name);
          if (it == out.last->end() || it->second.face != p.face ||
              std::hypot(it->second.x - p.x, it->second.y - p.y) >= kReadingMovedMm)
            out.moves.push_back({name, p.face, p.x, p.y});
        }
        for (const auto& [name, p] : *out.last)
          if (!now.count(name)) out.moves.push_back({name, std::nullopt, 0, 0});
      }
      out.last = std::move(now);
    }
    was_settled = settled;
  }
  return out;
}

bool same_moves(const std::vector<SettleReading>& a, const std::vector<SettleReading>& b, double& max_mm) {
  max_mm = 0;
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].disk != b[i].disk || a[i].face != b[i].face) {
      max_mm = 0;
      return false;
    }
    if (a[i].face) max_mm = std::max(max_mm, std::hypot(a[i].x - b[i].x, a[i].y - b[i].y));
  }
  return true;
}

double table_difference_mm(const TableReading& a, const TableReading& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (const auto& [name, p] : a) {
    auto it = b.find(name);
    if (it == b.end() || it->second.face != p.face) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::hypot(it->second.x - p.x, it->second.y - p.y));
  }
  return worst;
}

std::string describe(const std::vector<SettleReading>& moves) {
  std::string s;
  for (const SettleReading& r : moves) {
    if (!s.empty()) s += ", ";
    s += r.disk + " " + (r.face ? std::string(model::to_string(*r.face)) : std::string("gone"));
  }
  return s.empty() ? "none" : s;
}

}  // namespace diskref::vision
