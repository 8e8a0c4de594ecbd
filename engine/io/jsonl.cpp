#include "engine/io/jsonl.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::io {

namespace {

// Every non-blank line with its place ("FILE: line N") and whether it ended with its newline.
void for_each_line(const std::filesystem::path& file,
                   const std::function<void(const std::string& line, const std::string& where, bool complete)>& each) {
  const std::string text = read_input_file(file, "a JSON-lines file", kMaxJsonLinesFileBytes);
  std::size_t pos = 0;
  long long line_no = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const bool complete = end != std::string::npos;
    const std::string line = text.substr(pos, complete ? end - pos : std::string::npos);
    pos = complete ? end + 1 : text.size();
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    each(line, file.string() + ": line " + std::to_string(line_no), complete);
  }
}

}  // namespace

void read_jsonl(const std::filesystem::path& file, const std::function<void(const JsonCursor&)>& on_line,
                std::vector<std::string>* cut_short) {
  for_each_line(file, [&](const std::string& line, const std::string& where, bool complete) {
    nlohmann::json value;
    try {
      value = parse_json_text(line, where);
    } catch (const InputError&) {
      // Only the last line can be without its newline.
      if (!complete && cut_short != nullptr) {
        cut_short->push_back(where + ": cut short (the program stopped while writing it); dropped");
        return;
      }
      throw;
    }
    on_line(JsonCursor(value, where));
  });
}

void read_jsonl_skipping_bad_lines(const std::filesystem::path& file,
                                   const std::function<void(const JsonCursor&)>& on_line,
                                   std::vector<std::string>& skipped) {
  for_each_line(file, [&](const std::string& line, const std::string& where, bool complete) {
    try {
      const nlohmann::json value = parse_json_text(line, where);
      on_line(JsonCursor(value, where));
    } catch (const InputError& e) {
      skipped.push_back(complete ? std::string(e.what()) + "; skipped"
                                 : where + ": cut short (the program stopped while writing it); dropped");
    }
  });
}

}  // namespace diskref::io
