#include "engine/io/json_cursor.h"

#include <cmath>
#include <fstream>
#include <sstream>

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

nlohmann::json parse_json_text(std::string_view text, const std::string& file) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 5:
    // ..."; keep the part after the bracketed id.
    std::string message = e.what();
    if (auto close = message.find("] "); close != std::string::npos) message = message.substr(close + 2);
    throw InputError(file, "", "is not valid JSON: " + message);
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range for a number such as 1e999 that no double can hold.
    std::string message = e.what();
    if (auto close = message.find("] "); close != std::string::npos) message = message.substr(close + 2);
    throw InputError(file, "", "is not usable JSON: " + message);
  }
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "", "cannot be opened (missing or unreadable)");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_json_text(buffer.str(), file.string());
}

JsonCursor::JsonCursor(const nlohmann::json& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

void JsonCursor::fail(const std::string& problem) const { throw InputError(file_, path_, problem); }

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
