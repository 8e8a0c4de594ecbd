// TUIO 1.1 as a reacTIVision-style client receives it: a real OSC server (liblo) on loopback.
#include "net/tuio_sender.h"

#include <lo/lo.h>

#include "osc_args.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"

namespace diskref::net {
namespace {

struct Received {
  std::vector<std::string> commands;     // in bundle order
  std::vector<std::vector<float>> sets;  // s i x y a X Y A m r (ints as floats)
  std::vector<std::vector<int>> alive;
  std::vector<int> fseq;
  std::string source;
};

int on_2dobj(const char*, const char* types, lo_arg** argv, int argc, lo_message, void* data) {
  auto* r = static_cast<Received*>(data);
  if (argc < 1 || types[0] != 's') return 0;
  const std::string command = testing::osc_string(argv[0]);
  r->commands.push_back(command);
  if (command == "source") r->source = testing::osc_string(argv[1]);
  if (command == "fseq") r->fseq.push_back(testing::osc_int(argv[1]));
  if (command == "alive") {
    std::vector<int> ids;
    for (int i = 1; i < argc; ++i) ids.push_back(testing::osc_int(argv[i]));
    r->alive.push_back(ids);
  }
  if (command == "set") {
    EXPECT_STREQ(types, "siiffffffff");
    std::vector<float> v;
    for (int i = 1; i < argc; ++i)
      v.push_back(types[i] == 'i' ? static_cast<float>(testing::osc_int(argv[i])) : testing::osc_float(argv[i]));
    r->sets.push_back(v);
  }
  return 0;
}

class OscReceiver {
 public:
  OscReceiver() {
    server_ = lo_server_new(nullptr, nullptr);
    lo_server_add_method(server_, "/tuio/2Dobj", nullptr, on_2dobj, &got);
  }
  ~OscReceiver() { lo_server_free(server_); }
  int port() const { return lo_server_get_port(server_); }
  // Takes whatever arrived within `ms`.
  void receive(int ms) {
    while (lo_server_recv_noblock(server_, ms) > 0) {
    }
  }
  Received got;

 private:
  lo_server server_;
};

model::DiskRegistry registry() {
  model::DiskSpec enterprise{"enterprise",
                             model::DiskKind::ship,
                             2.0,
                             geom::Circle{63.5},
                             {{10, model::Face::up, 24, 0}, {11, model::Face::down, 24, 0}},
                             std::nullopt,
                             std::nullopt};
  model::DiskSpec tderet{"tderet",
                         model::DiskKind::ship,
                         2.0,
                         geom::Circle{63.5},
                         {{20, model::Face::up, 24, 0}, {21, model::Face::down, 24, 0}},
                         std::nullopt,
                         std::nullopt};
  return model::DiskRegistry({enterprise, tderet});
}

model::DiskTrack disk(const std::string& name, double x, double y, double heading, model::Face face,
                      model::TrackState state = model::TrackState::visible) {
  model::DiskTrack d;
  d.name = name;
  d.x = x;
  d.y = y;
  d.heading = heading;
  d.face = face;
  d.state = state;
  return d;
}

TEST(TuioSender, AReceiverSeesEachDiskWithItsTagSessionPlaceAndAngle) {
  OscReceiver receiver;
  ProblemReports problems(nullptr);
  model::TableSpec table;  // 914.4 mm square
  TuioSender sender({"127.0.0.1", receiver.port()}, "t1", table, registry(), problems);
  model::TrackFrame f;
  f.disks = {disk("enterprise", 228.6, 685.8, 90, model::Face::up), disk("tderet", 914.4, 0, 30, model::Face::down)};
  sender.send(f);
  receiver.receive(500);
  const Received& r = receiver.got;
  EXPECT_EQ(r.commands, (std::vector<std::string>{"source", "alive", "set", "set", "fseq"}));
  EXPECT_EQ(r.source, "diskref@t1");
  ASSERT_EQ(r.sets.size(), 2u);
  // s i x y a: the up face's tag; x across, y from the top (the table's far edge is y = 0).
  EXPECT_EQ(r.sets[0][0], 1);
  EXPECT_EQ(r.sets[0][1], 10);
  EXPECT_NEAR(r.sets[0][2], 0.25, 1e-6);
  EXPECT_NEAR(r.sets[0][3], 0.25, 1e-6);
  // Heading 90 (towards the top of the y-down view) is 3/2 pi clockwise from +x in TUIO.
  EXPECT_NEAR(r.sets[0][4], 1.5 * std::numbers::pi, 1e-5);
  EXPECT_EQ(r.sets[1][0], 2);
  EXPECT_EQ(r.sets[1][1], 21);  // face down: the down face's tag is up
  EXPECT_NEAR(r.sets[1][2], 1.0, 1e-6);
  EXPECT_NEAR(r.sets[1][3], 1.0, 1e-6);
  EXPECT_NEAR(r.sets[1][4], 2 * std::numbers::pi - std::numbers::pi / 6, 1e-5);
  for (int i = 5; i < 10; ++i) EXPECT_EQ(r.sets[0][static_cast<std::size_t>(i)], 0.0f);
  ASSERT_EQ(r.alive.size(), 1u);
  EXPECT_EQ(r.alive[0], (std::vector<int>{1, 2}));
  EXPECT_EQ(r.fseq, std::vector<int>{1});
}

TEST(TuioSender, ALostDiskLeavesTheAliveListAndComesBackAsANewSession) {
  OscReceiver receiver;
  ProblemReports problems(nullptr);
  TuioSender sender({"127.0.0.1", receiver.port()}, "t1", model::TableSpec{}, registry(), problems);
  model::TrackFrame f;
  f.disks = {disk("enterprise", 100, 100, 0, model::Face::up), disk("tderet", 200, 200, 0, model::Face::up)};
  sender.send(f);
  f.disks[0].state = model::TrackState::lost;
  f.disks[0].x.reset();
  f.disks[0].y.reset();
  f.disks[0].heading.reset();
  f.disks[1].state = model::TrackState::stale;  // stale: still on the table, its last pose
  sender.send(f);
  f.disks[0] = disk("enterprise", 120, 100, 0, model::Face::up);
  sender.send(f);
  receiver.receive(500);
  const Received& r = receiver.got;
  ASSERT_EQ(r.alive.size(), 3u);
  EXPECT_EQ(r.alive[0], (std::vector<int>{1, 2}));
  EXPECT_EQ(r.alive[1], (std::vector<int>{2}));
  EXPECT_EQ(r.alive[2], (std::vector<int>{3, 2}));
  EXPECT_EQ(r.fseq, (std::vector<int>{1, 2, 3}));
}

TEST(TuioSender, NobodyListeningIsReportedOnceAndSendingGoesOn) {
  int port = 0;
  {
    OscReceiver gone;  // a port that was free a moment ago, now closed
    port = gone.port();
  }
  std::vector<std::string> said;
  ProblemReports problems([&](const std::string& s) { said.push_back(s); });
  TuioSender sender({"127.0.0.1", port}, "t1", model::TableSpec{}, registry(), problems);
  model::TrackFrame f;
  f.disks = {disk("enterprise", 100, 100, 0, model::Face::up)};
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sender.send(f).size(), 1u);
  EXPECT_LE(said.size(), 1u);  // UDP may not even notice; if it does, once
}

}  // namespace
}  // namespace diskref::net
