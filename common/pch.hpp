// The precompiled header: every heavy xtensor header, parsed once for the whole project.
// (Only the build includes this file; sources include what they use.)
#pragma once
#include "common/xtensor_compat.hpp"   // first: the allocator of every xt::xarray, then xtensor
#include <xtensor-blas/xlinalg.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>
