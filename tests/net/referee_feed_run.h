#pragma once
// Test support: `diskref referee` on the bundled skirmish game from its truth (the tracks a
// perfect tracker gives), with the live feed, paced in real time so that clients can watch.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.h"

namespace diskref::testing {

inline std::filesystem::path skirmish() {
  return std::filesystem::path(DISKREF_SOURCE_DIR) / "sample_videos/skirmish";
}

// The arguments of `diskref referee` on the sample game, writing its log to `log`.
inline std::vector<std::string> skirmish_referee_args(const std::filesystem::path& log) {
  const std::filesystem::path s = skirmish();
  return {"referee",
          "--tracks",
          (s / "truth.jsonl").string(),
          "--table",
          (s / "table.json").string(),
          "--disks",
          (s / "disks.json").string(),
          "--game",
          (s / "game.json").string(),
          "--inputs",
          (s / "inputs.jsonl").string(),
          "--out",
          log.string()};
}

inline std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

}  // namespace diskref::testing
