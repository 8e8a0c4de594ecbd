#pragma once
// One frame of tracking output (spec §5), as written by `diskref track` and by the renderer's
// ground truth (truth.jsonl), and read back by evaluation, replay and the UI.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/pose.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_kind.h"

namespace diskref::model {

enum class TrackState { visible, stale, lost };

// How long a disk may go unseen before it is `lost` (spec §5). The tracker's default, and the
// value the renderer's ground truth (what a perfect tracker would output) uses, so both agree.
// Long enough that a hand resting over a ship while a player thinks does not lose it.
inline constexpr double kDefaultLostAfterSeconds = 10.0;
// How long the table must have been quiet (nothing moving, nothing but disks over the play area)
// before it is `settled` (spec §9: 0.5 s, a parameter). The tracker's default and the ground
// truth's, so that a settle's latency is measured against the same rule.
inline constexpr double kDefaultSettleWindowSeconds = 0.5;
std::string_view to_string(TrackState state);

// Motion of a disk (extension to §5, member "motion"): still, or moving.
enum class Motion { settled, moving };
std::string_view to_string(Motion motion);

// A disk seen tilted at rest (extension to spec §5, a disk's "tilted"): leaning against something,
// or standing on its edge, its tag seen at the same place again and again and the picture around
// it unchanged since. The tracker reports it only while the disk is not seen lying flat. Where its
// tag is, not where the disk's footprint is: which face lies how is the referee's to say.
struct TiltedRest {
  double x = 0;  // table frame, mm: the point of the table under the middle of its tag
  double y = 0;
  double z = 0;          // mm: how high above the table the middle of its tag is
  double tilt_deg = 0;   // how far its tag's face is from lying flat: 0 flat, 90 on its edge
  Face face = Face::up;  // the face whose tag is seen
  double since_t = 0;    // when it was first seen lying so (s, the frames' clock)
};

struct DiskTrack {
  std::string name;
  DiskKind kind = DiskKind::ship;
  // Table frame, mm and degrees; absent when lost.
  std::optional<double> x;
  std::optional<double> y;
  std::optional<double> heading;
  Face face = Face::up;
  TrackState state = TrackState::visible;
  double sigma_mm = 0;
  // Extensions (docs/reference/commands/track.md); absent when not known.
  std::optional<Motion> motion;
  std::optional<double> age_s;       // time since last seen, for stale disks
  std::optional<TiltedRest> tilted;  // seen tilted at rest, and not lying flat since
};

// A disk came to rest between flips, or at the end of a move (extension to spec §5: a frame's
// "landings"). A flip lands and is flipped again within half a second, so a frame's pose alone
// misses most landings: the tracker reports each one once, in the frame where it is sure of it,
// with the pose measured while the disk lay still. `t` is when the disk came to rest.
// `tag_visible` is the ground truth's alone (the tracker reports only landings it saw): whether
// the landed face's tag was visible in some frame while the disk lay there.
struct Landing {
  std::string name;
  double x = 0;
  double y = 0;
  double heading = 0;
  Face face = Face::up;
  double sigma_mm = 0;
  double t = 0;
  std::optional<bool> tag_visible;
};

// Something over the play area that is no known disk (extension to spec §5, a frame's
// "foreign_mm"): a hand, a counter standing on its edge, one whose tag is not read. Its box on the
// table plane, table frame, mm.
struct ForeignBox {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  // Its boundary on the table plane (mm, in order around it) when the tracker measured it at the
  // camera's full resolution (a part about a disk's size, vision/foreign_shapes.h); empty for a
  // hand, an arm, or a tracker that did not ("foreign_outline_mm").
  std::vector<geom::Vec2> outline = {};
  // With an outline: the known disks it lies against — its pixels meet what the tracker takes for
  // that disk where it lies now, its outline and a margin of about 3 mm (vision/foreign_shapes.h) —
  // such as the rim of a counter under it, or a counter on its edge touching it ("foreign_against").
  std::vector<std::string> against = {};
  // Of those, the disks a counter could lie partly under showing this part: where the part meets
  // the disk it fits inside a counter touching or under it, whose rim shows wherever no known disk
  // hides it (vision/rim_under.h). A counter on its edge beside a flat one is against it, and often
  // not under it ("foreign_under"; a file without it: every disk it lies against).
  std::vector<std::string> under = {};
  // With an outline: the disks seen tilted at rest (a DiskTrack's `tilted`) whose tag lies in this
  // part: a counter on its edge, a leaning one — what the part is, or some of it
  // ("foreign_tilted").
  std::vector<std::string> tilted = {};
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

struct TrackFrame {
  long long frame = 0;
  double t = 0;
  std::vector<DiskTrack> disks;
  // Extension: the whole table is still and uncovered (absent when not known).
  std::optional<bool> settled;
  // Extension: the landings confirmed in this frame (usually none).
  std::vector<Landing> landings;
  // Extension: for how long (s) the picture of the play area has been still: nothing in it changed,
  // no disk moving or tilted. Unlike `settled` it does not ask that nothing foreign lie there (a
  // counter on its edge lies still; see `foreign`). Reading a drop needs the counters still for a
  // moment only (referee/counter_reading.h); absent when not known.
  std::optional<double> still_s;
  // Extension: what lies or hangs over the play area that is no known disk, part by part.
  std::vector<ForeignBox> foreign;
};

// The frame's track of the named disk; nullptr when it has none.
const DiskTrack* find_track(const TrackFrame& frame, std::string_view name);
// Where a track puts its disk on the table; none when it is lost or has no position or heading.
std::optional<geom::Pose> pose_of(const DiskTrack& track);

// How numbers are written: `output` rounds positions to 0.01 mm/deg, sigma to 0.01 mm (spec §5's
// output, what a person reads); `exact` keeps every bit, so that a recording's tracks read back
// give the referee exactly the frames it had live (spec §11).
enum class Precision { output, exact };
nlohmann::json to_json(const TrackFrame& frame, Precision precision = Precision::output);
std::string to_jsonl_line(const TrackFrame& frame, Precision precision = Precision::output);
TrackFrame parse_track_frame(const io::JsonCursor& cursor);
// Reads a whole JSONL file; errors name the file and "line N". Every number is checked against
// the bounds of engine/model/bounds.h (frame and time, place, heading, sigma_mm).
std::vector<TrackFrame> load_track_jsonl(const std::filesystem::path& file);

// Recorded times made fit to play back: a gap between consecutive frames longer than `max_gap_s`
// (a recording paused for a night, a clock that jumped) is shortened to `max_gap_s`, and every later
// frame's times (its landings' too) move with it. Returns one note per gap shortened, naming the
// frames ("frame 11 came 950400.0 s after frame 10: played back 5.0 s after it").
std::vector<std::string> cap_time_gaps(std::vector<TrackFrame>& frames, double max_gap_s);

}  // namespace diskref::model
