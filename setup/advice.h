#pragma once
// What a setup step has to say: what is wrong (or fine) and what to do about it. Every problem a
// step reports carries its fix; the screen and the commands print both.

#include <string>
#include <vector>

namespace diskref::setup {

struct Advice {
  enum class Level { ok, note, problem };
  Level level = Level::note;
  std::string text;  // what is found: "corner marker 2 is not found"
  std::string fix;   // what to do: "it is in view: uncover it, or light it evenly" (problems always have one)
};

inline Advice ok(std::string text) {
  return {Advice::Level::ok, std::move(text), {}};
}
inline Advice note(std::string text, std::string fix = {}) {
  return {Advice::Level::note, std::move(text), std::move(fix)};
}
inline Advice problem(std::string text, std::string fix) {
  return {Advice::Level::problem, std::move(text), std::move(fix)};
}

inline bool has_problem(const std::vector<Advice>& advice) {
  for (const Advice& a : advice)
    if (a.level == Advice::Level::problem) return true;
  return false;
}

}  // namespace diskref::setup
