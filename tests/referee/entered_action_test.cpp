// An action the referee enters is taken whole (spec §9, INPUTS.jsonl): the drops it carries are
// used for it, a `drops` line later gives what is still missing, and both ways of giving them end
// in the same books (a beam attack, an initiative tie, an attack before a collision check; the
// torpedo on the samples, inputs_round_trip_test.cpp). Drops on a line that do not fit the action
// refuse the line, naming it and the member; drops an action cannot use as the table showed it are
// a warning on that input. When the game starts waiting for the referee, a `waiting` entry says so;
// inputs refused meanwhile name it; the ship whose turn it is, moved meanwhile, is read as moving.
#include "referee/referee.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/rules/action_json.h"
#include "engine/rules/state_json.h"
#include "tests/referee/fake_table.h"
#include "tests/referee/referee_game.h"

namespace diskref::referee {
namespace {

using testing::duel;
using testing::FakeTable;
using testing::Game;
using testing::pose;

// An input as read from line `line` of an inputs file, so messages can name it.
Input line_input(double t, int line, const std::string& json) {
  nlohmann::json j = nlohmann::json::parse(json);
  j["t"] = t;
  return parse_input(io::JsonCursor(j, "inputs.jsonl: line " + std::to_string(line), ""));
}

const std::string kBeamOpen =
    R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet")";
const std::string kDamage3 = R"([{"purpose": "damage", "hits": 3}, {"purpose": "critical", "crits": []}])";

// The enterprise at (200, 300) heading east and the tderet at (x, y) (by default 120 mm east of
// it, well in range); the enterprise's first order is its attack.
struct InRange {
  explicit InRange(double tderet_x = 320, double tderet_y = 300) : g(setup(tderet_x, tderet_y)) {
    t.place("enterprise", 200, 300, 0);
    t.place("tderet", tderet_x, tderet_y, 180);
    t.still(1.0);
    g.start(t, 0.5, {"attack", "raise_shields", "change_speed"});
  }
  static nlohmann::json setup(double tderet_x, double tderet_y) {
    nlohmann::json s = duel();
    s["ships"][1]["pose"] = pose(tderet_x, tderet_y, 180);
    return s;
  }
  FakeTable t{30, 0.5, 0.1};
  Game g;
};

std::vector<const Entry*> waits(const Game& g) {
  std::vector<const Entry*> out;
  for (const Entry& e : g.ref->log())
    if (e.kind == Entry::Kind::waiting) out.push_back(&e);
  return out;
}

TEST(EnteredAction, ABeamAttackCarryingItsDropsUsesThemAndEndsAsWithADropsLine) {
  InRange carried;  // the drops on the attack's line (inputs 0-4 are start's; the attack is input 5)
  carried.g.give(line_input(0.7, 6, kBeamOpen + R"(, "drops": )" + kDamage3 + "}"));
  carried.t.still(1.0);
  carried.g.play(carried.t);
  EXPECT_EQ(carried.g.ref->refused(), 0);
  EXPECT_EQ(carried.g.ship("tderet").shields, 4) << "its three hits";
  EXPECT_EQ(carried.g.ref->expecting().need, Expectation::Need::nothing) << carried.g.ref->expecting().what;
  EXPECT_TRUE(waits(carried.g).empty()) << "nothing was waited for";
  const Entry* attack = carried.g.last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_FALSE(attack->play.refusal) << attack->play.refusal->reason;
  EXPECT_EQ(attack->play.action.drops.size(), 2u);
  EXPECT_EQ(attack->inputs, std::vector<std::size_t>{5});

  InRange separate;  // the play format's other way: a `drops` line after it
  separate.g.give(line_input(0.7, 6, kBeamOpen + "}"));
  separate.g.give(line_input(0.8, 7, R"({"do": "drops", "drops": )" + kDamage3 + "}"));
  separate.t.still(1.0);
  separate.g.play(separate.t);
  EXPECT_EQ(separate.g.ref->refused(), 0);
  EXPECT_EQ(rules::state_to_json(separate.g.ref->state()), rules::state_to_json(carried.g.ref->state()));
  ASSERT_EQ(waits(separate.g).size(), 1u) << "the wait for the drops is said";
  const Entry& wait = *waits(separate.g)[0];
  EXPECT_EQ(wait.waiting.need, "drops");
  EXPECT_EQ(wait.waiting.disk, "enterprise");
  ASSERT_TRUE(wait.waiting.drop);
  EXPECT_EQ(wait.waiting.drop->purpose, "damage");
  EXPECT_EQ(wait.waiting.drop->index, 0u);
  EXPECT_NEAR(wait.t, 0.7, 1e-9) << "said when the wait began";
  EXPECT_EQ(wait.inputs, std::vector<std::size_t>{5});
  EXPECT_EQ(entry_to_json(wait).at("waiting").at("for"), "drops");
  EXPECT_EQ(entry_tone(wait), std::string("waiting"));
  EXPECT_EQ(entry_text(wait).rfind("WAITING for the referee: drops: ", 0), 0u) << entry_text(wait);

  InRange partly;  // the damage on the line, the critical check on a later line
  partly.g.give(line_input(0.7, 6, kBeamOpen + R"(, "drops": [{"purpose": "damage", "hits": 3}]})"));
  partly.g.give(line_input(0.8, 7, R"({"do": "drops", "drops": [{"purpose": "critical", "crits": []}]})"));
  partly.t.still(1.0);
  partly.g.play(partly.t);
  EXPECT_EQ(partly.g.ref->refused(), 0);
  EXPECT_EQ(rules::state_to_json(partly.g.ref->state()), rules::state_to_json(carried.g.ref->state()));
  ASSERT_EQ(waits(partly.g).size(), 1u);
  EXPECT_EQ(waits(partly.g)[0]->waiting.drop->purpose, "critical") << "only what the line did not carry";
  EXPECT_EQ(waits(partly.g)[0]->waiting.drop->index, 1u);
}

TEST(EnteredAction, DropsOnTheLineThatDoNotFitRefuseTheLineNamingItAndTheMember) {
  struct Case {
    std::string drops;
    rules::RefusalKind kind;
    std::string says;
  };
  for (const Case& c :
       {Case{R"([{"purpose": "collision", "hits": 3}, {"purpose": "critical", "crits": []}])",
             rules::RefusalKind::bad_drop, "inputs.jsonl: line 6: member \"drops\": drop 0 (damage drop for tderet"},
        Case{R"([{"purpose": "damage", "hits": 3}, {"purpose": "critical", "crits": []}, {"hits": 1}])",
             rules::RefusalKind::unused_drops, "inputs.jsonl: line 6: member \"drops\": 3 drops given, 2 needed"}}) {
    InRange a;
    a.g.give(line_input(0.7, 6, kBeamOpen + R"(, "drops": )" + c.drops + "}"));
    a.t.still(1.0);
    a.g.play(a.t);
    EXPECT_EQ(a.g.ref->refused(), 1) << c.drops;
    const Entry* attack = a.g.last_action("execute");
    ASSERT_NE(attack, nullptr);
    ASSERT_TRUE(attack->play.refusal) << c.drops;
    EXPECT_EQ(attack->play.refusal->kind, c.kind) << attack->play.refusal->reason;
    EXPECT_EQ(attack->play.refusal->reason.rfind(c.says, 0), 0u) << attack->play.refusal->reason;
    EXPECT_EQ(a.g.ship("tderet").shields, 7) << "a refused line changes nothing";
    EXPECT_EQ(a.g.ref->expecting().need, Expectation::Need::nothing) << "nothing stalls: " << a.g.ref->expecting().what;
    // The attack given again, rightly, is taken.
    a.g.give(line_input(a.t.now(), 7, kBeamOpen + R"(, "drops": )" + kDamage3 + "}"));
    a.t.still(0.5);
    a.g.play(a.t);
    EXPECT_EQ(a.g.ship("tderet").shields, 4) << c.drops;
  }
  // One too many given by a later `drops` line: that line is named.
  InRange later;
  later.g.give(line_input(0.7, 6, kBeamOpen + R"(, "drops": [{"purpose": "damage", "hits": 3}]})"));
  later.g.give(line_input(0.8, 7, R"({"do": "drops", "drops": [{"purpose": "critical", "crits": []}, {"hits": 2}]})"));
  later.t.still(1.0);
  later.g.play(later.t);
  const Entry* attack = later.g.last_action("execute");
  ASSERT_TRUE(attack && attack->play.refusal);
  EXPECT_EQ(attack->play.refusal->reason.rfind("inputs.jsonl: line 7: member \"drops\": 3 drops given, 2 needed", 0),
            0u)
      << attack->play.refusal->reason;
}

TEST(EnteredAction, DropsForAnAttackTheTableShowsOutOfRangeAreAWarningOnThatInput) {
  InRange far(600);  // 400 mm away: out of range as the table shows it
  far.g.give(line_input(0.7, 6, kBeamOpen + R"(, "drops": )" + kDamage3 + "}"));
  far.t.still(1.0);
  far.g.play(far.t);
  const Entry* attack = far.g.last_action("execute");
  ASSERT_TRUE(attack && attack->play.refusal);
  EXPECT_EQ(attack->play.refusal->kind, rules::RefusalKind::out_of_range) << attack->play.refusal->reason;
  auto w = far.g.warnings("input");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]->inputs, std::vector<std::size_t>{5}) << "on that input";
  EXPECT_EQ(w[0]->warning.text.rfind("inputs.jsonl: line 6: member \"drops\": not used: the action is refused", 0), 0u)
      << w[0]->warning.text;
  EXPECT_EQ(entry_to_json(*w[0]).at("inputs"), nlohmann::json::array({5}));
  EXPECT_EQ(far.g.ref->expecting().need, Expectation::Need::nothing) << far.g.ref->expecting().what;
}

