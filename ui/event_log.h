#pragma once
// The event log: what happened on the table (a disk appeared, was hidden, lost, flipped, moved
// and settled), what the screen did (source opened, recording started, a dispute asked) and
// warnings (calibration poor, camera moved). Shown in a panel and written to the session
// recording.

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/model/track_frame.h"
#include "recording/session_event.h"

namespace diskref::ui {

using recording::Event;
using recording::Severity;
// "  12.40 s  #310  enterprise lost" style, for the panel.
std::string format_event(const Event& event);

// What changed on the table between two consecutive tracker frames (`previous` may be null for the
// first frame).
std::vector<Event> table_events(const model::TrackFrame* previous, const model::TrackFrame& current);

// Keeps the newest `capacity` events for display (the recording keeps them all).
class EventLog {
 public:
  explicit EventLog(std::size_t capacity = 2000) : capacity_(capacity) {}
  void add(Event event);
  const std::deque<Event>& events() const { return events_; }
  std::size_t total_added() const { return total_; }

 private:
  std::size_t capacity_;
  std::size_t total_ = 0;
  std::deque<Event> events_;
};

}  // namespace diskref::ui
