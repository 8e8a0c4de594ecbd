// Moves as the table showed them (spec §9, diskref referee): a run's landings and the referee's
// rulings replace the legal path, and "the books keep the pose on the table". Also the referee's
// range calls and a disk found out of place.

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/action_json.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// Diana's enterprise (La Forge aboard: she acts first) at (100, 100) heading east at `speed`, the
// tderet far away unless given.
Game ready(int speed, nlohmann::json tderet = pose(800, 800, 180),
           const std::vector<std::string>& diana_orders = {"raise_shields", "change_speed", "change_heading"}) {
  Game g(duel_setup(100, 100, 0, 0, 0, 0, speed, la_forge_aboard(), {{"pose", tderet}, {"speed", 0}}));
  g.start_duel(diana_orders, {"raise_shields", "change_speed", "change_heading"});
  return g;
}

std::string move_with(const nlohmann::json& run) {
  nlohmann::json a = {{"do", "move"}, {"player", "diana"}, {"ship", "enterprise"}, {"run", run}};
  return a.dump();
}

nlohmann::json landings(std::initializer_list<std::array<double, 3>> poses) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : poses) out.push_back(pose(p[0], p[1], p[2]));
  return out;
}

// Adds a torpedo of tderet's in flight at (x, y).
void torpedo_at(Game& g, const std::string& id, double x, double y) {
  g.mutable_state().torpedoes.push_back(
      {id, "tderet", geom::Pose::from_degrees(x, y, 180), geom::Circle{25.4}, 3, 3, 3});
}

TEST(TableRun, TheBooksKeepTheLandingsTheTableShowed) {
  Game g = ready(2);
  // Drifted 1.5 mm to the left over two flips, turned 1 degree: the books keep it.
  auto events = g.play(move_with({{"landings", landings({{157.0, 100.8, 0.5}, {213.9, 101.5, 1.0}})}}));
  const ShipState& e = g.ship("enterprise");
  EXPECT_NEAR(e.pose.position.x, 213.9, 1e-9);
  EXPECT_NEAR(e.pose.position.y, 101.5, 1e-9);
  EXPECT_NEAR(e.pose.heading_deg(), 1.0, 1e-9);
  EXPECT_TRUE(e.moved);
  EXPECT_FALSE(has_event<event::FlipCount>(events)) << "two landings at speed 2";
  ASSERT_TRUE(has_event<event::Move>(events));
  EXPECT_TRUE(of_type<event::Move>(events)[0].from_table);
}

TEST(TableRun, FlipsOtherThanTheSpeedAreSaidAndKept) {
  Game g = ready(3);
  auto events = g.play(move_with({{"landings", landings({{157.2, 100, 0}, {214.4, 100, 0}})}}));
  ASSERT_TRUE(has_event<event::FlipCount>(events));
  EXPECT_EQ(of_type<event::FlipCount>(events)[0].flips, 2u);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 214.4, 1e-9);
}

TEST(TableRun, ATorpedoAtALandingOfTheTableIsMetEvenWhereTheLegalPathMissesIt) {
  // The legal path runs along y = 100; the torpedo lies at y = 150, clear of it (the ship reaches
  // y = 131.75, the torpedo's edge is at 137.3), but the ship drifted north and its second landing
  // (reaching 141.75) touches it.
  Game legal = ready(2);
  torpedo_at(legal, "photon", 214.4, 150);
  auto straight = legal.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_FALSE(has_event<event::TorpedoContact>(straight));

  Game g = ready(2);
  torpedo_at(g, "photon", 214.4, 150);
  std::string move = move_with({{"landings", landings({{157.2, 104, 0}, {214.4, 110, 0}})}});
  g.refused(move, RefusalKind::missing_drop);  // the torpedo's damage drop is needed
  nlohmann::json with_drops = nlohmann::json::parse(move);
  with_drops["drops"] = {{{"purpose", "damage"}, {"hits", 1}},
                         {{"purpose", "critical"}, {"crits", nlohmann::json::array()}}};
  auto events = g.play(with_drops.dump());
  ASSERT_TRUE(has_event<event::TorpedoContact>(events));
  EXPECT_TRUE(g.state().torpedoes.empty()) << "it struck and was removed";
}

TEST(TableRun, TheRefereesRulingsStandOverTheExactGeometry) {
  // The same drift, but the referee ruled "no contact" (too close to call, decided): no strike.
  Game g = ready(2);
  torpedo_at(g, "photon", 214.4, 150);
  auto events = g.play(move_with({{"landings", landings({{157.2, 104, 0}, {214.4, 110, 0}})},
                                  {"rulings", {{"contacts", nlohmann::json::array()}}}}));
  EXPECT_FALSE(has_event<event::TorpedoContact>(events));
  EXPECT_EQ(g.state().torpedoes.size(), 1u);
  // A contact ruled with a torpedo that is not in flight is refused, the state untouched.
  Game h = ready(2);
  h.refused(move_with({{"landings", landings({{157.2, 100, 0}, {214.4, 100, 0}})},
                       {"rulings", {{"contacts", {{{"flip", 2}, {"disk", "nothing"}}}}}}}),
            RefusalKind::unknown_name);
}

TEST(TableRun, LeavingThePlayAreaAtALandingDestroysTheShip) {
  Game g = ready(2);
  auto events = g.play(move_with({{"landings", landings({{157.2, 100, 0}, {214.4, -20, 0}})}}));
  EXPECT_TRUE(g.ship("enterprise").destroyed);
}

