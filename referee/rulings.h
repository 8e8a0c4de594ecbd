#pragma once
// Committing to the rules (referee.h, rulings.cpp): an action applied (or refused) and logged with
// its evidence, the Full Stop moves that follow it, and warnings. The only job that changes the
// books by an action; it owns nothing itself and writes the books (books.h) it is given.
//
// It reads the open question only to know what follows an action: the Full Stop moves, once no
// question is open. It calls no other job: committing is the bottom of the referee's flow.

#include <cstddef>
#include <optional>
#include <vector>

#include "engine/rules/actions.h"
#include "engine/rules/apply.h"
#include "engine/rules/game_data.h"
#include "engine/rules/refusal.h"
#include "referee/books.h"
#include "referee/referee_log.h"
#include "referee/referee_pending.h"

namespace diskref::referee {

class Rulings {
 public:
  Rulings(Books& books, const rules::GameData& data, const std::optional<Pending>& pending)
      : books_(books), data_(data), pending_(pending) {}

  // An action to the rules, logged, and the Full Stop moves that follow it (full_stop_moves).
  // `outcome`, when given, is the rules' run of this action on the state now (rules::needs): it is
  // what is entered, and the rules do not run again.
  void commit(const rules::Action& action, double t, std::optional<Observed> observed, std::vector<std::size_t> inputs,
              std::vector<Warning> warnings = {}, std::vector<DropRead> drops_read = {},
              std::optional<rules::ActionResult> outcome = std::nullopt);
  // An action to the rules, logged with its warnings: nothing follows.
  void enter_ruling(const rules::Action& action, double t, std::optional<Observed> observed,
                    std::vector<std::size_t> inputs, std::vector<Warning> warnings = {},
                    std::vector<DropRead> drops_read = {}, std::optional<rules::ActionResult> outcome = std::nullopt);
  void refuse_entry(const rules::Action& action, const rules::Refusal& refusal, double t,
                    std::optional<Observed> observed, std::vector<std::size_t> inputs,
                    std::vector<DropRead> drops_read = {});
  Entry& warn(double t, Warning w, std::vector<std::size_t> inputs = {});

 private:
  void full_stop_moves(double t);

  Books& books_;
  const rules::GameData& data_;
  const std::optional<Pending>& pending_;  // the open question (game_in_progress.h), read only
};

}  // namespace diskref::referee
