#pragma once
// How far from zero a measured margin must be before diskref calls it: kCallSigmas of the margin's
// 1-sigma uncertainty (about 95 % confidence for a Gaussian error). One number for every way a
// margin is called (the live referee's verdicts, a photo's answers) and shown (a band of
// ± kCallSigmas sigma on the screen, the phone's page and the annotated photo), so that what is
// shown is what was called on.

namespace diskref::model {

inline constexpr double kCallSigmas = 2.0;

}  // namespace diskref::model