TEST(TableRun, EndingOnAShipAsTheTableShowsIsACollisionCheck) {
  // The tderet sits 60 mm north of the legal end: the legal path ends clear, the table's run ends
  // on it.
  Game g = ready(2, pose(214.4, 170, 180));
  std::string move = move_with({{"landings", landings({{157.2, 110, 10}, {212.0, 120, 10}})}});
  std::string reason = g.refused(move, RefusalKind::missing_drop);
  EXPECT_NE(reason.find("collision"), std::string::npos) << reason;
}

TEST(TableRun, AMoveWithARunRoundTripsThroughJson) {
  nlohmann::json move = nlohmann::json::parse(move_with(
      {{"landings", landings({{157.2, 100, 0}, {214.4, 100, 0}})},
       {"rulings",
        {{"contacts", {{{"flip", 1}, {"disk", "photon"}}}}, {"end_overlaps", {"tderet"}}, {"left_play_area_at", 2}}}}));
  Action a = parse_action(io::JsonCursor(move, "test"));
  const Move& m = std::get<Move>(a.body);
  ASSERT_TRUE(m.run && m.run->rulings);
  EXPECT_EQ(m.run->landings.size(), 2u);
  EXPECT_EQ(m.run->rulings->contacts.at(0).disk, "photon");
  EXPECT_EQ(m.run->rulings->left_play_area_at, 2);
  nlohmann::json back = action_to_json(a);
  EXPECT_EQ(back.at("run"), move.at("run"));
}

TEST(TableRun, ALaunchedTorpedoTakesItsDisksNameAndRunsAsTheTableShowed) {
  Game g = ready(0, pose(800, 800, 180), {"attack", "raise_shields", "change_speed"});
  nlohmann::json launch = {{"do", "execute"},
                           {"player", "diana"},
                           {"ship", "enterprise"},
                           {"order", "attack"},
                           {"attack", "torpedo"},
                           {"torpedo", "photon-2"},
                           {"placed", pose(141.5, 101, 0)},
                           {"run", {{"landings", landings({{167, 101.5, 0}, {192.5, 102, 0}, {218, 103, 2}})}}}};
  // A disk already in play cannot be the torpedo.
  nlohmann::json taken = launch;
  taken["torpedo"] = "tderet";
  g.refused(taken.dump(), RefusalKind::bad_choice);
  g.play(launch.dump());
  ASSERT_EQ(g.state().torpedoes.size(), 1u);
  const Torpedo& t = g.state().torpedoes[0];
  EXPECT_EQ(t.id, "photon-2");
  EXPECT_EQ(t.launcher, "enterprise");
  EXPECT_NEAR(t.pose.position.x, 218, 1e-9);
  EXPECT_NEAR(t.pose.position.y, 103, 1e-9);
  EXPECT_NEAR(t.pose.heading_deg(), 2, 1e-9);
}

TEST(TableRun, TorpedoesRunAsTheTableShowedAtTheEndOfThePhase) {
  Game g = ready(0, pose(800, 800, 180));
  torpedo_at(g, "photon", 500, 500);
  for (const char* who : {R"("diana", "ship": "enterprise")", R"("owen", "ship": "tderet")"}) {
    g.play(std::string(R"({"do": "decline", "player": )") + who + "}");
    g.play(std::string(R"({"do": "move", "player": )") + who + "}");
  }
  nlohmann::json runs = {
      {"do", "move_torpedoes"},
      {"runs", {{"photon", {{"landings", landings({{475, 501, 180}, {450, 502, 180}, {424, 503, 181}})}}}}}};
  g.refused(R"({"do": "move_torpedoes", "runs": {"nothing": {"landings": []}}})", RefusalKind::unknown_name);
  g.play(runs.dump());
  ASSERT_EQ(g.state().torpedoes.size(), 1u);
  EXPECT_NEAR(g.state().torpedoes[0].pose.position.x, 424, 1e-9);
  EXPECT_EQ(g.state().torpedoes[0].moves_left, 2);
}

TEST(TableRun, RangeTheRefereeCalledStandsOverTheBooks) {
  // A 120 mm gap: beyond the 88.9 x 25.4 mm template's reach (92.5 mm) by exact geometry.
  Game g = ready(0, pose(100 + 57.2 / 2 + 120 + 63.5 / 2, 100, 180), {"attack", "raise_shields", "change_speed"});
  std::string fire = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
                         "target": "tderet")";
  std::string reason = g.refused(fire + "}", RefusalKind::out_of_range);
  EXPECT_EQ(reason.find("referee"), std::string::npos) << "the books' own geometry";
  reason = g.refused(fire + R"(, "in_range": false})", RefusalKind::out_of_range);
  EXPECT_NE(reason.find("referee"), std::string::npos) << reason;
  auto events = g.play(fire + R"(, "in_range": true, "drops": [{"hits": 1}, {"crits": []}]})");
  ASSERT_TRUE(has_event<event::InRange>(events));
  EXPECT_TRUE(of_type<event::InRange>(events)[0].ruled);
  EXPECT_TRUE(has_event<event::BeamFired>(events));
}

TEST(Displaced, TheBooksTakeWhereTheDiskLiesAndSaySo) {
  Game g = ready(2);
  auto events = g.play(R"({"do": "displaced", "disk": "tderet", "pose": {"x": 803, "y": 796, "heading": 182}})");
  ASSERT_TRUE(has_event<event::Displaced>(events));
  EXPECT_NEAR(of_type<event::Displaced>(events)[0].moved_mm, 5.0, 1e-9);
  EXPECT_NEAR(g.ship("tderet").pose.position.x, 803, 1e-9);
  EXPECT_NEAR(g.ship("tderet").pose.heading_deg(), 182, 1e-9);
  g.refused(R"({"do": "displaced", "disk": "nothing", "pose": {"x": 1, "y": 1, "heading": 0}})",
            RefusalKind::unknown_name);
}

}  // namespace
}  // namespace diskref::rules::testing
