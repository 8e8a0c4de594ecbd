// Corrections (corrections.h): an input replaced or dropped, a ruling decided again, the drops read
// from the table given instead. Each replays the game from its start over the same settles with
// the corrected inputs (referee.cpp); the log keeps the correction and what it replaced.
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/corrections.h"

namespace diskref::referee {

std::size_t Corrections::add(Input input) {
  inputs_.push_back(input);
  effective_.push_back(input);  // every input keeps its number (file order), corrections too
  dropped_.push_back(false);
  if (input.kind == Input::Kind::correct) held_corrections_.push_back(effective_.size() - 1);
  return effective_.size() - 1;
}

std::optional<std::size_t> Corrections::take_due(double t) {
  if (held_corrections_.empty() || effective_[held_corrections_.front()].t > t) return std::nullopt;
  const std::size_t index = held_corrections_.front();
  held_corrections_.erase(held_corrections_.begin());
  return index;
}

bool Corrections::apply_correction(std::size_t index, const Books& books, Rulings& rulings) {
  const Input input = effective_[index];
  Entry c;
  c.kind = Entry::Kind::correction;
  c.t = input.t;
  c.correction = input_to_json(input);
  c.correction.erase("t");
  if (input.correction.input) {
    std::size_t k = *input.correction.input;
    if (k >= index || effective_[k].kind == Input::Kind::correct) {
      rulings.warn(input.t, {"correction", "", 0,
                             fmt::format("input {} cannot be corrected: {}", k,
                                         k >= index ? "there is no such input yet" : "it is itself a correction")});
      return false;
    }
    c.correction["was"] = input_to_json(effective_[k]);
    for (const Entry& e : books.log)
      if (e.kind == Entry::Kind::action && std::count(e.inputs.begin(), e.inputs.end(), k))
        c.correction["entry_was"] = entry_to_json(e);
    if (input.correction.replacement) {
      Input replacement = *input.correction.replacement;
      replacement.t = effective_[k].t;
      replacement.where = input.where;
      effective_[k] = replacement;
      dropped_[k] = false;
    } else {
      dropped_[k] = true;
    }
  } else if (!input.correction.drops.empty()) {
    // The drops an entry read from the counters on the table, given instead by the referee.
    std::size_t n = *input.correction.entry;
    if (n >= books.log.size() || books.log[n].kind != Entry::Kind::action || books.log[n].drops_read.empty() ||
        books.log[n].drops_read.size() != input.correction.drops.size()) {
      rulings.warn(input.t, {"correction", "", 0,
                             n < books.log.size() && !books.log[n].drops_read.empty()
                                 ? fmt::format("log entry {} read {} drop(s) from the table: give as many", n,
                                               books.log[n].drops_read.size())
                                 : fmt::format("log entry {} read no drop from the table", n)});
      return false;
    }
    c.correction["entry_was"] = entry_to_json(books.log[n]);
    for (std::size_t k = 0; k < input.correction.drops.size(); ++k)
      drop_overrides_.push_back(
          {books.log[n].drops_read[k].reading, input.correction.drops[k], {{"input", index}, {"t", input.t}}});
  } else {
    std::size_t n = *input.correction.entry;
    if (n >= books.log.size() || books.log[n].kind != Entry::Kind::action || !books.log[n].observed) {
      rulings.warn(input.t, {"correction", "", 0, fmt::format("log entry {} is no ruling read from the table", n)});
      return false;
    }
    c.correction["entry_was"] = entry_to_json(books.log[n]);
    overrides_.push_back({books.log[n].observed->disk, books.log[n].reading, *input.correction.decision});
  }
  corrections_.push_back(c);
  return true;  // the Referee replays the game (referee.cpp)
}

// A ruling decided again by a correction stands over the call read at the same settle.
void Corrections::apply_overrides(const std::string& disk, std::size_t reading,
                                  std::vector<Decision>& decisions) const {
  for (const Override& o : overrides_)
    if (o.disk == disk && o.reading == reading) decisions.push_back(o.decision);
}

}  // namespace diskref::referee
