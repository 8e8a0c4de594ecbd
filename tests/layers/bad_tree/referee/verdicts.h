#pragma once
// A broken house for the layer check's own test: the referee depending on OpenCV.
#include <opencv2/core.hpp>
