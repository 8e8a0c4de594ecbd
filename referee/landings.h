#pragma once
// Where the tracker saw a disk land in the stretch before a settle, and how long its flip is
// (landings.cpp): what the ship, torpedo and table readings measure a move with. Owns the rests a
// disk was found in after a camera gap, which are no landings (the gap's reading says them).

#include <cstddef>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "referee/books.h"
#include "referee/move_reading.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

class Landings {
 public:
  Landings(const model::DiskRegistry& registry, const std::vector<TableSettle>& settles, const Books& books);

  // Where the tracker saw the disk land in the stretch before the settle; a disk found moved
  // after a gap landed where it was found only in the camera's eyes (no flip): not those.
  std::vector<Rest> landings_of(const TableSettle& settle, const std::string& name) const;
  double flip_length(const std::string& name) const;
  // The disk was found after a camera gap at that settle: its landings up to `until` are where the
  // camera found it.
  void found_after_gap(std::size_t settle, const std::string& disk, double until);

 private:
  const model::DiskRegistry& registry_;
  const std::vector<TableSettle>& settles_;
  const Books& books_;

  struct UnseenRest {
    std::size_t settle = 0;
    std::string disk;
    double until = 0;  // its landings up to this time are where the camera found it
  };
  std::vector<UnseenRest> unseen_rests_;
};

}  // namespace diskref::referee