// A torpedo launched on the table into the tderet: its damage drops on the attack's line (taken once
// the run has struck) or on a line after the run; the books end the same.
TEST(EnteredAction, ATorpedoCarryingItsDropsUsesThemOnceItsRunHasStruck) {
  const std::string launch =
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "torpedo")";
  const std::string drops = R"([{"purpose": "damage", "hits": 2}, {"purpose": "critical", "crits": []}])";
  auto play = [&](const std::string& line, bool drops_line, bool misses = false) {
    auto a = misses ? std::make_unique<InRange>(320, 420) : std::make_unique<InRange>();
    a->g.give(line_input(0.7, 6, line));
    a->t.still(0.5);
    // Put in the bay (touching the middle of the enterprise's front), then two flips into the tderet
    // (or, when it lies out of the way, its four flips past it).
    a->t.put("photon-1", 200 + 28.6 + 12.7, 300, 0);
    a->t.still(0.6);
    if (misses)
      a->t.flips("photon-1", {{266.7, 300, 0}, {292.1, 300, 0}, {317.5, 300, 0}, {342.9, 300, 0}});
    else
      a->t.flips("photon-1", {{266.7, 300, 0}, {292.1, 300, 0}});
    a->t.still(1.0);
    if (drops_line) a->g.give(line_input(a->t.now(), 7, R"({"do": "drops", "drops": )" + drops + "}"));
    a->t.still(0.5);
    a->g.play(a->t);
    EXPECT_EQ(a->g.ref->expecting().need, Expectation::Need::nothing) << a->g.ref->expecting().what;
    const Entry* attack = a->g.last_action("execute");
    EXPECT_TRUE(attack && !attack->play.refusal && attack->observed)
        << (attack && attack->play.refusal ? attack->play.refusal->reason : "");
    return a;
  };
  auto carried = play(launch + R"(, "drops": )" + drops + "}", false);
  auto separate = play(launch + "}", true);
  EXPECT_EQ(carried->g.ship("tderet").shields, 5) << "its two hits";
  EXPECT_TRUE(waits(carried->g).empty());
  ASSERT_EQ(waits(separate->g).size(), 1u);
  EXPECT_EQ(waits(separate->g)[0]->waiting.drop->purpose, "damage");
  EXPECT_EQ(rules::state_to_json(carried->g.ref->state()), rules::state_to_json(separate->g.ref->state()));
  EXPECT_TRUE(carried->g.warnings("input").empty());

  // A run that strikes nothing uses none of the line's drops: said on that input, the launch stands.
  auto missed = play(launch + R"(, "drops": )" + drops + "}", false, true);
  EXPECT_EQ(missed->g.ship("tderet").shields, 7);
  EXPECT_EQ(missed->g.ref->refused(), 0);
  auto unused = missed->g.warnings("input");
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_EQ(unused[0]->warning.text,
            "inputs.jsonl: line 6: member \"drops\": not used: the action, as the table shows it, needs no drop");
  EXPECT_EQ(unused[0]->inputs, std::vector<std::size_t>{5});

  // The torpedo named on the line is checked against the disk put in the bay: the table's is taken.
  auto named = play(launch + R"(, "torpedo": "photon-2", "drops": )" + drops + "}", false);
  EXPECT_EQ(rules::state_to_json(named->g.ref->state()), rules::state_to_json(carried->g.ref->state()));
  auto w = named->g.warnings("input");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]->warning.text,
            "inputs.jsonl: line 6: member \"torpedo\": photon-2 was named, photon-1 was put in the "
            "bay: the table's is taken");
  // Where it was put, its shape, its headings: the table's; on a line without its run, bad input.
  for (const char* member : {R"("placed": {"x": 241, "y": 300, "heading": 0})", R"("headings_after_flips": [10])"}) {
    try {
      line_input(0.7, 6, launch + ", " + member + "}");
      FAIL() << member << " accepted";
    } catch (const io::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("inputs.jsonl: line 6: ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find("is read from the table"), std::string::npos) << e.what();
    }
  }
}

