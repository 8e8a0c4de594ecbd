#pragma once
// One fuzz target per file kind the program reads. A target's body gets the bytes of one input,
// puts them where the loader reads them (fuzz_files.h) and runs the loader: an InputError is the
// answer to a bad file and is fine; anything else (another exception, a crash, a sanitizer
// report, a hang) is a finding.
//
// Each target is built two ways:
// - with DISKREF_LIBFUZZER (clang, -DDISKREF_FUZZ=ON): as the program's LLVMFuzzerTestOneInput,
//   one libFuzzer binary per target (fuzz_<kind>);
// - otherwise: registered by name in diskref_fuzz_replay, which runs a target over files (the
//   corpus and every input that ever crashed, fuzz/regressions/), as ordinary tests with any
//   compiler.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/io/input_error.h"

namespace diskref::fuzz {

using TargetBody = void (*)(std::string_view input);

// Runs `body` on `input`, taking InputError as the expected refusal.
inline void run_target(TargetBody body, std::string_view input) {
  try {
    body(input);
  } catch (const io::InputError&) {
  }
}

#ifndef DISKREF_LIBFUZZER
// The replay program's table of targets.
struct Registration {
  Registration(const char* name, TargetBody body);
};
#endif

}  // namespace diskref::fuzz

#ifdef DISKREF_LIBFUZZER
#define DISKREF_FUZZ_REGISTER(name, body)                                                         \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {             \
    diskref::fuzz::run_target(body, std::string_view(reinterpret_cast<const char*>(data), size)); \
    return 0;                                                                                     \
  }
#else
#define DISKREF_FUZZ_REGISTER(name, body) static const diskref::fuzz::Registration registration_##name(#name, body);
#endif

// DISKREF_FUZZ_TARGET(table) { ... input ... }
#define DISKREF_FUZZ_TARGET(name)                 \
  static void fuzz_body_##name(std::string_view); \
  DISKREF_FUZZ_REGISTER(name, fuzz_body_##name)   \
  static void fuzz_body_##name(std::string_view input)
