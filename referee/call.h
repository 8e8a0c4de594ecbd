#pragma once
// How diskref calls a measured margin: yes, no, or "too close to call".
//
// Each disk's tracked position is known to sigma_mm (1-sigma, per axis). A distance between two
// independently measured disks is then known to sqrt(sa^2 + sb^2) along the line joining them. A
// verdict is called only when its margin is more than kCallSigmas of that from zero; otherwise it
// is too close to call and the referee decides. Heading uncertainty is not included (the tracker
// does not report it); it matters for flatted disks whose flats face each other.

#include "engine/model/call_band.h"

namespace diskref::referee {

inline constexpr double kCallSigmas = model::kCallSigmas;

enum class Call { yes, no, too_close };
// "yes", "no", "too close to call" (for people).
const char* to_string(Call call);
// "yes", "no", "too_close" (for files: spec §9's `call`).
const char* to_key(Call call);

// `margin_mm` > 0 means "yes" by that much (negative: "no"); sigma_mm is its 1-sigma uncertainty.
// yes when margin >= k sigma, no when margin <= -k sigma, else too close (a zero-sigma margin of
// exactly 0 is "yes": touching counts, as the spec's in_range is margin >= 0).
Call call_margin(double margin_mm, double sigma_mm, double k = kCallSigmas);

// 1-sigma of the distance between two independently measured disks.
double combined_sigma(double sigma_a_mm, double sigma_b_mm);

// Both must hold: yes only when both are yes; no when either is no; else too close.
Call both(Call a, Call b);

}  // namespace diskref::referee
