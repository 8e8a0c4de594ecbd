#pragma once
// Calibration views: a board (chessboard or ChArUco) held in front of a camera, rendered exactly,
// with the true image positions of the corners a detector reports.
//
// The board is rendered by inverse mapping: every output supersample goes back through the lens
// model (distortion included) to a ray, which meets the board plane; the card's print is looked
// up there. Nothing is warped by a homography, so corner truth is exact under distortion.
//
// Frames: board frame as print/board_pattern.h (OpenCV's object points; z into the board).
// Camera frame as OpenCV's. camera_from_board: x_cam = R * x_board + t (mm). Pixels are raw
// image points in OpenCV's convention (pixel centres at integers).

#include <cstdint>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "print/board_pattern.h"
#include "simulator/image_effects.h"

namespace diskref::simulator {

// The board seen by `camera` (its image size, intrinsics and distortion) at pose
// camera_from_board, over a softly lit wall, with the effects; BGR, 8 bit. Deterministic for a
// seed. Throws std::invalid_argument for a bad board spec or bad effects.
cv::Mat render_board_view(const calib::CameraModel& camera, const cv::Matx33d& rotation_camera_from_board,
                          const cv::Vec3d& translation_camera_from_board, const print::BoardSpec& board,
                          const ImageEffects& effects, uint64_t seed);

// The true raw-image positions of the corners OpenCV's detectors report, for the same pose:
// chessboard inner corners in object-point order (row by row from the first inner corner;
// findChessboardCorners returns this order, or its reverse for a board seen upside down);
// ChArUco chessboard corners by id.
std::vector<cv::Point2d> board_corner_truth(const calib::CameraModel& camera,
                                            const cv::Matx33d& rotation_camera_from_board,
                                            const cv::Vec3d& translation_camera_from_board,
                                            const print::BoardSpec& board);

// `count` varied, plausible calibration poses (camera_from_board) for a camera: the printed side
// facing the camera, tilted up to ~45 degrees about varied axes, turned up to ~25 degrees in its
// plane, the whole card in view at different distances, and the board's middle spread over the
// image, corners included. Deterministic for a seed.
std::vector<std::pair<cv::Matx33d, cv::Vec3d>> calibration_poses(const calib::CameraModel& camera,
                                                                 const print::BoardSpec& board, int count,
                                                                 uint64_t seed);

// Whether the board's whole card is in the image (with `margin_px`) and its printed side faces
// the camera, at this pose.
bool board_fully_visible(const calib::CameraModel& camera, const cv::Matx33d& rotation_camera_from_board,
                         const cv::Vec3d& translation_camera_from_board, const print::BoardPattern& pattern,
                         double margin_px);

}  // namespace diskref::simulator
