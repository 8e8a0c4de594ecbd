#include "ui/event_log.h"

#include <fmt/format.h>

namespace diskref::ui {

std::string format_event(const Event& e) {
  std::string head =
      e.frame >= 0 ? fmt::format("{:>8.2f} s  #{:<5} ", e.t, e.frame) : fmt::format("{:>8.2f} s         ", e.t);
  return head + (e.severity == Severity::warning ? "WARNING: " : "") + e.text;
}

namespace {

std::string pose_text(const model::DiskTrack& d) {
  if (!d.x || !d.y || !d.heading) return "";
  return fmt::format(" at ({:.1f}, {:.1f}) mm, heading {:.1f} deg", *d.x, *d.y, *d.heading);
}

}  // namespace

std::vector<Event> table_events(const model::TrackFrame* previous, const model::TrackFrame& current) {
  std::vector<Event> out;
  auto add = [&](Severity s, std::string text) { out.push_back({current.t, current.frame, s, std::move(text)}); };

  for (const model::DiskTrack& d : current.disks) {
    const model::DiskTrack* p = previous ? model::find_track(*previous, d.name) : nullptr;
    if (p == nullptr) {
      add(Severity::info, d.name + " appeared (" + std::string(to_string(d.face)) + ")" + pose_text(d));
      continue;
    }
    if (p->state != d.state) {
      if (d.state == model::TrackState::lost) {
        add(Severity::warning, d.name + " lost");
      } else if (d.state == model::TrackState::stale) {
        add(Severity::info, d.name + " hidden (last pose kept)");
      } else {
        add(Severity::info, d.name + " seen again" + pose_text(d));
      }
    }
    if (p->face != d.face && d.state == model::TrackState::visible) {
      add(Severity::info, d.name + " now " + std::string(to_string(d.face)) + " face up");
    }
    if (p->motion && d.motion && *p->motion != *d.motion) {
      if (*d.motion == model::Motion::moving) {
        add(Severity::info, d.name + " moving");
      } else {
        add(Severity::info, d.name + " settled" + pose_text(d));
      }
    }
  }
  if (previous) {
    for (const model::DiskTrack& p : previous->disks) {
      if (find_track(current, p.name) == nullptr) add(Severity::warning, p.name + " no longer reported");
    }
  }
  if (previous && previous->settled && current.settled && *previous->settled != *current.settled) {
    add(Severity::info, *current.settled ? "table settled" : "table busy (something moving or covering it)");
  }
  return out;
}

void EventLog::add(Event event) {
  ++total_;
  events_.push_back(std::move(event));
  while (events_.size() > capacity_) events_.pop_front();
}

}  // namespace diskref::ui
