#include "engine/io/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "engine/io/input_error.h"
#include "engine/io/write_error.h"

namespace diskref::io {
namespace fs = std::filesystem;

std::string system_reason(int errnum) {
  char buffer[256];
  // The GNU strerror_r returns the message (maybe not in `buffer`).
  return ::strerror_r(errnum, buffer, sizeof buffer);
}

bool is_resource_failure(int errnum) {
  return errnum == ENOSPC || errnum == EDQUOT || errnum == EFBIG || errnum == EIO;
}

namespace {

// The file that is really written: a symbolic link's target (the link is kept).
fs::path resolved(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(file, ec))) return file;
  fs::path target = fs::weakly_canonical(file, ec);
  return ec ? file : target;
}

void refuse_non_regular(const fs::path& file, const fs::path& target) {
  std::error_code ec;
  fs::file_status st = fs::status(target, ec);
  if (!fs::exists(st) || fs::is_regular_file(st)) return;
  if (fs::is_directory(st)) throw InputError(file.string(), "", "is a directory: give the name of a file to write");
  throw InputError(file.string(), "",
                   "exists and is not a regular file (a device, a pipe or a socket): diskref writes only files, and "
                   "will not replace it (nothing was written)");
}

// A write on the way failed: FILE.tmp goes, FILE stays as it was.
[[noreturn]] void fail_writing(const fs::path& file, const fs::path& target, const fs::path& tmp, const char* step,
                               int errnum, int fd) {
  if (fd >= 0) ::close(fd);
  ::unlink(tmp.c_str());
  std::error_code ec;
  throw WriteError(file.string() + ": " + step + " failed: " + system_reason(errnum) + " (nothing was written: " +
                   (fs::exists(target, ec) ? "the file is as it was" : "no file was made") + ")");
}

}  // namespace

void check_output_path(const fs::path& file) {
  refuse_non_regular(file, resolved(file));
}

void write_file_atomically(const fs::path& file, std::string_view contents) {
  const fs::path target = resolved(file);
  refuse_non_regular(file, target);
  fs::path tmp = target;
  tmp += ".tmp";

  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    const int e = errno;
    if (is_resource_failure(e))
      throw WriteError(file.string() + ": cannot be written: " + system_reason(e) + " (nothing was written)");
    throw InputError(file.string(), "", "cannot be written: " + system_reason(e));
  }
  // Keep an existing file's permissions.
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) (void)::fchmod(fd, existing.st_mode & 07777);

  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_writing(file, target, tmp, "writing", errno, fd);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) fail_writing(file, target, tmp, "writing (fsync)", errno, fd);
  if (::close(fd) != 0) fail_writing(file, target, tmp, "writing (close)", errno, -1);
  if (::rename(tmp.c_str(), target.c_str()) != 0)
    fail_writing(file, target, tmp, "renaming the temporary file over it", errno, -1);
  // Make the rename itself durable; a failure here loses nothing already renamed.
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace diskref::io
