#pragma once
// Reading JSON input with exact error locations.
//
// A JsonCursor is a position inside a parsed document: the value, the file it came from and the
// JSON path to it. Every accessor either returns a valid value or throws InputError naming the
// file, the path and what is wrong, so loaders read like the schema they check:
//
//   auto disk = root.at("disks").at(i);
//   spec.name = disk.at("name").string();
//   spec.diameter = disk.at("shape").at("diameter_mm").positive_number();
//
// The cursor does not own the document: keep the nlohmann::json alive while cursors exist.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace diskref::io {

// The largest input file diskref reads whole (a JSON file; a JSON-lines file may be larger).
inline constexpr std::uintmax_t kMaxJsonFileBytes = 64u << 20;           // 64 MiB
inline constexpr std::uintmax_t kMaxJsonLinesFileBytes = 4096ull << 20;  // 4 GiB
// How deep arrays and objects may nest (no diskref file needs more than 10).
inline constexpr int kMaxJsonDepth = 64;

// Reads a whole input file. `kind` names what it should be ("a JSON file"). Throws InputError
// naming the file: missing or unreadable, a directory, not a regular file or a pipe (a device),
// larger than `max_bytes`.
std::string read_input_file(const std::filesystem::path& file, std::string_view kind, std::uintmax_t max_bytes);

// Reads and parses a JSON file. Throws InputError("file", "", "cannot be opened"/"is a
// directory"/"is not valid JSON: ... line L, column C"/...).
nlohmann::json read_json_file(const std::filesystem::path& file);

// Parses JSON text; `file` only names the source in error messages. Refuses (InputError) what
// nlohmann::json would take silently: a member given twice in one object (the last would win:
// "line 7, column 5: disks[0].tags[0]: member \"size_mm\" given twice"), and nesting deeper than
// kMaxJsonDepth.
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

class JsonCursor {
 public:
  JsonCursor(const nlohmann::json& value, std::string file, std::string path = {});

  const nlohmann::json& json() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

  // Objects.
  bool has(std::string_view key) const;                        // requires an object
  JsonCursor at(std::string_view key) const;                   // required member
  std::optional<JsonCursor> find(std::string_view key) const;  // optional member (null = absent)
  // Refuses members not in `allowed` (catches typos such as "diamter_mm").
  void allow_only(std::initializer_list<std::string_view> allowed) const;
  std::vector<std::string> keys() const;

  // Arrays.
  std::size_t size() const;  // requires an array
  JsonCursor at(std::size_t index) const;

  // Scalars. number() refuses NaN/inf and non-numbers.
  double number() const;
  double positive_number() const;                // > 0
  double non_negative_number() const;            // >= 0
  double number_in(double lo, double hi) const;  // lo <= v <= hi
  long long integer() const;                     // a JSON integer (or a float with no fraction)
  int int_in(int lo, int hi) const;
  bool boolean() const;
  std::string string() const;
  std::string non_empty_string() const;
  // One of `choices`; the message lists them.
  std::string one_of(std::initializer_list<std::string_view> choices) const;

  // Optional members with defaults.
  double number_or(std::string_view key, double fallback) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  std::string string_or(std::string_view key, std::string fallback) const;

  // A fixed-size array of finite numbers, e.g. [x, y].
  std::vector<double> numbers(std::size_t expected_count) const;

  // Throws InputError at this cursor's path.
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  const nlohmann::json* value_;
  std::string file_;
  std::string path_;
};

}  // namespace diskref::io
