// The tests' precompiled header: the toolkit's (common/pch.hpp), plus doctest and the checks
// nearly every test file includes. (Only the build includes this file; tests include what
// they use.)
#pragma once
#include "common/pch.hpp"
#include <doctest/doctest.h>
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"
