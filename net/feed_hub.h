#pragma once
// Where the referee's thread leaves the feed's messages and the server's threads take them. The
// referee never waits on a client: publish() only stamps the message, keeps it and wakes the
// readers; each reader (a stream client, the MQTT publisher) follows at its own pace from its own
// place in a bounded ring of recent messages, and a reader that falls out of the ring is told so
// (the server then closes that stream: its client gets the snapshot again when it reconnects).
//
// State kept for the snapshot: the latest message of each type (setup, table, game, status; the
// hall's "hall"), every ruling of the log (by entry number), and the hall's latest "hall_table"
// of each table (by name): one current state a table, never a history of them.
//
// The ring is bounded in messages and in bytes (a hall's tables may be large): a reader that
// falls out of it is cut off and starts again from the snapshot.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace diskref::net {

// The version of the feed's messages (spec §10): every message carries it as "feed".
inline constexpr int kFeedVersion = 1;

struct FeedEvent {
  long long seq = 0;
  std::string type;  // the message's "type"
  std::string data;  // the message, JSON text on one line
};

class FeedHub {
 public:
  explicit FeedHub(std::size_t ring_size = 2048, std::size_t ring_bytes = 32u << 20);

  // Stamps "seq" (1, 2, ...) and "sent_ms" (Unix time in ms, for the latency a page measures).
  void publish(nlohmann::json message);
  // The log was replayed (a correction): the rulings kept are dropped, the new ones follow.
  void forget_rulings();

  struct Snapshot {
    // {"type": "snapshot", "seq", "setup", "frame", "game", "status", "rulings": [...]}, and for a
    // hall "hall" and "hall_tables": [...] (by name).
    nlohmann::json message;
    long long seq = 0;  // the last message it includes: a stream goes on after it
  };
  Snapshot snapshot() const;
  // The snapshot as JSON text, made once per change and shared by every reader that asks before
  // the next (a hall's snapshot may be tens of MB: a hundred pages opening at once must not each
  // make their own).
  struct SnapshotText {
    std::shared_ptr<const std::string> text;
    long long seq = 0;
  };
  SnapshotText snapshot_text() const;

  struct Batch {
    std::vector<std::shared_ptr<const FeedEvent>> events;
    bool fell_behind = false;  // messages after `after` left the ring before they were taken
    bool closed = false;
  };
  // Waits up to `timeout` for messages after `after` (a seq); returns those (maybe none).
  Batch wait_after(long long after, std::chrono::milliseconds timeout) const;
  // Wakes every reader for good (the program is ending).
  void close();
  bool closed() const;

 private:
  const std::size_t ring_size_;
  const std::size_t ring_bytes_limit_;
  std::size_t ring_bytes_ = 0;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::deque<std::shared_ptr<const FeedEvent>> ring_;
  long long seq_ = 0;
  bool closed_ = false;
  std::map<std::string, nlohmann::json> latest_;  // setup, table, game, status
  std::map<std::size_t, nlohmann::json> rulings_;
  std::map<std::string, nlohmann::json> hall_tables_;  // by table name
  mutable std::mutex snapshot_mutex_;                  // taken before mutex_, never after
  mutable SnapshotText snapshot_text_;
};

// Unix time in milliseconds (the clock a browser's Date.now() reads).
long long unix_time_ms();

}  // namespace diskref::net
