#pragma once
// The one error type for an output that could not be written while running (a full disk, a file
// size limit, an I/O error): unlike InputError it is not the user's input that is wrong, so the
// program exits 1, not 2. Its message names the file, the system's reason and what was kept.

#include <stdexcept>
#include <string>

namespace diskref::io {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// strerror(errnum) as a std::string ("No space left on device").
std::string system_reason(int errnum);

// Whether a failed open()/write() with this errno is the machine's fault (full disk, quota, size
// limit, I/O error: WriteError, exit 1) rather than a bad path the user gave (InputError, exit 2).
bool is_resource_failure(int errnum);

}  // namespace diskref::io
