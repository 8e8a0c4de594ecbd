#pragma once
// 2-D vectors and rotations in the table frame (millimetres). Plain values, inline operations.

#include <cmath>
#include <numbers>

namespace diskref::geom {

struct Vec2 {
  double x = 0;
  double y = 0;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) {
  return {a.x + b.x, a.y + b.y};
}
constexpr Vec2 operator-(Vec2 a, Vec2 b) {
  return {a.x - b.x, a.y - b.y};
}
constexpr Vec2 operator-(Vec2 a) {
  return {-a.x, -a.y};
}
constexpr Vec2 operator*(double s, Vec2 a) {
  return {s * a.x, s * a.y};
}
constexpr Vec2 operator*(Vec2 a, double s) {
  return {s * a.x, s * a.y};
}
constexpr Vec2 operator/(Vec2 a, double s) {
  return {a.x / s, a.y / s};
}
constexpr bool operator==(Vec2 a, Vec2 b) {
  return a.x == b.x && a.y == b.y;
}

constexpr double dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}
// z component of the 3-D cross product.
constexpr double cross(Vec2 a, Vec2 b) {
  return a.x * b.y - a.y * b.x;
}
// Rotated +90 degrees (counter-clockwise).
constexpr Vec2 perp(Vec2 a) {
  return {-a.y, a.x};
}
// sqrt of the dot product rather than std::hypot: millimetre values cannot overflow, and glibc's
// hypot costs a fifth of a signed-distance query.
inline double length(Vec2 a) {
  return std::sqrt(a.x * a.x + a.y * a.y);
}
constexpr double length_squared(Vec2 a) {
  return dot(a, a);
}
inline double distance(Vec2 a, Vec2 b) {
  return length(a - b);
}
// Unit vector along `a`; (1, 0) for the zero vector so callers never divide by zero.
inline Vec2 normalized(Vec2 a) {
  double l = length(a);
  return l > 0 ? a / l : Vec2{1, 0};
}
inline bool is_valid(Vec2 a) {
  return std::isfinite(a.x) && std::isfinite(a.y);
}

constexpr double deg_to_rad(double deg) {
  return deg * std::numbers::pi / 180.0;
}
constexpr double rad_to_deg(double rad) {
  return rad * 180.0 / std::numbers::pi;
}

// An angle in degrees wrapped to [0, 360).
inline double wrap_degrees(double deg) {
  double w = std::fmod(deg, 360.0);
  if (w < 0) w += 360.0;
  return w >= 360.0 ? 0.0 : w;
}

// Smallest signed difference a - b in degrees, in (-180, 180].
inline double angle_difference_deg(double a, double b) {
  double d = std::fmod(a - b, 360.0);
  if (d <= -180.0) d += 360.0;
  if (d > 180.0) d -= 360.0;
  return d;
}

// A rotation as a cosine/sine pair: no angle wrapping inside the maths.
struct Rot {
  double c = 1;
  double s = 0;

  static Rot from_degrees(double deg) {
    double r = deg_to_rad(deg);
    return {std::cos(r), std::sin(r)};
  }
  // Heading in [0, 360).
  double degrees() const { return wrap_degrees(rad_to_deg(std::atan2(s, c))); }
  // Unit vector this rotation turns +x into.
  constexpr Vec2 axis_x() const { return {c, s}; }
  constexpr Vec2 axis_y() const { return {-s, c}; }
};

constexpr Vec2 rotate(Rot q, Vec2 v) {
  return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y};
}
constexpr Vec2 inv_rotate(Rot q, Vec2 v) {
  return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y};
}
// q * r: first r, then q.
constexpr Rot compose(Rot q, Rot r) {
  return {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s};
}

}  // namespace diskref::geom
