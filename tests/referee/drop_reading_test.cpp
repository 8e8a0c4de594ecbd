// Drops read from the damage counters on the table (referee/counter_reading.h): the counters that
// came to rest after the drop was asked for, read once they lie still; counters left from an
// earlier drop not counted again; a counter the camera cannot vouch for asked about alone; the
// referee's word over any read, logged; the evidence in the log entry. Against a FakeTable whose
// truth the test sets.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "referee/referee.h"
#include "tests/referee/fake_table.h"
#include "tests/referee/referee_game.h"

namespace diskref::referee {
namespace {

using testing::FakeTable;
using testing::Game;
using testing::input;
using testing::pose;
using Counter = FakeTable::Counter;

const char* kBeam =
    R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet"})";

// The enterprise at (200, 300) facing the tderet at (320, 300), in range of its beam (rating 4);
// the referee has entered the beam at 0.7 s and the drop is asked for.
struct BeamAttack {
  explicit BeamAttack(nlohmann::json setup = testing::duel()) : t(30, 0.5, 0.1) {
    setup["ships"][1]["pose"] = pose(320, 300, 180);
    t.place("enterprise", 200, 300, 0);
    t.place("tderet", 320, 300, 180);
    t.still(1.0);
    g.emplace(setup, "drops", testing::game_registry_with_counters());
    g->start(t, 0.5, {"attack", "raise_shields", "change_speed"});
    g->give(input(0.7, kBeam));
    t.still(0.5);
    g->play(t);
  }
  Expectation expecting() const { return g->ref->expecting(); }
  // Drops the counters and lets them lie still for `seconds`; returns when they came to rest.
  double drop(const std::vector<Counter>& counters, double seconds = 0.3) {
    t.drop(counters);
    const double rest = t.now();
    t.still(seconds);
    g->play(t);
    return rest;
  }
  const TableSettle* last_counter_settle() const {
    const TableSettle* found = nullptr;
    for (const TableSettle& s : g->ref->settles())
      if (s.kind == TableSettle::Kind::counters) found = &s;
    return found;
  }
  FakeTable t;
  std::optional<Game> g;
};

// A counter lying flat where the tracker sees it (a CounterReadingInput's frame).
model::DiskTrack flat_counter(const std::string& name, double x, double y, double heading) {
  model::DiskTrack d;
  d.name = name;
  d.kind = model::DiskKind::counter;
  d.x = x;
  d.y = y;
  d.heading = heading;
  return d;
}

// Four counters: counter-2 lands with its critical back up, the others "HIT!".
std::vector<Counter> four_clear_counters() {
  return {{"counter-1", 420, 520, 10, model::Face::up},
          {"counter-2", 480, 540, 80, model::Face::down},
          {"counter-3", 540, 500, 200, model::Face::up},
          {"counter-4", 430, 600, 300, model::Face::up}};
}

// The critical check: one counter of each type (counter-6 bridge ... counter-10 crit-5).
std::vector<Counter> five_typed_counters(model::Face bridge_face) {
  return {{"counter-6", 650, 650, 0, bridge_face},
          {"counter-7", 720, 650, 0, model::Face::up},
          {"counter-8", 790, 650, 0, model::Face::up},
          {"counter-9", 650, 720, 0, model::Face::up},
          {"counter-10", 720, 720, 0, model::Face::up}};
}

TEST(DropReading, TheDamageAndTheCriticalCheckAreReadFromTheCountersAsSoonAsTheyLieStill) {
  BeamAttack a;
  ASSERT_EQ(a.expecting().need, Expectation::Need::drops) << a.expecting().what;
  ASSERT_TRUE(a.expecting().drop);
  EXPECT_EQ(a.expecting().drop->purpose, "damage");
  EXPECT_EQ(a.expecting().drop->counters, 4);

  const double rest = a.drop(four_clear_counters());
  // Read at the counters' own settle: 0.2 s of stillness after they came to rest, before the
  // table's (0.5 s).
  const TableSettle* read_at = a.last_counter_settle();
  ASSERT_NE(read_at, nullptr);
  EXPECT_GE(read_at->t, rest + 0.2 - 1e-9);
  EXPECT_LT(read_at->t, rest + 0.2 + 1.0 / 30 + 1e-9);
  const auto read_index = static_cast<std::size_t>(read_at - a.g->ref->settles().data());
  ASSERT_EQ(a.expecting().need, Expectation::Need::drops) << "the critical check follows";
  ASSERT_TRUE(a.expecting().drop);
  EXPECT_EQ(a.expecting().drop->typed_counters.size(), 5u);

  // The four damage counters stay where they fell: they are not counted again.
  a.drop(five_typed_counters(model::Face::down));
  EXPECT_EQ(a.g->ship("tderet").shields, 7 - 3);
  EXPECT_EQ(a.g->ship("tderet").crits.count("bridge"), 1u) << "one critical after damage to the shields only";
  const Entry* attack = a.g->last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_FALSE(attack->play.refusal) << attack->play.refusal->reason;
  ASSERT_EQ(attack->drops_read.size(), 2u);
  const DropRead& damage = attack->drops_read[0];
  EXPECT_EQ(damage.reading, read_index) << "the settle it was read at: the recording's still";
  EXPECT_EQ(damage.drop.hits, 3);
  ASSERT_EQ(damage.counters.counters.size(), 4u);
  for (const CounterSeen& c : damage.counters.counters) {
    EXPECT_TRUE(c.readable) << c.name << ": " << c.why;
    ASSERT_TRUE(c.pose);
    ASSERT_TRUE(c.shows);
  }
  EXPECT_EQ(attack->drops_read[1].drop.crits, std::vector<std::string>{"bridge"});
  // The evidence is in the log as written.
  nlohmann::json logged = entry_to_json(*attack);
  ASSERT_TRUE(logged.contains("drops_read"));
  EXPECT_EQ(logged["drops_read"][0]["counters"][1]["name"], "counter-2");
  EXPECT_EQ(logged["drops_read"][0]["counters"][1]["shows"], "crit-2 critical");
  EXPECT_EQ(logged["drops_read"][0]["counters"][1]["face"], "down");
  EXPECT_EQ(logged["drops_read"][0]["drop"]["hits"], 3);
  EXPECT_NE(entry_text(*attack).find("damage drop read from the table: 3 HIT! of 4 counters"), std::string::npos)
      << entry_text(*attack);
}

TEST(DropReading, ACounterLeaningOnAShipIsAskedAboutAloneAndTheAnswerCompletesTheDrop) {
  BeamAttack a;
  std::vector<Counter> counters = four_clear_counters();
  counters[3] = {"counter-4", 320, 300 + 31.75 + 19.05 - 6, 0, model::Face::up};  // 6 mm over the tderet's round side
  a.drop(counters);
  ASSERT_EQ(a.expecting().need, Expectation::Need::drops);
  ASSERT_TRUE(a.expecting().drop);
  EXPECT_EQ(a.expecting().drop->purpose, "damage") << "nothing guessed: the damage drop still waits";
  const Expectation expected = a.expecting();
  ASSERT_TRUE(expected.counters);
  const CounterReading& r = *expected.counters;
  ASSERT_EQ(r.questions().size(), 1u);
  EXPECT_NE(r.question().find("counter-4: it overlaps tderet"), std::string::npos) << r.question();
  EXPECT_EQ(r.hits(), 2) << "the three it could read";
  // The referee's word on that counter alone.
  a.g->give(input(a.t.now(), R"({"do": "counter", "counter": "counter-4", "shows": "hit"})"));
  a.t.still(0.6);
  a.g->play(a.t);
  ASSERT_TRUE(a.expecting().drop);
  EXPECT_EQ(a.expecting().drop->purpose, "critical");
  a.g->give(input(a.t.now(), R"({"do": "drops", "drops": [{"purpose": "critical", "crits": []}]})"));
  a.t.still(0.2);
  a.g->play(a.t);
  EXPECT_EQ(a.g->ship("tderet").shields, 7 - 3);
  const Entry* attack = a.g->last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_EQ(attack->drops_read.size(), 1u);
  bool answered = false;
  for (const DropSlot& s : attack->drops_read[0].counters.slots)
    answered = answered || (s.counter == "counter-4" && s.answered);
  EXPECT_TRUE(answered) << "logged as the referee's answer";
}

TEST(DropReading, ACounterNotSeenIsAskedForAndTheRefereesDropOverrulesTheReading) {
  BeamAttack a;
  std::vector<Counter> counters = four_clear_counters();
  counters[2].visible = false;  // on its edge: its tag never seen
  a.drop(counters);
  ASSERT_TRUE(a.expecting().counters);
  EXPECT_EQ(a.expecting().drop->purpose, "damage");
  EXPECT_NE(a.expecting().counters->question().find("a counter is not seen"), std::string::npos)
      << a.expecting().counters->question();
  // The referee gives the whole drop instead.
  a.g->give(
      input(a.t.now(),
            R"({"do": "drops", "drops": [{"purpose": "damage", "hits": 1}, {"purpose": "critical", "crits": []}]})"));
  a.t.still(0.6);
  a.g->play(a.t);
  EXPECT_EQ(a.g->ship("tderet").shields, 7 - 1) << "the referee's word, not the three counters read";
  const Entry* attack = a.g->last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_EQ(attack->drops_read.size(), 1u);
  ASSERT_TRUE(attack->drops_read[0].overruled_by);
  EXPECT_NE(entry_text(*attack).find("overruled by the referee"), std::string::npos) << entry_text(*attack);
}

TEST(DropReading, ACorrectionGivesTheDropARulingReadAndTheGameReplaysWithIt) {
  BeamAttack a;
  a.drop(four_clear_counters());
  a.g->give(input(a.t.now(), R"({"do": "drops", "drops": [{"purpose": "critical", "crits": []}]})"));
  a.t.still(0.6);
  a.g->play(a.t);
  ASSERT_EQ(a.g->ship("tderet").shields, 4);
  std::size_t entry = 0;
  for (std::size_t i = 0; i < a.g->ref->log().size(); ++i)
    if (!a.g->ref->log()[i].drops_read.empty()) entry = i;
  ASSERT_GT(entry, 0u);
  a.g->give(input(a.t.now(), R"({"do": "correct", "entry": )" + std::to_string(entry) +
                                 R"(, "drops": [{"purpose": "damage", "hits": 1}]})"));
  a.t.still(0.1);  // a correction takes effect at its time: with the next frame
  a.g->play(a.t);
  EXPECT_EQ(a.g->ship("tderet").shields, 6) << "replayed with the referee's drop";
  const Entry* attack = a.g->last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_EQ(attack->drops_read.size(), 1u);
  EXPECT_FALSE(attack->drops_read[0].corrected.is_null()) << "the reading kept, with the correction over it";
  EXPECT_EQ(attack->drops_read[0].counters.hits(), 3) << "what the counters showed";
  // A correction naming an entry that read no drop changes nothing.
  a.g->give(input(a.t.now(), R"({"do": "correct", "entry": 0, "drops": [{"hits": 1}]})"));
  a.t.still(0.1);
  a.g->play(a.t);
  EXPECT_EQ(a.g->ship("tderet").shields, 6);
}

TEST(DropReading, ACriticalCheckCounterNotSeenIsAskedByItsTypeAndAnsweredByName) {
  BeamAttack a;
  a.drop(four_clear_counters());
  std::vector<Counter> typed = five_typed_counters(model::Face::up);
  typed[4].visible = false;  // the crit-5 counter lands where its tag is not seen
  a.drop(typed);
  const Expectation e = a.expecting();
  ASSERT_TRUE(e.counters);
  ASSERT_EQ(e.counters->slots.size(), 5u);
  const DropSlot& open = e.counters->slots[4];
  EXPECT_EQ(open.crit_type, "crit-5");
  EXPECT_FALSE(open.shows);
  EXPECT_NE(open.question.find("the crit-5 counter is not seen"), std::string::npos) << open.question;
  EXPECT_FALSE(open.ask_as.empty()) << "the screen names a counter of its type in its answer";
  a.g->give(input(a.t.now(), R"({"do": "counter", "counter": "counter-10", "shows": "critical"})"));
  a.t.still(0.6);
  a.g->play(a.t);
  EXPECT_EQ(a.g->ship("tderet").crits.count("crit-5"), 1u) << "the referee's word on the counter not seen";
  const Entry* attack = a.g->last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_EQ(attack->drops_read.size(), 2u);
  EXPECT_EQ(attack->drops_read[1].drop.crits, std::vector<std::string>{"crit-5"});
}

TEST(DropReading, OnlyCountersInTheDropZoneCountAndOneAcrossItsEdgeIsAsked) {
  nlohmann::json setup = testing::duel();
  setup["drops"] = {{"mode", "table"}, {"zone_mm", {380, 450, 700, 700}}};
  BeamAttack a(setup);
  std::vector<Counter> counters = four_clear_counters();
  counters.push_back({"counter-5", 100, 800, 0, model::Face::up});  // rolled away, outside the zone
  counters[0].x = 385;                                              // across the zone's edge
  a.drop(counters);
  const Expectation expected = a.expecting();
  ASSERT_TRUE(expected.counters);
  const CounterReading& r = *expected.counters;
  EXPECT_EQ(r.ignored, std::vector<std::string>{"counter-5"});
  ASSERT_EQ(r.questions().size(), 1u);
  EXPECT_NE(r.question().find("counter-1: it lies across the drop zone's edge"), std::string::npos) << r.question();
}

TEST(DropReading, MoreCountersThanAskedForAreNotGuessedAt) {
  BeamAttack a;
  std::vector<Counter> counters = four_clear_counters();
  counters.push_back({"counter-5", 600, 560, 0, model::Face::up});
  a.drop(counters);
  ASSERT_TRUE(a.expecting().counters);
  EXPECT_NE(a.expecting().counters->problem.find("5 counters moved since the drop was asked for"), std::string::npos)
      << a.expecting().counters->problem;
  EXPECT_EQ(a.expecting().drop->purpose, "damage");
}

TEST(DropReading, TwoCountersOfOneTypeInTheCriticalCheckAreNotGuessedAt) {
  BeamAttack a;
  a.drop(four_clear_counters());
  std::vector<Counter> typed = five_typed_counters(model::Face::up);
  typed[4] = {"counter-5", 790, 720, 0, model::Face::up};  // crit-5 again instead of counter-10
  typed.push_back({"counter-10", 600, 800, 0, model::Face::up});
  a.drop(typed);
  ASSERT_TRUE(a.expecting().counters);
  EXPECT_NE(a.expecting().counters->problem.find("2 counters of type crit-5 moved"), std::string::npos)
      << a.expecting().counters->problem;
}

TEST(DropReading, NothingIsReadWhileAHandIsHeldStillOverTheTable) {
  BeamAttack a;
  a.t.foreign({300, 350, 420, 560});  // a hand's size, lying still
  a.drop(four_clear_counters(), 1.0);
  EXPECT_EQ(a.last_counter_settle(), nullptr) << "no counter read under a hand held still";
  EXPECT_EQ(a.expecting().drop->purpose, "damage");
  a.t.clear_foreign();
  a.t.still(0.3);
  a.g->play(a.t);
  ASSERT_NE(a.last_counter_settle(), nullptr);
  EXPECT_EQ(a.expecting().drop->purpose, "critical") << "read once the hand is gone";
}

// What the tracker measured at full resolution says which counters it lies against (the rim of
// one under it, one on its edge touching it) and which of those a counter could lie under: only
// those are asked about; a part it did not measure so (a recording made before it did) asks about
// every counter within kUnreadNearMm.
TEST(DropReading, WhatTheTrackerSaysCouldLieUnderACounterIsAskedAboutWhatLiesAgainstOrBesideItIsNot) {
  BeamAttack a;
  auto part = [](double x0, double y0, double x1, double y1, std::vector<std::string> against,
                 std::vector<std::string> under) {
    model::ForeignBox b{x0, y0, x1, y1};
    b.outline = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    b.against = std::move(against);
    b.under = std::move(under);
    return b;
  };
  a.t.foreign(part(444, 515, 447, 525, {}, {}));                        // 11 mm beside counter-1's edge, on its edge
  a.t.foreign(part(457, 535, 460, 545, {"counter-2"}, {}));             // on its edge, touching counter-2
  a.t.foreign(part(520, 478, 530, 490, {"counter-3"}, {"counter-3"}));  // the rim of something under counter-3
  a.t.foreign({452, 596, 455, 604});  // beside counter-4, not measured at full resolution
  a.drop(four_clear_counters());
  const Expectation e = a.expecting();
  ASSERT_TRUE(e.counters);
  const CounterReading& r = *e.counters;
  auto seen = [&](const std::string& name) -> const CounterSeen& {
    for (const CounterSeen& c : r.counters)
      if (c.name == name) return c;
    throw std::logic_error(name + " not in the reading");
  };
  EXPECT_TRUE(seen("counter-1").readable) << seen("counter-1").why;
  EXPECT_TRUE(seen("counter-2").readable)
      << "against it, but no counter could lie under it so: " << seen("counter-2").why;
  EXPECT_FALSE(seen("counter-3").readable);
  EXPECT_NE(seen("counter-3").why.find("could be a counter under it"), std::string::npos) << seen("counter-3").why;
  EXPECT_FALSE(seen("counter-4").readable) << "within kUnreadNearMm of a part with no outline";
  EXPECT_NE(r.question().find("counter-3"), std::string::npos) << r.question();
  // What each was asked about, for the screen: the part's outline, or its box when it has none.
  EXPECT_EQ(seen("counter-3").why_outline_mm,
            (std::vector<geom::Vec2>{{520, 478}, {530, 478}, {530, 490}, {520, 490}}));
  EXPECT_EQ(seen("counter-4").why_outline_mm,
            (std::vector<geom::Vec2>{{452, 596}, {455, 596}, {455, 604}, {452, 604}}));
  EXPECT_TRUE(seen("counter-1").why_outline_mm.empty());
}

TEST(DropReading, ACounterSeenTiltedIsAskedByNameAndThePartItMakesIsNoCounterUnderItsNeighbour) {
  // counter-4 stands on its edge against counter-2: the tracker sees its tag tilted at rest, in the
  // part beside counter-2 that a counter under counter-2 could also make.
  auto part = [](std::vector<std::string> tilted) {
    model::ForeignBox b{457, 530, 470, 550};
    b.outline = {{457, 530}, {470, 530}, {470, 550}, {457, 550}};
    b.against = {"counter-2"};
    b.under = {"counter-2"};
    b.tilted = std::move(tilted);
    return b;
  };
  auto seen = [](const CounterReading& r, const std::string& name) -> const CounterSeen& {
    for (const CounterSeen& c : r.counters)
      if (c.name == name) return c;
    throw std::logic_error(name + " not in the reading");
  };
  std::vector<Counter> counters = four_clear_counters();
  counters[3] = {"counter-4", 463, 540, 0, model::Face::down, false, 88.0};
  {
    // Every counter of the drop seen, one tilted: the part is counter-4, counter-2 is read.
    BeamAttack a;
    a.t.foreign(part({"counter-4"}));
    a.drop(counters);
    const Expectation e = a.expecting();
    ASSERT_TRUE(e.counters);
    const CounterReading& r = *e.counters;
    EXPECT_TRUE(seen(r, "counter-2").readable) << seen(r, "counter-2").why;
    const CounterSeen& tilted = seen(r, "counter-4");
    EXPECT_FALSE(tilted.readable);
    ASSERT_TRUE(tilted.tilt_deg);
    EXPECT_EQ(*tilted.tilt_deg, 88.0);
    ASSERT_TRUE(tilted.pose);
    EXPECT_EQ(tilted.pose->position, (geom::Vec2{463, 540}));
    ASSERT_EQ(r.questions().size(), 1u) << "counter-4 alone is asked about";
    EXPECT_NE(r.question().find("counter-4: it lies tilted 88°"), std::string::npos) << r.question();
    EXPECT_EQ(counter_reading_to_json(r)["counters"][static_cast<std::size_t>(r.counters.size() - 1)]["tilt_deg"],
              88.0);
    // The part is said to be where counter-4 stands, not left as something unknown.
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("mm, where counter-4 is seen tilted"), std::string::npos) << r.notes[0];
  }
  {
    // The same part, but the tracker found no tilted tag in it: it could be a counter under counter-2.
    BeamAttack a;
    a.t.foreign(part({}));
    a.drop(counters);
    const Expectation e = a.expecting();
    ASSERT_TRUE(e.counters);
    EXPECT_FALSE(seen(*e.counters, "counter-2").readable);
    EXPECT_NE(seen(*e.counters, "counter-2").why.find("could be a counter under it"), std::string::npos);
    ASSERT_EQ(e.counters->notes.size(), 1u);
    EXPECT_EQ(e.counters->notes[0].find("seen tilted"), std::string::npos) << e.counters->notes[0];
  }
  {
    // A counter of the drop is not seen at all: it may lie under counter-2, beside the tilted one.
    BeamAttack a;
    a.t.foreign(part({"counter-4"}));
    std::vector<Counter> one_unseen = counters;
    one_unseen[2].visible = false;
    a.drop(one_unseen);
    const Expectation e = a.expecting();
    ASSERT_TRUE(e.counters);
    EXPECT_FALSE(seen(*e.counters, "counter-2").readable) << "counter-3 is missing";
    EXPECT_NE(seen(*e.counters, "counter-2").why.find("could be a counter under it"), std::string::npos);
  }
  {
    // Lying tilted since before the drop was asked for, it is not of the drop; since after, it is.
    const model::DiskRegistry registry = testing::game_registry_with_counters();
    CounterReadingInput in;
    in.registry = &registry;
    in.need = {"damage", "tderet", 1, {}, 0};
    in.baseline.t = 5.0;
    in.now.t = 9.0;
    in.now.disks.push_back(flat_counter("counter-1", 420, 520, 10));
    model::DiskTrack tilted;
    tilted.name = "counter-5";
    tilted.kind = model::DiskKind::counter;
    tilted.state = model::TrackState::lost;
    tilted.tilted = model::TiltedRest{700, 300, 19, 85, model::Face::up, 3.0};
    in.now.disks.push_back(tilted);
    CounterReading r = read_counters(in);
    EXPECT_TRUE(r.complete()) << r.question();
    ASSERT_EQ(r.counters.size(), 1u);
    EXPECT_EQ(r.counters[0].name, "counter-1");
    in.now.disks[1].tilted->since_t = 6.0;
    r = read_counters(in);
    EXPECT_FALSE(r.complete());
    EXPECT_NE(r.problem.find("2 counters moved"), std::string::npos) << r.problem;
  }
}

TEST(DropReading, ACounterLyingOnAnEarlierCounterIsAskedAbout) {
  BeamAttack a;
  a.drop(four_clear_counters());
  // The critical check's bridge counter lands on counter-1, covering its tag.
  std::vector<Counter> typed = five_typed_counters(model::Face::up);
  typed[0].x = 430;
  typed[0].y = 525;
  a.t.drop(typed);
  a.t.hide("counter-1");
  a.t.still(0.3);
  a.g->play(a.t);
  const Expectation e = a.expecting();
  ASSERT_TRUE(e.counters);
  EXPECT_NE(e.counters->question().find("counter-6: it overlaps counter-1"), std::string::npos)
      << e.counters->question();
  // ...with counter-1's outline, where it was last seen, for the screen to draw.
  for (const CounterSeen& c : e.counters->counters) {
    if (c.name != "counter-6") continue;
    ASSERT_GE(c.why_outline_mm.size(), 8u);
    for (const geom::Vec2& p : c.why_outline_mm) EXPECT_NEAR(geom::distance(p, {420, 520}), 38.1 / 2, 0.1);
  }
}

TEST(DropReading, CountersDroppedWhenNoDropIsAskedForAreShownButChangeNothing) {
  FakeTable t(30, 0.5, 0.1);
  t.place("enterprise", 200, 300, 0);
  t.place("tderet", 320, 300, 180);
  t.still(1.0);
  nlohmann::json setup = testing::duel();
  setup["ships"][1]["pose"] = pose(320, 300, 180);
  Game g(setup, "drops", testing::game_registry_with_counters());
  g.play(t);
  t.drop({{"counter-1", 500, 500, 0, model::Face::up}, {"counter-2", 560, 500, 0, model::Face::down}});
  t.still(0.3);
  g.play(t);
  ASSERT_TRUE(g.ref->counters_seen());
  EXPECT_FALSE(g.ref->counters_seen()->asked);
  EXPECT_EQ(g.ref->counters_seen()->reading.tally(), "1 HIT! of 2 counters");
  EXPECT_EQ(g.last_action("execute"), nullptr);
  EXPECT_TRUE(g.warnings("not_in_game").empty()) << "counters belong to every game";
  // The referee's word on a counter when no drop is read is a warning, and changes nothing.
  g.give(input(t.now(), R"({"do": "counter", "counter": "counter-1", "shows": "critical"})"));
  t.still(0.6);
  g.play(t);
  EXPECT_EQ(g.warnings("input").size(), 1u);
}

TEST(DropReading, TheRefereesWordOnACounterAndACorrectedDropAreInputs) {
  Input word = input(3.0, R"({"do": "counter", "counter": "counter-7", "shows": "critical"})");
  EXPECT_EQ(word.kind, Input::Kind::counter);
  EXPECT_EQ(word.counter.counter, "counter-7");
  EXPECT_EQ(word.counter.shows, model::CounterFace::Shows::critical);
  EXPECT_EQ(input_to_json(word),
            nlohmann::json::parse(R"({"t": 3.0, "do": "counter", "counter": "counter-7", "shows": "critical"})"));
  Input unseen = input(3.0, R"({"do": "counter", "shows": "hit"})");
  EXPECT_TRUE(unseen.counter.counter.empty());
  Input corrected = input(4.0, R"({"do": "correct", "entry": 12, "drops": [{"purpose": "damage", "hits": 1}]})");
  EXPECT_EQ(corrected.kind, Input::Kind::correct);
  ASSERT_EQ(corrected.correction.drops.size(), 1u);
  EXPECT_EQ(input_to_json(corrected)["drops"][0]["hits"], 1);
  auto error_of = [](const std::string& json) {
    try {
      input(1.0, json);
    } catch (const io::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error_of(R"({"do": "counter", "counter": "counter-7", "shows": "miss"})").find("\"miss\" is not one of"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"do": "counter", "counter": "counter-7"})").find("shows"), std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"do": "correct", "entry": 3, "drops": [{"hits": 1}], "decide": {"kind": "range", "with": "x", "call": "yes"}})")
          .find("either decides its verdict again"),
      std::string::npos);
}

