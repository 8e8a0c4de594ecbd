// Where the tracker saw disks land (landings.h), and how long a flip is.
#include "referee/landings.h"

#include <algorithm>
#include <limits>

#include "engine/geometry/shape.h"

namespace diskref::referee {

Landings::Landings(const model::DiskRegistry& registry, const std::vector<TableSettle>& settles, const Books& books)
    : registry_(registry), settles_(settles), books_(books) {}

void Landings::found_after_gap(std::size_t settle, const std::string& disk, double until) {
  unseen_rests_.push_back({settle, disk, until});
}

double Landings::flip_length(const std::string& name) const {
  if (const model::DiskSpec* d = registry_.find(name)) return geom::flip_length(d->shape);
  for (const rules::ShipState& s : books_.state.ships)
    if (s.id == name) return geom::flip_length(s.shape);
  for (const rules::Torpedo& t : books_.state.torpedoes)
    if (t.id == name) return geom::flip_length(t.shape);
  return 0;
}

std::vector<Rest> Landings::landings_of(const TableSettle& settle, const std::string& name) const {
  const auto index = static_cast<std::size_t>(&settle - settles_.data());
  double unseen_until = -std::numeric_limits<double>::infinity();
  for (const UnseenRest& u : unseen_rests_)
    if (u.settle == index && u.disk == name) unseen_until = std::max(unseen_until, u.until);
  std::vector<Rest> out;
  for (const DiskMotion& m : settle.moved)
    if (m.name == name)
      for (const model::Landing& l : m.landings)
        if (l.t > unseen_until) out.push_back({geom::Pose::from_degrees(l.x, l.y, l.heading), l.face, l.sigma_mm, l.t});
  return out;
}

}  // namespace diskref::referee
