#include "engine/io/json_cursor.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::io {
namespace {

std::string type_name(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string format_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

namespace {

// Line and column (from 1) of byte `offset` of `text`.
std::string line_and_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The byte offset of the n-th (from 1) member name of JSON text that parses up to there: a string
// followed by ':'.
std::size_t offset_of_member_name(std::string_view text, std::size_t n) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    const std::size_t start = i;
    for (++i; i < text.size() && text[i] != '"'; ++i)
      if (text[i] == '\\') ++i;
    std::size_t j = i + 1;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r')) ++j;
    if (j < text.size() && text[j] == ':' && ++count == n) return start;
  }
  return text.size();
}

// Where the parser is, for a message: the containers open around it, each with the member or
// element it is reading.
struct OpenContainer {
  bool object = true;
  std::size_t index = 0;                  // arrays: the element being read
  std::string member;                     // objects: the member being read
  std::unordered_set<std::string> names;  // objects: the members so far
};

std::string path_of(const std::vector<OpenContainer>& open, std::size_t levels) {
  std::string path;
  for (std::size_t i = 0; i < levels && i < open.size(); ++i) {
    if (open[i].object)
      path += (path.empty() ? "" : ".") + open[i].member;
    else
      path += "[" + std::to_string(open[i].index) + "]";
  }
  return path;
}

std::string after_bracket(const std::string& message) {
  // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 5:
  // ..."; keep the part after the bracketed id.
  auto close = message.find("] ");
  return close == std::string::npos ? message : message.substr(close + 2);
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& file) {
  using Event = nlohmann::json::parse_event_t;
  std::vector<OpenContainer> open;
  std::size_t names_seen = 0;
  auto callback = [&](int depth, Event event, nlohmann::json& parsed) {
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (depth >= kMaxJsonDepth)
          throw InputError(file, path_of(open, open.size()),
                           "arrays and objects nest deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        open.push_back({event == Event::object_start, 0, {}, {}});
        break;
      case Event::key: {
        ++names_seen;
        OpenContainer& object = open.back();
        std::string name = parsed.get<std::string>();
        if (!object.names.insert(name).second) {
          std::string where = line_and_column(text, offset_of_member_name(text, names_seen));
          throw InputError(file, path_of(open, open.size() - 1),
                           where + ": member \"" + name +
                               "\" given twice (a JSON object names each member once; "
                               "which one was meant?)");
        }
        object.member = std::move(name);
        break;
      }
      case Event::object_end:
      case Event::array_end:
        open.pop_back();
        if (!open.empty() && !open.back().object) ++open.back().index;
        break;
      case Event::value:
        if (!open.empty() && !open.back().object) ++open.back().index;
        break;
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), callback);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, "", "is not valid JSON: " + after_bracket(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range for a number such as 1e999 that no double can hold.
    throw InputError(file, "", "is not usable JSON: " + after_bracket(e.what()));
  }
}

std::string read_input_file(const std::filesystem::path& file, std::string_view kind, std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (fs::is_directory(st)) throw InputError(file.string(), "", "is a directory, not " + std::string(kind));
  if (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_fifo(st))
    throw InputError(file.string(), "", "is not a regular file (a device or a socket), not " + std::string(kind));
  if (fs::is_regular_file(st)) {
    const std::uintmax_t size = fs::file_size(file, ec);
    if (!ec && size > max_bytes)
      throw InputError(file.string(), "",
                       "is " + std::to_string(size >> 20) + " MiB, larger than " + std::string(kind) + " can be (" +
                           std::to_string(max_bytes >> 20) + " MiB)");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "", "cannot be opened (missing or unreadable)");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw InputError(file.string(), "",
                       "is larger than " + std::string(kind) + " can be (" + std::to_string(max_bytes >> 20) + " MiB)");
  }
  if (in.bad()) throw InputError(file.string(), "", "could not be read to the end");
  return text;
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  return parse_json_text(read_input_file(file, "a JSON file", kMaxJsonFileBytes), file.string());
}

