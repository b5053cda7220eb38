#!/usr/bin/env bash
# Tests of ./course setup without touching the system: on Debian and Ubuntu it installs what is
# missing, unless the release's packages are outside the versions CMakeLists.txt supports (then it
# installs nothing and prints the conda-forge commands); elsewhere it prints each system's commands.
# apt-get, apt-cache, dpkg-query and sudo are stand-ins that record their calls; dpkg (for
# comparing versions) is the real one. Run by ./course test (ctest: course.setup).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fake=$(mktemp -d "${TMPDIR:-/tmp}/course-setup-test.XXXXXX")
trap 'rm -rf "$fake"' EXIT
failures=0 passes=0
source "$ROOT/tests/course/expect.sh"

# The supported ranges, as the build reads them: "name oldest newest package" per line.
ranges=$(grep -E '^course_find_dependency\(' "$ROOT/CMakeLists.txt" | tr '()' '  ' | awk '{print $2, $3, $4, $5}')
[ "$(wc -l <<< "$ranges")" -ge 3 ] || { echo "FAIL CMakeLists.txt names no version ranges"; exit 1; }
read -r _ xt_oldest xt_newest xt_package <<< "$(grep '^xtensor ' <<< "$ranges")"

# Stand-ins: every package reported missing; apt-cache's candidate for each package is
# $CANDIDATE_<package with - as _>, by default the oldest supported version (with an epoch and a
# Debian revision, as Debian writes some versions), and 1.0 for packages without a range.
cat > "$fake/apt-get" <<'STUB'
#!/bin/sh
echo "apt-get $*" >> "$CALLS"
STUB
cat > "$fake/apt-cache" <<'STUB'
#!/bin/bash
var=CANDIDATE_${2//-/_}
echo "$2:"; echo "  Installed: (none)"; echo "  Candidate: ${!var:-1.0-1}"
STUB
printf '#!/bin/sh\nexit 1\n' > "$fake/dpkg-query"
printf '#!/bin/sh\necho "sudo $1" >> "$CALLS"\nexec "$@"\n' > "$fake/sudo"
chmod +x "$fake"/*
export CALLS=$fake/calls PATH=$fake:$PATH
installed() { grep -q "^apt-get install .*$1" "$CALLS" 2> /dev/null; }

: > "$CALLS"
while read -r name oldest newest package; do export "CANDIDATE_${package//-/_}=9:$oldest-1"; done <<< "$ranges"
expect "on Debian with every package in range, setup installs the missing ones" 0 \
    "Installing: .*$xt_package" '^Done\.' -- env COURSE_SYSTEM=debian "$ROOT/course" setup
installed "$xt_package" && { passes=$((passes + 1)); echo "ok   apt-get install was called"; } \
    || { failures=$((failures + 1)); echo "FAIL apt-get install was not called: $(cat "$CALLS")"; }

# An xtensor one minor release older than the oldest supported (Ubuntu 22.04 has 0.23).
older=$(awk -F. -v OFS=. '{ $NF = $NF - 1; print }' <<< "$xt_oldest").10
: > "$CALLS"
expect "a release whose xtensor is too old: nothing installed, the versions named, conda offered" 1 \
    "$xt_package is $older here, the course needs xtensor $xt_oldest to $xt_newest\.x" 'conda create -n attention' \
    '!^Done' -- env COURSE_SYSTEM=debian "CANDIDATE_${xt_package//-/_}=$older-1ubuntu1" "$ROOT/course" setup
installed . && { failures=$((failures + 1)); echo "FAIL apt-get install was called: $(cat "$CALLS")"; } \
    || { passes=$((passes + 1)); echo "ok   apt-get install was not called"; }

newer=$(awk -F. -v OFS=. '{ $NF = $NF + 1; print }' <<< "$xt_newest").0
expect "a release whose xtensor is newer than the newest supported is turned away too" 1 \
    "$xt_package is $newer here" -- env COURSE_SYSTEM=debian "CANDIDATE_${xt_package//-/_}=$newer-1" "$ROOT/course" setup
expect "a package missing from the release's lists is named" 1 \
    "$xt_package is not in this system's package lists" \
    -- env COURSE_SYSTEM=debian "CANDIDATE_${xt_package//-/_}=(none)" "$ROOT/course" setup

# Every supported range appears in the conda-forge command, as name>=oldest,<next release.
conda_patterns=()
while read -r name oldest newest package; do
    next=$(awk -F. -v OFS=. '{ $NF = $NF + 1; print }' <<< "$newest")
    conda_patterns+=("\"$name>=$oldest,<$next\"")
done <<< "$ranges"
expect "setup --conda prints the conda-forge commands with every supported range" 0 \
    "${conda_patterns[@]}" 'export CMAKE_PREFIX_PATH=\$CONDA_PREFIX' -- "$ROOT/course" setup --conda
expect "on Fedora it prints the dnf command and the versions, and installs nothing" 1 \
    '^  sudo dnf install .*xtensor-devel.*xtensor-blas-devel' "xtensor $xt_oldest to $xt_newest\.x" 'not tested' \
    -- env COURSE_SYSTEM=fedora "$ROOT/course" setup
expect "on Arch it prints the pacman command and where xtensor-blas comes from" 1 \
    '^  sudo pacman -S' 'xtensor-blas from the AUR' -- env COURSE_SYSTEM=arch "$ROOT/course" setup
expect "on macOS it prints Homebrew for the tools and conda-forge for the libraries" 1 \
    '^  brew install cmake' "${conda_patterns[0]}" -- env COURSE_SYSTEM=macos "$ROOT/course" setup
expect "an unknown argument is a usage error" 2 "setup takes no argument but --conda" -- "$ROOT/course" setup --fedora

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
