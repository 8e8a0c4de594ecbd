#pragma once
// The referee's tolerances and times (referee.h): given once, the same for every job.

namespace diskref::referee {

struct RefereeOptions {
  double off_path_tolerance_mm = 3.0;  // spec §9: a landing farther than this from its legal place warns
  double moved_mm = 1.5;               // a disk farther than this (and 3 sigma) from its books pose has moved
  double turned_deg = 2.0;             // ...or turned more than this
  double turn_tolerance_deg = 8.0;     // a heading change mid-move counted as a turn (evasive action)
  double start_tolerance_mm = 10.0;    // a disk at the start farther than this from the game file's pose warns
  double near_mm = 10.0;               // overlap verdicts for every disk this close to where a move ends
  // A drop of counters is read once the play area has been still this long after a counter moved
  // (settle_watch.h), sooner than the table's settle: a counter at rest changes nothing in the
  // picture, and 0.2 s is six frames of a 30 fps camera, twice the time the tracker takes to call a
  // disk still (DiskTrackerOptions::settle_time_s). 0: drops are read at the table's settle.
  double counter_still_s = 0.2;
  // Two frames further apart than this (s) are a camera gap (camera_gaps.h, spec §9): the camera
  // went away and came back. A 30 fps camera's frames are 33 ms apart (a 15 fps one's 67 ms), so a
  // frame or two dropped is far below it and is no gap: the tracker follows the table through that
  // as through a hand. A second is long enough for a disk to be moved unseen.
  double camera_gap_s = 1.0;
};

}  // namespace diskref::referee
