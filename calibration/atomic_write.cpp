#include "calibration/atomic_write.h"

#include <fstream>
#include <system_error>

#include "engine/io/input_error.h"

namespace diskref {

void write_text_atomically(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw InputError(file.string(), "", "cannot be written");
    out << text;
    if (!out) throw InputError(file.string(), "", "write failed");
  }
  std::error_code error;
  std::filesystem::rename(tmp, file, error);
  if (error) {
    std::filesystem::remove(tmp, error);
    throw InputError(file.string(), "", "cannot be written (rename failed)");
  }
}

}  // namespace diskref
