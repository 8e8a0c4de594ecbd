#pragma once
// The referee's game on the network: whatever of the live feed the user asked for (the HTTP feed
// with its pages, TUIO, MQTT for a hall of tables), fed from the referee's thread after each frame. The feed is a
// spectator: it reads the referee's books and the tracker's frame and changes neither, and
// nothing on the network side can stop or slow the refereeing (every send is to a hub, a UDP
// socket or the MQTT client's own queue; every problem is reported once).

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "net/access_notice.h"
#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/http_feed_server.h"
#include "net/mqtt_table_publisher.h"
#include "net/photo_page.h"
#include "net/problem_reports.h"
#include "referee/referee.h"

namespace diskref::net {

class TuioSender;

struct LiveFeedOptions {
  std::string table_name = "table";
  std::optional<HttpFeedOptions> serve;  // --serve
  std::optional<Endpoint> tuio;          // --tuio
  std::optional<MqttOptions> mqtt;       // --mqtt
  // When serving: the photo page (spec §14, "From a phone") at /photo beside the overlay, ruling
  // with what this makes of the game's registry (the photo room is above net: the program gives it).
  std::function<PhotoRuler(const model::DiskRegistry&)> photo_ruler;
  // Table frames (and TUIO bundles) at most this many a second of wall time; rulings and the
  // books go out as they happen.
  double updates_per_s = 30;
};

class LiveFeed {
 public:
  // Opens what was asked for (throws std::runtime_error naming the address when it cannot).
  // `say` gets every line the feed has for a person: where it serves, each problem once.
  LiveFeed(LiveFeedOptions options, const model::TableSpec& table, const model::DiskRegistry& registry,
           ProblemReports::Sink say);
  ~LiveFeed();
  LiveFeed(const LiveFeed&) = delete;
  LiveFeed& operator=(const LiveFeed&) = delete;

  // After referee.feed(frame): the new rulings (and the books after them) at once, the frame
  // when its turn comes.
  void after_frame(const model::TrackFrame& frame, const referee::Referee& referee);
  // After referee.finish(): what it logged then.
  void after_finish(const referee::Referee& referee);
  // The feed's own state, as the pages show it (e.g. the broker lost).
  void set_status(const nlohmann::json& status);

  FeedHub& hub() { return hub_; }
  ProblemReports& problems() { return problems_; }
  // http://HOST:PORT/ when serving, else empty.
  std::string url() const;
  // Serving beyond loopback: the address a phone opens (with its token) and its QR code, for the
  // screen to show; else empty.
  const std::optional<FeedAccess>& access() const { return access_; }

 private:
  void publish_rulings(const referee::Referee& referee, double t);

  LiveFeedOptions options_;
  ProblemReports problems_;
  FeedHub hub_;
  std::unique_ptr<HttpFeedServer> server_;
  std::optional<FeedAccess> access_;
  std::unique_ptr<TuioSender> tuio_;
  std::unique_ptr<MqttTablePublisher> mqtt_;
  std::size_t rulings_published_ = 0;
  bool game_published_ = false;
  double last_t_ = 0;  // the last frame's video time
  std::chrono::steady_clock::time_point last_update_{};
};

}  // namespace diskref::net
