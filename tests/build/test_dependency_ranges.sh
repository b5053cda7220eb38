#!/usr/bin/env bash
# Tests of cmake/CourseDependencies.cmake, the configure-time check of the libraries' versions:
# a fake package "fakelib" installed at several versions, and a one-line project that asks for
# 0.24 to 0.27, as CMakeLists.txt asks for xtensor. Inside the range it configures and says which
# version it found; outside it stops with the found and the supported versions (or warns, with
# COURSE_ALLOW_UNTESTED_VERSIONS); a missing package is named with its Debian package; the C++
# standard follows the compile features the found xtensor target asks for.
# Run by ./course test (ctest: build.dependency_ranges).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/course-ranges-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failures=0 passes=0
source "$ROOT/tests/course/expect.sh"

# install_fake VERSION [FEATURE]: fakelib's config files at VERSION under $scratch/prefix, with an
# imported target "xtensor" that asks for FEATURE (cxx_std_14 by default), as xtensor's does.
install_fake() {
    rm -rf "$scratch/prefix"
    mkdir -p "$scratch/prefix/lib/cmake/fakelib"
    printf 'set(PACKAGE_VERSION "%s")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n' "$1" \
        > "$scratch/prefix/lib/cmake/fakelib/fakelibConfigVersion.cmake"
    printf 'add_library(xtensor INTERFACE IMPORTED)\nset_target_properties(xtensor PROPERTIES INTERFACE_COMPILE_FEATURES "%s")\n' \
        "${2:-cxx_std_14}" > "$scratch/prefix/lib/cmake/fakelib/fakelibConfig.cmake"
}
mkdir -p "$scratch/project"
cat > "$scratch/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(ranges NONE)
include($ROOT/cmake/CourseDependencies.cmake)
course_find_dependency(fakelib 0.24 0.27 libfakelib-dev)
set(xtensor_VERSION \${fakelib_VERSION})
course_choose_cxx_standard()
CMAKE
# CMake wraps its messages: the output is read as one line.
configure() {
    rm -rf "$scratch/build"
    cmake -S "$scratch/project" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" "$@" 2>&1 | tr -s ' \n' '  '
}

install_fake 0.24.3
expect "the oldest supported version configures and is named" 0 'Found fakelib 0\.24\.3 \(the course supports 0\.24 to 0\.27\.x\)' \
    'C\+\+ standard: C\+\+17' -- configure
install_fake 0.27.1 cxx_std_20
expect "a patch release of the newest supported version configures, and C++20 follows the target" 0 \
    'Found fakelib 0\.27\.1' 'C\+\+ standard: C\+\+20' -- configure
install_fake 0.23.10
expect "an older version stops the configure, naming the found and the supported versions" 1 \
    'fakelib 0\.23\.10 \(found in .*prefix/lib/cmake/fakelib\) is outside the versions' '0\.24 to 0\.27\.x' \
    'COURSE_ALLOW_UNTESTED_VERSIONS=ON' -- configure
install_fake 0.28.0
expect "a newer version stops the configure too" 1 'fakelib 0\.28\.0 .*is outside the versions' -- configure
expect "COURSE_ALLOW_UNTESTED_VERSIONS turns the stop into a warning" 0 'CMake Warning' 'Building anyway' \
    -- configure -DCOURSE_ALLOW_UNTESTED_VERSIONS=ON
rm -rf "$scratch/prefix"
expect "a missing library is named with its Debian package and ./course setup" 1 \
    'fakelib was not found\. Install it with \./course setup' 'package libfakelib-dev' -- configure

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
