#include "engine/io/atomic_write.h"

#include <fstream>
#include <system_error>

#include "engine/io/input_error.h"

namespace diskref::io {

void write_file_atomically(const std::filesystem::path& file, std::string_view contents) {
  std::filesystem::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError(file.string(), "", "cannot be written");
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) throw InputError(file.string(), "", "write failed");
  }
  std::error_code error;
  std::filesystem::rename(tmp, file, error);
  if (error) {
    std::filesystem::remove(tmp, error);
    throw InputError(file.string(), "", "cannot be written (rename failed)");
  }
}

}  // namespace diskref::io
