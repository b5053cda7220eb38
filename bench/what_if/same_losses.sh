#!/usr/bin/env bash
# Runs two benchmark binaries with --check and fails unless they print the same lines, the
# losses ("step N loss L") agreeing to a relative 1e-5.  Usage: same_losses.sh COMPOSED FUSED
set -euo pipefail
if [[ $# -ne 2 ]]; then
    echo "usage: same_losses.sh COMPOSED_BINARY FUSED_BINARY" >&2
    exit 2
fi
composed=$("$1" --check)
fused=$("$2" --check)
paste <(echo "$composed") <(echo "$fused") | awk -F'\t' '
    {
        split($1, a, " "); split($2, b, " ")
        if (a[1] == "step" && b[1] == "step" && a[2] == b[2]) {
            d = a[4] - b[4]; scale = a[4] < 0 ? -a[4] : a[4]
            same = (d < 0 ? -d : d) <= 1e-5 * scale
        } else {
            same = $1 == $2
        }
        if (!same) bad = 1
        print (same ? "same    " : "DIFFER  ") $1 "  |  " $2
    }
    END { if (NR == 0) { print "no output"; bad = 1 } exit bad }'
