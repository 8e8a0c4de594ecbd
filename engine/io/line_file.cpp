#include "engine/io/line_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "engine/io/input_error.h"
#include "engine/io/write_error.h"

namespace diskref::io {

LineFile::LineFile(const std::filesystem::path& file, Mode mode) : file_(file) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::append ? O_APPEND : O_TRUNC);
  fd_ = ::open(file.c_str(), flags, 0666);
  if (fd_ < 0) {
    const int e = errno;
    if (is_resource_failure(e)) throw WriteError(file.string() + ": cannot be created: " + system_reason(e));
    throw InputError(file.string(), "", "cannot be written: " + system_reason(e));
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
    regular_ = true;
    good_bytes_ = static_cast<long long>(st.st_size);
  }
}

LineFile::~LineFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineFile::write_line(std::string_view line) {
  if (failed()) return false;
  std::string text;
  text.reserve(line.size() + 1);
  text.append(line).push_back('\n');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      // Cut a partly written line off, so that the file ends with a complete one.
      // When even that fails, say so: a reader then meets a cut line at the end.
      const bool cut = !regular_ || ::ftruncate(fd_, static_cast<off_t>(good_bytes_)) == 0;
      failure_ = file_.string() + ": writing line " + std::to_string(lines_ + 1) + " failed: " + system_reason(e) +
                 "; the " + std::to_string(lines_) +
                 " line(s) before it are kept, complete, and nothing more is written" +
                 (cut ? "" : " (the part of the line written could not be cut off: " + system_reason(errno) + ")");
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  good_bytes_ += static_cast<long long>(text.size());
  ++lines_;
  return true;
}

}  // namespace diskref::io
