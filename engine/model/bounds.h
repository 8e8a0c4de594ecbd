#pragma once
// What is physically possible: the bounds every loader checks what it read against, in one place
// (docs/reference/limits.md lists them). A number can be valid JSON and still mean
// nonsense — a disk 2 km thick, a coordinate of 1e307 mm, a heading of 1e300 degrees, a negative
// uncertainty —; such a value is refused with the file, the JSON path and the bound, instead of
// reaching the geometry and coming out as null or as a silently empty result.
//
// The bounds are generous (a real table, disk or camera is far inside them): they are there to
// keep every number in a range where the arithmetic is exact enough and cannot overflow.

#include "engine/io/json_cursor.h"

namespace diskref::model::bounds {

// --- The table frame (mm) --------------------------------------------------------------------
// Anything on or around a table lies within 100 m of the play area's corner.
inline constexpr double kMaxCoordinateMm = 100'000;
// A play area is 10 mm to 20 m a side.
inline constexpr double kMinPlayAreaMm = 10;
inline constexpr double kMaxPlayAreaMm = 20'000;
// A disk, a template or a terrain piece is 0.1 mm to 5 m across (a shape's every size).
inline constexpr double kMinSizeMm = 0.1;
inline constexpr double kMaxSizeMm = 5'000;
// A disk's thickness (how far its tag lies above the table) is 0 to 200 mm.
inline constexpr double kMaxThicknessMm = 200;
// A tag's or corner marker's size_mm is 1 mm to 2 m.
inline constexpr double kMinTagMm = 1;
inline constexpr double kMaxTagMm = 2'000;
// An angle (a heading, a tag's offset, a turn) is within 100 turns either way.
inline constexpr double kMaxAngleDeg = 36'000;
// A position's 1-sigma uncertainty is 0 to 1 m.
inline constexpr double kMaxSigmaMm = 1'000;
// A tolerance (mm) given to the rules or the referee: 0 to 1 m.
inline constexpr double kMaxToleranceMm = 1'000;

// --- Time --------------------------------------------------------------------------------------
// A time into a session (a frame's t, an input's t, an age) is 0 to 10^7 s (115 days).
inline constexpr double kMaxTimeS = 1e7;
// A frame index is 0 to 10^9 (a year at 30 frames a second).
inline constexpr long long kMaxFrameIndex = 1'000'000'000;
// Played back, a gap between two recorded frames longer than this is shortened to it (and said).
inline constexpr double kMaxReplayGapS = 5;

// --- Cameras -----------------------------------------------------------------------------------
// An image is 16 to 16384 pixels a side.
inline constexpr int kMinImageSidePx = 16;
inline constexpr int kMaxImageSidePx = 16'384;
// A lens sees 1 to 170 degrees across the image, either way: its focal length in pixels is
// between side / (2 tan 85°) and side / (2 tan 0.5°).
inline constexpr double kMinFieldOfViewDeg = 1;
inline constexpr double kMaxFieldOfViewDeg = 170;
// Pixels are at most twice as tall as wide or wide as tall (0.5 <= fy / fx <= 2), and skewed by
// at most a tenth of fx.
inline constexpr double kMaxPixelAspect = 2;
inline constexpr double kMaxSkewOfFx = 0.1;
// The principal point lies in the image.
// Distortion (OpenCV's k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3 s4 tx ty): |k1..k6| <= 100,
// |p1|, |p2|, |s1..s4| <= 1, a sensor tilted at most 0.5 rad (|tx|, |ty|).
inline constexpr double kMaxRadialDistortion = 100;
inline constexpr double kMaxTangentialDistortion = 1;
inline constexpr double kMaxSensorTiltRad = 0.5;
// A projection-uncertainty grid in a camera file: 2..256 nodes a side.
inline constexpr int kMaxUncertaintyGridSide = 256;
// Reprojection errors and other quality figures: 0 to 1000 px (or mm).
inline constexpr double kMaxQualityFigure = 1'000;
// A camera at another resolution than its calibration is scaled when the aspect ratios agree to
// 1 %; otherwise it is another camera, or a cropped mode.
inline constexpr double kAspectTolerance = 0.01;
// The camera is 10 mm to 20 m above the table and within 20 m of the play area.
inline constexpr double kMinCameraHeightMm = 10;
inline constexpr double kMaxCameraDistanceMm = 20'000;

// --- Readers: each returns the value or throws InputError at the cursor, naming the bound -------
double coordinate_mm(const io::JsonCursor& c);  // |v| <= kMaxCoordinateMm
double play_area_side_mm(const io::JsonCursor& c);
double size_mm(const io::JsonCursor& c);         // kMinSizeMm .. kMaxSizeMm
double thickness_mm(const io::JsonCursor& c);    // 0 .. kMaxThicknessMm
double tag_size_mm(const io::JsonCursor& c);     // kMinTagMm .. kMaxTagMm
double angle_deg(const io::JsonCursor& c);       // |v| <= kMaxAngleDeg
double sigma_mm(const io::JsonCursor& c);        // 0 .. kMaxSigmaMm
double tolerance_mm(const io::JsonCursor& c);    // 0 .. kMaxToleranceMm
double time_s(const io::JsonCursor& c);          // 0 .. kMaxTimeS
long long frame_index(const io::JsonCursor& c);  // 0 .. kMaxFrameIndex
double quality_figure(const io::JsonCursor& c);  // 0 .. kMaxQualityFigure
int image_side_px(const io::JsonCursor& c);      // a whole number, kMinImageSidePx .. kMaxImageSidePx

// Whether a value read elsewhere (the command line, a computed pose) is within a bound.
constexpr bool within(double v, double lo, double hi) {
  return v >= lo && v <= hi;
}  // false for NaN

}  // namespace diskref::model::bounds
