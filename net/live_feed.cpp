#include "net/live_feed.h"

#include <nlohmann/json.hpp>

#include "net/access_notice.h"
#include "net/feed_messages.h"
#include "net/pages/overlay_page.h"
#include "net/pages/overlay_script_page.h"
#include "net/pages/overlay_style_page.h"
#include "net/pages/table_drawing_page.h"
#include "net/tuio_sender.h"

namespace diskref::net {

LiveFeed::LiveFeed(LiveFeedOptions options, const model::TableSpec& table, const model::DiskRegistry& registry,
                   ProblemReports::Sink say)
    : options_(std::move(options)), problems_(say) {
  hub_.publish(setup_message(options_.table_name, table, registry));
  if (options_.serve) {
    server_ = std::make_unique<HttpFeedServer>(hub_, *options_.serve, problems_);
    // The overlay may be framed (a streaming program's browser source, a page around it).
    server_->add_page("/", "text/html; charset=utf-8", kOverlayPage, true);
    server_->add_page("/overlay", "text/html; charset=utf-8", kOverlayPage, true);
    server_->add_page("/overlay.js", "text/javascript; charset=utf-8", kOverlayScriptPage);
    server_->add_page("/overlay.css", "text/css; charset=utf-8", kOverlayStylePage);
    server_->add_page("/table_drawing.js", "text/javascript; charset=utf-8", kTableDrawingPage);
    if (options_.photo_ruler) add_photo_page(*server_, registry, options_.photo_ruler(registry));
    access_ = beyond_loopback_access(*server_, *options_.serve);
    if (say) {
      const std::string base = server_->url_without_token();
      say("the live feed: " + server_->url() + " (overlay), " + base + "feed/v1/events (stream), " + base +
          "feed/v1/snapshot");
      if (options_.photo_ruler) say("the photo page (a dispute settled from a phone's photo): " + base + "photo");
      if (const std::string notice = beyond_loopback_notice(*server_, *options_.serve); !notice.empty())
        say("the live feed: " + notice);
    }
  }
  if (options_.tuio) {
    tuio_ = std::make_unique<TuioSender>(*options_.tuio, options_.table_name, table, registry, problems_);
    if (say) say("TUIO 1.1 /tuio/2Dobj to " + to_string(*options_.tuio) + " (UDP)");
  }
  if (options_.mqtt)
    mqtt_ = std::make_unique<MqttTablePublisher>(*options_.mqtt, options_.table_name, hub_, problems_,
                                                 [this](const nlohmann::json& status) { set_status(status); });
}

LiveFeed::~LiveFeed() {
  hub_.close();   // wakes every stream and the MQTT publisher, so that they stop at once
  mqtt_.reset();  // its last state sent, online "false"
  server_.reset();
}

std::string LiveFeed::url() const {
  return server_ ? server_->url() : "";
}

void LiveFeed::publish_rulings(const referee::Referee& r, double t) {
  const std::vector<referee::Entry>& log = r.log();
  if (log.size() < rulings_published_) {  // a correction replayed the game: its log is new
    hub_.forget_rulings();
    rulings_published_ = 0;
  }
  const bool any = log.size() > rulings_published_ || !game_published_;
  for (; rulings_published_ < log.size(); ++rulings_published_)
    hub_.publish(ruling_message(options_.table_name, rulings_published_, log[rulings_published_]));
  if (any) hub_.publish(game_message(options_.table_name, r, t));
  game_published_ = true;
}

void LiveFeed::after_frame(const model::TrackFrame& frame, const referee::Referee& r) {
  last_t_ = frame.t;
  const auto now = std::chrono::steady_clock::now();
  const bool ruled = r.log().size() != rulings_published_ || !game_published_;
  const bool due =
      options_.updates_per_s > 0 && now - last_update_ >= std::chrono::duration<double>(1.0 / options_.updates_per_s);
  // A ruling goes out with the table it was made on.
  if (due || ruled) {
    hub_.publish(table_message(options_.table_name, frame));
    if (tuio_) tuio_->send(frame);
    last_update_ = now;
  }
  if (ruled) publish_rulings(r, frame.t);
}

void LiveFeed::after_finish(const referee::Referee& r) {
  publish_rulings(r, last_t_);
}

void LiveFeed::set_status(const nlohmann::json& status) {
  hub_.publish(status_message(options_.table_name, status));
}

}  // namespace diskref::net
