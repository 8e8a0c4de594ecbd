// The rulings alone (referee/rulings.h): an action committed to the rules on books of the duel,
// without a table or a referee: applied, refused, and warnings, each logged at the settle being
// read.
#include "referee/rulings.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/state_json.h"
#include "referee/books.h"
#include "referee/game_file.h"
#include "referee/referee_pending.h"
#include "tests/referee/fake_table.h"
#include "tests/referee/referee_game.h"

namespace diskref::referee {
namespace {

using testing::duel;
using testing::input;

struct RulingsOnTheDuel {
  RulingsOnTheDuel() {
    model::TableSpec table = model::default_table();
    game = load_game_file(testing::write_game(duel(), "rulings"), table, testing::game_registry());
    books.state = game.initial;
    books.settle_index = 3;
  }
  GameFile game;
  Books books;
  std::optional<Pending> pending;
  Rulings rulings{books, game.data, pending};
};

TEST(Rulings, AnActionAppliedChangesTheBooksAndIsLoggedAtTheSettleRead) {
  RulingsOnTheDuel r;
  const nlohmann::json before = rules::state_to_json(r.books.state);
  r.rulings.commit(input(1.0, R"({"do": "reveal", "player": "diana"})").action, 1.0, std::nullopt, {7});
  ASSERT_EQ(r.books.log.size(), 1u);
  const Entry& e = r.books.log[0];
  EXPECT_EQ(e.kind, Entry::Kind::action);
  EXPECT_FALSE(e.play.refusal);
  EXPECT_EQ(e.reading, 3u);
  EXPECT_EQ(e.inputs, std::vector<std::size_t>{7});
  EXPECT_EQ(r.books.actions.size(), 1u);
  EXPECT_EQ(r.books.refused, 0);
  EXPECT_NE(rules::state_to_json(r.books.state), before) << "the rules moved the game on";
}

TEST(Rulings, AnActionRefusedLeavesTheStateAndCountsARefusal) {
  RulingsOnTheDuel r;
  const nlohmann::json before = rules::state_to_json(r.books.state);
  r.rulings.commit(input(1.0, R"({"do": "reveal", "player": "nobody"})").action, 1.0, std::nullopt, {0},
                   {{"input", "", 0, "said with it"}});
  ASSERT_EQ(r.books.log.size(), 2u);
  EXPECT_TRUE(r.books.log[0].play.refusal);
  EXPECT_EQ(r.books.log[1].kind, Entry::Kind::warning) << "its warnings follow it";
  EXPECT_EQ(r.books.refused, 1);
  EXPECT_EQ(r.books.actions.size(), 1u) << "a refused action is kept for the play script";
  EXPECT_EQ(rules::state_to_json(r.books.state), before);
}

TEST(Rulings, AWarningIsLoggedAtTheSettleReadWithItsInputs) {
  RulingsOnTheDuel r;
  Entry& e = r.rulings.warn(2.5, {"input", "enterprise", 1.5, "a warning"}, {4});
  EXPECT_EQ(e.kind, Entry::Kind::warning);
  EXPECT_EQ(e.t, 2.5);
  EXPECT_EQ(e.reading, 3u);
  EXPECT_EQ(e.warning.disk, "enterprise");
  EXPECT_EQ(e.inputs, std::vector<std::size_t>{4});
  EXPECT_EQ(r.books.actions.size(), 0u);
}

TEST(Books, TheShipToActIsNoneOutsideTheShipsStageAndAShipsPoseIsTheBooks) {
  RulingsOnTheDuel r;
  EXPECT_EQ(r.books.ship_to_act(), "") << "the game starts with the reveal, not with a ship to act";
  ASSERT_TRUE(r.books.books_pose("tderet"));
  EXPECT_NEAR(r.books.books_pose("tderet")->position.x, 700, 1e-9);
  EXPECT_FALSE(r.books.books_pose("no-such-disk"));
}

}  // namespace
}  // namespace diskref::referee
