#include "net/feed_hub.h"

#include <nlohmann/json.hpp>

namespace diskref::net {

long long unix_time_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

FeedHub::FeedHub(std::size_t ring_size, std::size_t ring_bytes)
    : ring_size_(ring_size < 1 ? 1 : ring_size), ring_bytes_limit_(ring_bytes) {}

void FeedHub::publish(nlohmann::json message) {
  const std::string type = message.value("type", "");
  {
    std::lock_guard lock(mutex_);
    message["seq"] = ++seq_;
    message["sent_ms"] = unix_time_ms();
    auto event = std::make_shared<FeedEvent>(FeedEvent{seq_, type, message.dump()});
    if (type == "ruling") {
      const std::size_t entry = message.value("entry", std::size_t{0});
      rulings_[entry] = std::move(message);
    } else if (type == "hall_table") {
      const std::string name = message.value("name", "");
      hall_tables_[name] = std::move(message);
    } else {
      latest_[type] = std::move(message);
    }
    ring_bytes_ += event->data.size();
    ring_.push_back(std::move(event));
    // The newest message always stays (a reader must be able to take it).
    while (ring_.size() > ring_size_ || (ring_.size() > 1 && ring_bytes_ > ring_bytes_limit_)) {
      ring_bytes_ -= ring_.front()->data.size();
      ring_.pop_front();
    }
  }
  changed_.notify_all();
}

void FeedHub::forget_rulings() {
  std::lock_guard lock(mutex_);
  rulings_.clear();
}

FeedHub::Snapshot FeedHub::snapshot() const {
  std::lock_guard lock(mutex_);
  Snapshot s;
  s.seq = seq_;
  s.message = {{"feed", kFeedVersion}, {"type", "snapshot"}, {"seq", seq_}, {"sent_ms", unix_time_ms()}};
  // "table" is the table's name, as in every message; the latest tracked frame is "frame".
  for (const char* kind : {"setup", "frame", "game", "status"}) s.message[kind] = nullptr;
  for (const auto& [kind, latest] : latest_) s.message[kind == "table" ? "frame" : kind] = latest;
  s.message["rulings"] = nlohmann::json::array();
  for (const auto& [number, ruling] : rulings_) s.message["rulings"].push_back(ruling);
  if (const auto it = latest_.find("setup"); it != latest_.end()) s.message["table"] = it->second.value("table", "");
  if (const auto it = latest_.find("hall"); it != latest_.end()) {
    s.message["hall"] = it->second;
    s.message["hall_tables"] = nlohmann::json::array();
    for (const auto& [name, table] : hall_tables_) s.message["hall_tables"].push_back(table);
  }
  return s;
}

FeedHub::SnapshotText FeedHub::snapshot_text() const {
  std::lock_guard making(snapshot_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (snapshot_text_.text && snapshot_text_.seq == seq_) return snapshot_text_;
  }
  Snapshot s = snapshot();
  snapshot_text_ = {std::make_shared<const std::string>(s.message.dump()), s.seq};
  return snapshot_text_;
}

FeedHub::Batch FeedHub::wait_after(long long after, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return closed_ || seq_ > after; });
  Batch b;
  b.closed = closed_;
  if (seq_ <= after) return b;
  // The ring holds seq_-size+1 .. seq_, in order.
  const long long oldest = ring_.empty() ? seq_ + 1 : ring_.front()->seq;
  if (after + 1 < oldest) {
    b.fell_behind = true;
    return b;
  }
  for (auto it = ring_.begin() + static_cast<std::ptrdiff_t>(after + 1 - oldest); it != ring_.end(); ++it)
    b.events.push_back(*it);
  return b;
}

void FeedHub::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

bool FeedHub::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

}  // namespace diskref::net
