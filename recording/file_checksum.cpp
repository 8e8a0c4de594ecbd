#include "recording/file_checksum.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "engine/io/input_error.h"

namespace diskref::recording {

FileChecksum checksum_file(const std::filesystem::path& file) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f) throw io::InputError(file.string(), "", std::string("cannot be read: ") + std::strerror(errno));
  constexpr std::uint64_t kOffset = 14695981039346656037ull;
  constexpr std::uint64_t kPrime = 1099511628211ull;
  std::uint64_t h = kOffset;
  std::uintmax_t bytes = 0;
  std::array<unsigned char, 1 << 16> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), f.get())) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ buffer[i]) * kPrime;
    bytes += n;
  }
  if (std::ferror(f.get()))
    throw io::InputError(file.string(), "", std::string("reading failed: ") + std::strerror(errno));
  return {bytes, fmt::format("{:016x}", h)};
}

}  // namespace diskref::recording
