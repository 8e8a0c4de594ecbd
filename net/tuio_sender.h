#pragma once
// diskref's disks as TUIO 1.1 objects (/tuio/2Dobj over OSC/UDP, liblo), so that tangible-table
// software written for reacTIVision sees them. Each frame sent is one OSC bundle:
//   source diskref@NAME, alive S..., set S i x y a X Y A m r (one per disk), fseq F
// - S, the session id: one per disk while it stays on the table (a disk lost and found again is
//   a new session, as a fiducial taken away and put back is in reacTIVision); from 1;
// - i, the symbol id: the tag id of the face that is up (the registry's tag on that face);
// - x, y: the position normalised to the play area, TUIO's way: 0..1, origin at the top left seen
//   from above with y down (x = x_mm / width, y = 1 - y_mm / height: the table frame's +y is up);
// - a: the angle in radians, 0..2pi, clockwise in that y-down view (2pi - heading in radians);
// - X Y A m r (velocities, accelerations): 0: diskref does not send them.
// Disks visible or stale are alive; a lost disk is not. A send that fails (nobody listening, the
// host unknown) is reported once and sending goes on.

#include <map>
#include <memory>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "net/endpoint.h"
#include "net/problem_reports.h"

namespace diskref::net {

// One /tuio/2Dobj "set", computed (the sender's arithmetic, testable without a socket).
struct TuioObject {
  int session = 0;
  int symbol = 0;
  float x = 0, y = 0, angle = 0;
};

class TuioSender {
 public:
  // Throws std::runtime_error when the destination cannot be resolved.
  TuioSender(const Endpoint& to, std::string source_name, model::TableSpec table, model::DiskRegistry registry,
             ProblemReports& problems);
  ~TuioSender();
  TuioSender(const TuioSender&) = delete;
  TuioSender& operator=(const TuioSender&) = delete;

  // Sends the frame's bundle; returns the objects it set.
  std::vector<TuioObject> send(const model::TrackFrame& frame);

 private:
  struct Address;
  std::unique_ptr<Address> address_;
  std::string source_;
  model::TableSpec table_;
  model::DiskRegistry registry_;
  ProblemReports& problems_;
  std::map<std::string, int> sessions_;  // disk name -> session id, while alive
  int next_session_ = 1;
  int fseq_ = 0;
};

}  // namespace diskref::net
