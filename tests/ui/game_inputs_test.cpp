// The inputs the turn panel offers: what the rules allow in the state, nothing else.

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/apply.h"
#include "ui/game_inputs.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

fs::path skirmish_sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
}

std::vector<std::string> labels(const std::vector<InputChoice>& choices) {
  std::vector<std::string> out;
  for (const InputChoice& c : choices) out.push_back(c.label);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

struct Game {
  model::TableSpec table = model::load_table(skirmish_sample() / "table.json");
  model::DiskRegistry registry = model::load_disk_registry(skirmish_sample() / "disks.json");
  referee::GameFile file = referee::load_game_file(skirmish_sample() / "game.json", table, registry);
};

TEST(GameInputs, StepOneOffersEachPlayersRevealAndNothingOfLaterSteps) {
  Game g;
  std::vector<std::string> l = labels(input_choices(g.file.initial, g.file.data, {}));
  EXPECT_TRUE(has(l, "diana: reveal laforge")) << ::testing::PrintToString(l);
  EXPECT_TRUE(has(l, "owen: reveal nothing"));
  EXPECT_FALSE(has(l, "initiative"));
  // Every line offered is an input the referee reads.
  for (const InputChoice& c : input_choices(g.file.initial, g.file.data, {})) EXPECT_NO_THROW(make_input(c.line, 1.0));
}

TEST(GameInputs, AVerdictTooCloseToCallIsDecidedYesOrNo) {
  Game g;
  referee::Expectation e;
  e.need = referee::Expectation::Need::decision;
  referee::Verdict v;
  v.kind = referee::VerdictKind::overlap;
  v.with = "tderet";
  e.undecided = {v};
  std::vector<InputChoice> c = input_choices(g.file.initial, g.file.data, e);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].line, (nlohmann::json{{"do", "decide"}, {"kind", "overlap"}, {"with", "tderet"}, {"call", "yes"}}));
  EXPECT_EQ(c[1].line["call"], "no");
}

TEST(GameInputs, APlacementThatMayBeLeftOffersLeaveInPlaceOnly) {
  Game g;
  referee::Expectation e;
  e.need = referee::Expectation::Need::placement;
  e.placement_optional = true;
  EXPECT_EQ(labels(input_choices(g.file.initial, g.file.data, e)), std::vector<std::string>{"leave it in place"});
  e.placement_optional = false;
  EXPECT_TRUE(input_choices(g.file.initial, g.file.data, e).empty());
}

TEST(GameInputs, ABoardingLossIsChosenAmongTheCrewItMayBe) {
  Game g;
  referee::Expectation e;
  e.need = referee::Expectation::Need::choice;
  e.options = {"sec1", "sec2"};
  std::vector<InputChoice> c = input_choices(g.file.initial, g.file.data, e);
  EXPECT_EQ(labels(c), (std::vector<std::string>{"lose sec1", "lose sec2"}));
  ASSERT_EQ(c.size(), 2u);
  referee::Input in = make_input(c[1].line, 3.0);
  EXPECT_EQ(in.kind, referee::Input::Kind::choose);
  EXPECT_EQ(in.choice, "sec2");
}

TEST(GameInputs, AnActivateOrderOffersTheCrewAboardWithEachChoiceItNeeds) {
  Game g;
  rules::GameState s = g.file.initial;
  for (
      const char* line :
      {R"({"do": "reveal", "player": "diana", "reveal": ["laforge"]})", R"({"do": "reveal", "player": "owen"})",
       R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["activate", "attack", "change_speed"]})",
       R"({"do": "orders", "player": "owen", "ship": "tderet", "orders": ["change_speed", "attack", "raise_shields"]})",
       R"({"do": "initiative"})", R"({"do": "reveal_order", "player": "diana", "ship": "enterprise"})"}) {
    rules::ActionResult r = rules::apply_action(s, g.file.data, make_input(nlohmann::json::parse(line), 1.0).action);
    ASSERT_TRUE(r.applied()) << line << ": " << r.refusal->reason;
    s = *r.state;
  }
  std::vector<InputChoice> c = input_choices(s, g.file.data, {});
  std::vector<std::string> l = labels(c);
  ASSERT_TRUE(std::any_of(l.begin(), l.end(), [](const std::string& x) {
    return x.rfind("enterprise: activate laforge", 0) == 0;
  })) << ::testing::PrintToString(l);
  // Every button is an input the rules take as it is: no choice left open behind it.
  for (const InputChoice& choice : c) {
    rules::ActionResult r = rules::apply_action(s, g.file.data, make_input(choice.line, 1.0).action);
    EXPECT_TRUE(r.applied() || r.refusal->kind == rules::RefusalKind::missing_drop)
        << choice.label << ": " << r.refusal->reason;
  }
}

TEST(GameInputs, CorrectionsAreSpecLines) {
  referee::Input undo = make_input(undo_line(4), 2.0);
  EXPECT_EQ(undo.kind, referee::Input::Kind::correct);
  EXPECT_EQ(undo.correction.input, std::optional<std::size_t>(4));
  EXPECT_FALSE(undo.correction.replacement);
  referee::Verdict v;
  v.kind = referee::VerdictKind::torpedo_contact;
  v.with = "enterprise";
  referee::Input again = make_input(redecide_line(7, v, false), 3.0);
  EXPECT_EQ(again.correction.entry, std::optional<std::size_t>(7));
  ASSERT_TRUE(again.correction.decision);
  EXPECT_FALSE(again.correction.decision->yes);
}

}  // namespace
}  // namespace diskref::ui