JsonCursor::JsonCursor(const nlohmann::json& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

void JsonCursor::fail(const std::string& problem) const {
  throw InputError(file_, path_, problem);
}

bool JsonCursor::has(std::string_view key) const {
  if (!value_->is_object()) fail("must be an object, not " + type_name(*value_));
  auto it = value_->find(key);
  return it != value_->end() && !it->is_null();
}

JsonCursor JsonCursor::at(std::string_view key) const {
  auto found = find(key);
  if (!found) fail("missing required member \"" + std::string(key) + "\"");
  return *found;
}

std::optional<JsonCursor> JsonCursor::find(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  std::string child_path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  return JsonCursor(*value_->find(key), file_, std::move(child_path));
}

void JsonCursor::allow_only(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("must be an object, not " + type_name(*value_));
  for (const auto& item : value_->items()) {
    bool known = false;
    for (auto name : allowed) known = known || item.key() == name;
    if (!known) {
      std::string list;
      for (auto name : allowed) list += (list.empty() ? "" : ", ") + std::string(name);
      fail("unknown member \"" + item.key() + "\" (allowed: " + list + ")");
    }
  }
}

std::vector<std::string> JsonCursor::keys() const {
  if (!value_->is_object()) fail("must be an object, not " + type_name(*value_));
  std::vector<std::string> out;
  for (const auto& item : value_->items()) out.push_back(item.key());
  return out;
}

std::size_t JsonCursor::size() const {
  if (!value_->is_array()) fail("must be an array, not " + type_name(*value_));
  return value_->size();
}

JsonCursor JsonCursor::at(std::size_t index) const {
  if (index >= size()) fail("has no element " + std::to_string(index));
  return JsonCursor((*value_)[index], file_, path_ + "[" + std::to_string(index) + "]");
}

double JsonCursor::number() const {
  if (!value_->is_number()) fail("must be a number, not " + type_name(*value_));
  double v = value_->get<double>();
  if (!std::isfinite(v)) fail("must be a finite number");
  return v;
}

double JsonCursor::positive_number() const {
  double v = number();
  if (!(v > 0)) fail("must be > 0 (got " + format_number(v) + ")");
  return v;
}

double JsonCursor::non_negative_number() const {
  double v = number();
  if (v < 0) fail("must be >= 0 (got " + format_number(v) + ")");
  return v;
}

double JsonCursor::number_in(double lo, double hi) const {
  double v = number();
  if (v < lo || v > hi)
    fail("must be between " + format_number(lo) + " and " + format_number(hi) + " (got " + format_number(v) + ")");
  return v;
}

long long JsonCursor::integer() const {
  if (value_->is_number_integer()) return value_->get<long long>();
  double v = number();
  if (std::floor(v) != v || std::fabs(v) > 9.0e15) fail("must be an integer (got " + format_number(v) + ")");
  return static_cast<long long>(v);
}

int JsonCursor::int_in(int lo, int hi) const {
  long long v = integer();
  if (v < lo || v > hi)
    fail("must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi) + " (got " +
         std::to_string(v) + ")");
  return static_cast<int>(v);
}

bool JsonCursor::boolean() const {
  if (!value_->is_boolean()) fail("must be true or false, not " + type_name(*value_));
  return value_->get<bool>();
}

std::string JsonCursor::string() const {
  if (!value_->is_string()) fail("must be a string, not " + type_name(*value_));
  return value_->get<std::string>();
}

std::string JsonCursor::non_empty_string() const {
  std::string v = string();
  if (v.empty()) fail("must not be empty");
  return v;
}

std::string JsonCursor::one_of(std::initializer_list<std::string_view> choices) const {
  std::string v = string();
  std::string list;
  for (auto c : choices) {
    if (v == c) return v;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  fail("\"" + v + "\" is not one of: " + list);
}

double JsonCursor::number_or(std::string_view key, double fallback) const {
  auto found = find(key);
  return found ? found->number() : fallback;
}

bool JsonCursor::boolean_or(std::string_view key, bool fallback) const {
  auto found = find(key);
  return found ? found->boolean() : fallback;
}

std::string JsonCursor::string_or(std::string_view key, std::string fallback) const {
  auto found = find(key);
  return found ? found->string() : fallback;
}

std::vector<double> JsonCursor::numbers(std::size_t expected_count) const {
  if (size() != expected_count)
    fail("must be an array of " + std::to_string(expected_count) + " numbers (has " + std::to_string(size()) + ")");
  std::vector<double> out;
  for (std::size_t i = 0; i < expected_count; ++i) out.push_back(at(i).number());
  return out;
}

}  // namespace diskref::io
