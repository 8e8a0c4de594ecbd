#include "net/tuio_sender.h"

#include <cmath>
#include <numbers>
#include <set>
#include <stdexcept>

#include <lo/lo.h>

namespace diskref::net {

struct TuioSender::Address {
  lo_address address = nullptr;
  ~Address() {
    if (address) lo_address_free(address);
  }
};

TuioSender::TuioSender(const Endpoint& to, std::string source_name, model::TableSpec table,
                       model::DiskRegistry registry, ProblemReports& problems)
    : address_(std::make_unique<Address>()),
      source_("diskref@" + std::move(source_name)),
      table_(std::move(table)),
      registry_(std::move(registry)),
      problems_(problems) {
  address_->address = lo_address_new(to.host.c_str(), std::to_string(to.port).c_str());
  if (!address_->address) throw std::runtime_error("TUIO: cannot send to " + to_string(to));
}

TuioSender::~TuioSender() = default;

std::vector<TuioObject> TuioSender::send(const model::TrackFrame& frame) {
  std::vector<TuioObject> objects;
  std::set<std::string> alive;
  for (const model::DiskTrack& d : frame.disks) {
    if (d.state == model::TrackState::lost || !d.x || !d.y || !d.heading) continue;
    const model::DiskSpec* spec = registry_.find(d.name);
    if (!spec) continue;
    int symbol = -1;
    for (const model::TagSpec& tag : spec->tags)
      if (tag.face == d.face) symbol = tag.id;
    if (symbol < 0) continue;  // no tag on the face that is up: nothing a fiducial client could name
    auto [it, fresh] = sessions_.try_emplace(d.name, next_session_);
    if (fresh) ++next_session_;
    alive.insert(d.name);
    const double two_pi = 2 * std::numbers::pi;
    double angle = std::fmod(two_pi - *d.heading * std::numbers::pi / 180.0, two_pi);
    if (angle < 0) angle += two_pi;
    objects.push_back({it->second, symbol, static_cast<float>(*d.x / table_.play_area_mm.x),
                       static_cast<float>(1.0 - *d.y / table_.play_area_mm.y), static_cast<float>(angle)});
  }
  std::erase_if(sessions_, [&](const auto& s) { return !alive.contains(s.first); });

  const lo_timetag immediately{0U, 1U};  // LO_TT_IMMEDIATE, which is a C compound literal
  lo_bundle bundle = lo_bundle_new(immediately);
  lo_message source = lo_message_new();
  lo_message_add_string(source, "source");
  lo_message_add_string(source, source_.c_str());
  lo_bundle_add_message(bundle, "/tuio/2Dobj", source);
  lo_message alive_message = lo_message_new();
  lo_message_add_string(alive_message, "alive");
  for (const TuioObject& o : objects) lo_message_add_int32(alive_message, o.session);
  lo_bundle_add_message(bundle, "/tuio/2Dobj", alive_message);
  for (const TuioObject& o : objects) {
    lo_message set = lo_message_new();
    lo_message_add_string(set, "set");
    lo_message_add_int32(set, o.session);
    lo_message_add_int32(set, o.symbol);
    lo_message_add_float(set, o.x);
    lo_message_add_float(set, o.y);
    lo_message_add_float(set, o.angle);
    for (int i = 0; i < 5; ++i) lo_message_add_float(set, 0.0f);
    lo_bundle_add_message(bundle, "/tuio/2Dobj", set);
  }
  lo_message fseq = lo_message_new();
  lo_message_add_string(fseq, "fseq");
  lo_message_add_int32(fseq, ++fseq_);
  lo_bundle_add_message(bundle, "/tuio/2Dobj", fseq);
  if (lo_send_bundle(address_->address, bundle) < 0) {
    const char* why = lo_address_errstr(address_->address);
    problems_.report("tuio_send", std::string("TUIO: a bundle could not be sent (") + (why ? why : "unknown error") +
                                      "); sending goes on, further failures are not reported");
  }
  lo_bundle_free_recursive(bundle);
  return objects;
}

}  // namespace diskref::net