// Two ships alike: their initiative is decided by drops, on the `initiative` line or after it.
TEST(EnteredAction, AnInitiativeTieTakesItsDropsFromItsLineOrFromALaterOne) {
  const nlohmann::json setup = testing::twins();
  const std::string drops = R"([{"purpose": "initiative", "hits": 0}, {"purpose": "initiative", "hits": 2}])";
  auto play = [&](bool on_the_line) {
    FakeTable t;
    t.place("enterprise", 200, 300, 0);
    t.place("reliant", 700, 600, 180);
    t.still(1.0);
    auto g = std::make_unique<Game>(setup, "tie");
    int line = 1;
    for (
        const char* l :
        {R"({"do": "reveal", "player": "diana"})", R"({"do": "reveal", "player": "owen"})",
         R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["change_speed", "raise_shields", "attack"]})",
         R"({"do": "orders", "player": "owen", "ship": "reliant", "orders": ["change_speed", "raise_shields", "attack"]})"})
      g->give(line_input(0.5, line++, l));
    if (on_the_line) {
      g->give(line_input(0.5, line++, R"({"do": "initiative", "drops": )" + drops + "}"));
    } else {
      g->give(line_input(0.5, line++, R"({"do": "initiative"})"));
      g->give(line_input(0.6, line++, R"({"do": "drops", "drops": )" + drops + "}"));
    }
    t.still(1.0);
    g->play(t);
    return g;
  };
  auto carried = play(true);
  auto separate = play(false);
  for (const Game* g : {carried.get(), separate.get()}) {
    EXPECT_EQ(g->ref->refused(), 0);
    EXPECT_EQ(g->ref->expecting().need, Expectation::Need::nothing) << g->ref->expecting().what;
    const Entry* initiative = g->last_action("initiative");
    ASSERT_NE(initiative, nullptr);
    ASSERT_FALSE(initiative->play.refusal) << initiative->play.refusal->reason;
    EXPECT_EQ(initiative->play.action.drops.size(), 2u);
  }
  EXPECT_EQ(rules::state_to_json(carried->ref->state()), rules::state_to_json(separate->ref->state()));
  EXPECT_TRUE(waits(*carried).empty());
  ASSERT_EQ(waits(*separate).size(), 1u);
  EXPECT_EQ(waits(*separate)[0]->waiting.drop->purpose, "initiative");
}

