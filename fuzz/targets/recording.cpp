// A session recording (`diskref ui --replay DIR`): one input holds its session.json, track.jsonl
// and events.jsonl, cut apart at lines "=====".
#include <nlohmann/json.hpp>
#include "fuzz/fuzz_files.h"

#include "fuzz/fuzz_target.h"
#include "recording/session_recording.h"

DISKREF_FUZZ_TARGET(recording) {
  using namespace diskref;
  const auto parts = fuzz::split_input(input, "=====", 3);
  fuzz::place_input("recording/session.json", parts[0]);
  fuzz::place_input("recording/track.jsonl", parts[1]);
  const auto dir = fuzz::place_input("recording/events.jsonl", parts[2]).parent_path();
  (void)recording::load_recording(dir);
}
