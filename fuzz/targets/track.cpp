// A track file (JSON lines, `diskref track`'s output and a rendered video's truth), its times made
// fit to play back.
#include "engine/model/bounds.h"
#include "engine/model/track_frame.h"
#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(track) {
  using namespace diskref;
  std::vector<model::TrackFrame> frames = model::load_track_jsonl(fuzz::place_input("track.jsonl", input));
  (void)model::cap_time_gaps(frames, model::bounds::kMaxReplayGapS);
}