// The enterprise fires at the tderet beside it, then moves into the reliant: the collision check of
// its move (read from the table, so never on a line) waits for its own drops, whichever way the
// attack's were given; the books end the same.
TEST(EnteredAction, ACollisionCheckAfterAnAttackWaitsForItsOwnDropsInBothStyles) {
  nlohmann::json reliant = {{"id", "reliant"}, {"card", "escort"}, {"player", "owen"}, {"pose", pose(360, 300, 180)}};
  auto play = [&](bool on_the_line) {
    nlohmann::json setup = duel(2, nlohmann::json::array({reliant}));
    setup["ships"][1]["pose"] = pose(200, 400, 180);
    FakeTable t;
    t.place("enterprise", 200, 300, 0);
    t.place("tderet", 200, 400, 180);
    t.place("reliant", 360, 300, 180);
    t.still(1.0);
    auto g = std::make_unique<Game>(setup);
    g->start(
        t, 0.5, {"attack", "raise_shields", "change_speed"}, {"change_speed", "raise_shields", "attack"},
        {R"({"do": "orders", "player": "owen", "ship": "reliant", "orders": ["change_speed", "raise_shields", "attack"]})"});
    if (on_the_line) {
      g->give(line_input(0.7, 8, kBeamOpen + R"(, "drops": )" + kDamage3 + "}"));
    } else {
      g->give(line_input(0.7, 8, kBeamOpen + "}"));
      g->give(line_input(0.8, 9, R"({"do": "drops", "drops": )" + kDamage3 + "}"));
    }
    t.still(1.0);
    t.flips("enterprise", {{257.2, 300, 0}, {314.4, 300, 0}});  // ends 11.8 mm deep in the reliant
    t.still(1.0);
    g->play(t);
    EXPECT_EQ(g->ref->expecting().need, Expectation::Need::drops) << g->ref->expecting().what;
    EXPECT_EQ(g->ref->expecting().drop->purpose, "collision");
    EXPECT_EQ(g->ref->expecting().drop->index, 0u) << "the move's own drops: none taken from the attack";
    g->give(line_input(
        t.now(), 20,
        R"({"do": "drops", "drops": [{"purpose": "collision", "crits": ["bridge"]}, {"purpose": "critical", "crits": []}]})"));
    t.still(0.5);
    g->play(t);
    EXPECT_EQ(g->ref->expecting().need, Expectation::Need::placement) << g->ref->expecting().what;
    // Owen's, the hit player's, word only: Diana cannot leave it in place.
    g->give(line_input(t.now(), 21, R"({"do": "leave_in_place", "player": "diana"})"));
    t.still(0.3);
    g->play(t);
    EXPECT_EQ(g->ref->expecting().need, Expectation::Need::placement) << g->ref->expecting().what;
    auto refused = g->warnings("input");
    EXPECT_TRUE(!refused.empty() && refused.back()->warning.text.rfind(
                                        "inputs.jsonl: line 21: member \"player\": diana is not the player whose ship "
                                        "was hit (owen)",
                                        0) == 0u)
        << (refused.empty() ? std::string("no input warning") : refused.back()->warning.text);
    g->give(line_input(t.now(), 22, R"({"do": "leave_in_place", "player": "owen"})"));
    t.still(0.5);
    g->play(t);
    EXPECT_EQ(g->ref->expecting().need, Expectation::Need::nothing) << g->ref->expecting().what;
    EXPECT_TRUE(g->warnings("out_of_turn").empty());
    return g;
  };
  auto carried = play(true);
  auto separate = play(false);
  EXPECT_EQ(carried->ship("tderet").shields, 4);
  EXPECT_EQ(carried->ship("enterprise").hull, 6) << "the collision's hull hit";
  EXPECT_EQ(rules::state_to_json(carried->ref->state()), rules::state_to_json(separate->ref->state()));
  auto needs = [](const Game& g) {
    std::vector<std::string> out;
    for (const Entry* w : waits(g))
      out.push_back(w->waiting.need + (w->waiting.drop ? " " + w->waiting.drop->purpose : ""));
    return out;
  };
  EXPECT_EQ(needs(*carried), (std::vector<std::string>{"drops collision", "placement"}));
  EXPECT_EQ(needs(*separate), (std::vector<std::string>{"drops damage", "drops collision", "placement"}));
}

