#pragma once
// One definition of a quiet play area in a frame, for the two things the tracker measures from it
// (tracker.h, settle): whether the table is settled (quiet for the settle window: settle_clock.h)
// and how long its picture has been still (still_s: what a drop of counters waits for). They ask
// the same of a frame but in two ways, named in QuietRule.

namespace diskref::vision {

// What a frame shows of the play area, as the tracker's stages found it.
struct PlayAreaFrame {
  // The table pose and its geometry are known, the corner markers do not say the camera moved,
  // and the watch's picture of the table is current (not to be taken again through a new view).
  bool view_trusted = false;
  bool first_frame = true;   // nothing to compare with yet
  bool changing = false;     // the change detector saw a change over the play area
  bool disk_lifted = false;  // a disk's tag seen tilted somewhere new (turning over, carried)
  bool disk_moving = false;  // a disk moved within its settle time (DiskTracker::any_moving)
  // A disk moved in this frame, other than one found again that moved with the picture's last
  // change (DiskTracker::moved_now).
  bool disk_moved_now = false;
  bool foreign = false;  // something that is no disk over the play area (table_watch.h)
};

// Where the settle's quiet and stillness differ.
struct QuietRule {
  // Whether something that is no disk over the play area breaks the quiet. A hand held still keeps
  // the table from settling; what lies still and unexplained (a counter on its edge) does not
  // stop the picture being still: the referee weighs that from `foreign`.
  bool foreign_breaks_it = true;
  // Which disk motion breaks it: a disk still `moving` (settle_time_s after it last moved), or one
  // that moved in this frame only — stillness counts from the frame after a disk last moved, the
  // window the reader of still_s asks for being the only one.
  enum class DiskMotion { while_moving, in_this_frame };
  DiskMotion disk_motion = DiskMotion::while_moving;
};
inline constexpr QuietRule kSettleQuiet{.foreign_breaks_it = true, .disk_motion = QuietRule::DiskMotion::while_moving};
inline constexpr QuietRule kStillQuiet{.foreign_breaks_it = false, .disk_motion = QuietRule::DiskMotion::in_this_frame};

// Quiet: the view trusted, a frame to compare with, no change over the play area, no disk lifted
// or moving, and (as `rule` says) nothing but disks over it.
constexpr bool play_area_quiet(const PlayAreaFrame& frame, QuietRule rule) {
  const bool disk_moved =
      rule.disk_motion == QuietRule::DiskMotion::while_moving ? frame.disk_moving : frame.disk_moved_now;
  return frame.view_trusted && !frame.first_frame && !frame.changing && !frame.disk_lifted && !disk_moved &&
         !(rule.foreign_breaks_it && frame.foreign);
}

}  // namespace diskref::vision
