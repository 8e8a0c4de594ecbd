#pragma once
// A table scene: what never changes (the table top, the disks' looks, boards) and what the scene
// is at one instant (where each disk, hand and board is), with the ray casting that both the
// renderer and the ground truth use, so that what is drawn and what is called visible agree.
//
// Frames: table frame (spec §1, mm, z up). A disk's body frame: origin at the disk's centre on its
// bottom face, +x along its heading, +y to its left, +z up through its top face; the top face
// (z = thickness) shows `top_face`, the bottom face (z = 0) shows the other face mirrored in x, so
// that a flip about the front edge lands with exactly the other face's look.

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"
#include "print/disk_appearance.h"
#include "simulator/hand_model.h"
#include "simulator/table_surface.h"

namespace diskref::simulator {

struct DiskInstant {
  std::size_t disk = 0;  // registry index
  model::Face top_face = model::Face::up;
  cv::Matx33d rotation = cv::Matx33d::eye();  // table_from_body
  cv::Vec3d translation{0, 0, 0};             // table_from_body
  bool resting = true;                        // lying flat on the table (not turning over, not carried)
  bool moving = false;  // its pose is changing now (turning over, turning, carried); not between two flips
};

struct BoardInstant {
  std::size_t board = 0;                      // index into SceneModel::boards
  cv::Matx33d rotation = cv::Matx33d::eye();  // table_from_board
  cv::Vec3d translation{0, 0, 0};             // table_from_board
};

struct HandInstant {
  int id = 0;  // stable between instants of the same hand (its event)
  HandShape shape;
};

struct SceneInstant {
  double t = 0;
  std::vector<DiskInstant> disks;  // disks present (on the table or in a hand)
  std::vector<HandInstant> hands;
  std::optional<BoardInstant> board;
};

// Everything that does not change during a session.
struct SceneModel {
  const TableSurface* surface = nullptr;
  std::vector<print::DiskAppearance> disks;  // by registry index
  std::vector<print::BoardPattern> boards;
};

// What a ray meets first among the scene's objects (not the table top).
struct ObjectHit {
  enum class Kind { disk, hand, board };
  Kind kind = Kind::disk;
  int index = 0;        // disk registry index, hand id, or board index
  double distance = 0;  // along the unit ray
  cv::Vec3f color;      // shaded colour (linear BGR), when asked for
};

// Which objects of an instant to consider (indices into the instant's vectors); all when null.
struct Candidates {
  std::vector<int> disks;
  std::vector<int> hands;
  std::vector<uint32_t> hand_parts;  // per entry of `hands`: which of its parts (hand_model.h)
  bool board = false;
};

// Nearest object hit along a ray (unit direction, table frame) before max_distance. `skip_disk`
// (registry index) is ignored, for a disk's own tag. With `shade` false only the distance and
// what was hit are filled (cheaper; visibility tests).
std::optional<ObjectHit> cast_objects(const SceneModel& model, const SceneInstant& instant, const cv::Vec3d& origin,
                                      const cv::Vec3d& direction, double max_distance, const Candidates* candidates,
                                      bool shade, int skip_disk = -1);

// Colour of what a ray sees when nothing stands in its way: the table top (corner markers
// included), else the floor, else a dark room.
cv::Vec3f surface_color(const SceneModel& model, const cv::Vec3d& origin, const cv::Vec3d& direction);

// Where a ray meets the table plane (z = 0), if it does (in front of the origin).
std::optional<cv::Vec3d> table_hit(const cv::Vec3d& origin, const cv::Vec3d& direction);

// Light reaching a point (table frame) under the instant's hands: 1 in full light.
float hand_shadows(const SceneInstant& instant, const cv::Vec3d& point, const Candidates* candidates);

// A disk's body transform when it lies flat at pose (x, y, heading) with its bottom at height z.
void set_flat_pose(DiskInstant& disk, double x_mm, double y_mm, double heading_deg, double z_mm = 0);
// A turn of `heading_deg` about the table's z axis (a body lying flat with that heading).
cv::Matx33d rotation_about_z(double heading_deg);

}  // namespace diskref::simulator
