#pragma once
// Writing JSON lines as they happen (a track file, a recording's logs): each line goes to the file
// in one write() as soon as it is given, so a crash or a kill -9 loses at most the line being
// written, and every write is checked. When a write fails (a full disk, a file size limit, an I/O
// error) the file is cut back to its last complete line, so that everything written before stays
// readable, nothing more is written, and failure() says what was kept and why.

#include <filesystem>
#include <string>
#include <string_view>

namespace diskref::io {

class LineFile {
 public:
  enum class Mode { truncate, append };

  // Opens `file`. Throws InputError naming it (exit 2) when it cannot be opened for writing (a
  // missing folder, no permission, a directory), WriteError when the disk is full.
  LineFile(const std::filesystem::path& file, Mode mode);
  ~LineFile();
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;

  // Writes `line` and a newline. Returns false when this write, or one before, failed: the file
  // then ends with the last line written whole.
  bool write_line(std::string_view line);

  bool failed() const { return !failure_.empty(); }
  // "track.jsonl: writing line 1235 failed: No space left on device; its 1234 lines before are
  // kept, complete" (empty while nothing failed).
  const std::string& failure() const { return failure_; }
  long long lines_written() const { return lines_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  bool regular_ = false;
  long long good_bytes_ = 0;  // the file's size after the last complete line
  long long lines_ = 0;
  std::string failure_;
};

}  // namespace diskref::io