// The issue's game: the attack waits for drops the referee gives late; meanwhile the attacker moves
// on the table and another input comes. The motion is the attacker's move, read once the drops
// come (never an out-of-turn bump); the input refused meanwhile names the wait.
TEST(EnteredAction, TheShipWhoseTurnItIsMovingWhileTheGameWaitsIsReadAsItsMove) {
  auto play = [](bool drops_late) {
    auto a = std::make_unique<InRange>(200, 400);  // beside it: in range, and out of its way
    a->g.give(line_input(0.7, 6, kBeamOpen + "}"));
    if (!drops_late) a->g.give(line_input(0.8, 7, R"({"do": "drops", "drops": )" + kDamage3 + "}"));
    a->t.still(1.0);
    a->t.flips("enterprise", {{257.2, 300, 0}, {314.4, 300, 0}});
    a->t.still(1.0);
    if (drops_late) {
      a->g.give(line_input(a->t.now() - 0.5, 7, R"({"do": "reveal_order", "player": "owen", "ship": "tderet"})"));
      a->g.give(line_input(a->t.now() - 0.2, 8, R"({"do": "drops", "drops": )" + kDamage3 + "}"));
    }
    a->t.still(1.0);
    a->g.play(a->t);
    return a;
  };
  auto late = play(true);
  Game& g = late->g;
  EXPECT_TRUE(g.warnings("out_of_turn").empty()) << "the enterprise moved in its turn";
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  ASSERT_TRUE(move->observed);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_TRUE(g.ship("enterprise").moved);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 314.4, 1e-9);
  EXPECT_EQ(g.ship("tderet").shields, 4);
  // The attack, then the move: in the order of the turn.
  const Entry* attack = g.last_action("execute");
  ASSERT_NE(attack, nullptr);
  EXPECT_LT(attack - g.ref->log().data(), move - g.ref->log().data());
  // The stall is in the log where it began, and what was refused meanwhile names it.
  ASSERT_EQ(waits(g).size(), 1u);
  const std::size_t wait_entry = static_cast<std::size_t>(waits(g)[0] - g.ref->log().data());
  const Entry* refused = g.last_action("reveal_order");
  ASSERT_TRUE(refused && refused->play.refusal);
  EXPECT_EQ(refused->play.refusal->kind, rules::RefusalKind::wrong_step);
  EXPECT_NE(refused->play.refusal->reason.find("inputs.jsonl: line 7: waiting for drops: "), std::string::npos)
      << refused->play.refusal->reason;
  EXPECT_NE(refused->play.refusal->reason.find("(the wait said in the log at 0.70 s)"), std::string::npos)
      << refused->play.refusal->reason;
  EXPECT_NEAR(g.ref->log()[wait_entry].t, 0.7, 1e-9);
  // The books are those of the drops given in time (the refused reveal changed nothing).
  auto in_time = play(false);
  EXPECT_EQ(rules::state_to_json(g.ref->state()), rules::state_to_json(in_time->g.ref->state()));

  // The video ends before the drops come: the wait and the motion held are said, the books keep
  // the enterprise where it was.
  auto never = std::make_unique<InRange>(200, 400);
  never->g.give(line_input(0.7, 6, kBeamOpen + "}"));
  never->t.still(1.0);
  never->t.flips("enterprise", {{257.2, 300, 0}, {314.4, 300, 0}});
  never->t.still(1.0);
  never->g.play(never->t);
  never->g.ref->finish();
  EXPECT_TRUE(never->g.warnings("out_of_turn").empty());
  ASSERT_EQ(never->g.ref->waiting().size(), 2u);
  EXPECT_NE(never->g.ref->waiting()[1].find("enterprise moved at"), std::string::npos) << never->g.ref->waiting()[1];
  EXPECT_NEAR(never->g.ship("enterprise").pose.position.x, 200, 1e-9);
}

}  // namespace
}  // namespace diskref::referee
