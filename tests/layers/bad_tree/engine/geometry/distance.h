#pragma once
// A broken house for the layer check's own test: geometry reaching up into the tracker.
#include "engine/geometry/vec2.h"
#include "vision/tracker.h"
