// The inputs the turn panel offers: what the rules allow in the state, nothing else.

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "ui/game_inputs.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

fs::path sample() { return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish"; }

std::vector<std::string> labels(const std::vector<InputChoice>& choices) {
  std::vector<std::string> out;
  for (const InputChoice& c : choices) out.push_back(c.label);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

struct Game {
  model::TableSpec table = model::load_table(sample() / "table.json");
  model::DiskRegistry registry = model::load_disk_registry(sample() / "disks.json");
  referee::GameFile file = referee::load_game_file(sample() / "game.json", table, registry);
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
