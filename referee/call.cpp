#include "referee/call.h"

#include <algorithm>
#include <cmath>

namespace diskref::referee {

const char* to_string(Call call) {
  switch (call) {
    case Call::yes:
      return "yes";
    case Call::no:
      return "no";
    case Call::too_close:
      return "too close to call";
  }
  return "?";
}

const char* to_key(Call call) {
  switch (call) {
    case Call::yes:
      return "yes";
    case Call::no:
      return "no";
    case Call::too_close:
      return "too_close";
  }
  return "?";
}

Call call_margin(double margin_mm, double sigma_mm, double k) {
  double band = k * std::max(0.0, sigma_mm);
  if (band == 0) return margin_mm >= 0 ? Call::yes : Call::no;
  if (margin_mm >= band) return Call::yes;
  if (margin_mm <= -band) return Call::no;
  return Call::too_close;
}

double combined_sigma(double sigma_a_mm, double sigma_b_mm) {
  return std::hypot(sigma_a_mm, sigma_b_mm);
}

Call both(Call a, Call b) {
  if (a == Call::no || b == Call::no) return Call::no;
  if (a == Call::yes && b == Call::yes) return Call::yes;
  return Call::too_close;
}

}  // namespace diskref::referee