std::string game_file_error(const nlohmann::json& setup, const model::DiskRegistry& registry) {
  try {
    model::TableSpec table = model::default_table();
    load_game_file(testing::write_game(setup, "bad-drops"), table, registry);
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DropReading, ACounterOfATypeTheGameLacksAndABadDropZoneAreRefusedWithTheirPlace) {
  std::vector<model::DiskSpec> disks = testing::game_registry_with_counters().disks();
  for (model::DiskSpec& d : disks)
    if (d.name == "counter-3") d.faces->down.crit = "helm";
  model::DiskRegistry registry(disks);
  registry.set_source("disks.json");
  const std::size_t index = *registry.index_of("counter-3");
  EXPECT_NE(game_file_error(testing::duel(), registry)
                .find("disks.json: disks[" + std::to_string(index) +
                      "].tags[1].crit: counter \"counter-3\": \"helm\" is no critical type of the game's data (its "
                      "types: bridge, "
                      "crit-2, crit-3, crit-4, crit-5)"),
            std::string::npos)
      << game_file_error(testing::duel(), registry);
  nlohmann::json setup = testing::duel();
  setup["drops"] = {{"mode", "table"}, {"zone_mm", {500, 500, 1000, 700}}};
  EXPECT_NE(game_file_error(setup, testing::game_registry_with_counters())
                .find("drops.zone_mm: must lie inside the play area"),
            std::string::npos)
      << game_file_error(setup, testing::game_registry_with_counters());
  setup["drops"] = {{"mode", "table"}, {"zone_mm", {500, 500, 400, 700}}};
  EXPECT_NE(game_file_error(setup, testing::game_registry_with_counters()).find("x0 < x1"), std::string::npos);
  setup["drops"] = {{"mode", "virtual"}, {"seed", 1}, {"zone_mm", {0, 0, 100, 100}}};
  EXPECT_NE(game_file_error(setup, testing::game_registry_with_counters())
                .find("a drop zone is for drops read from the table"),
            std::string::npos);
}

}  // namespace
}  // namespace diskref::referee
