# The assertion the course's shell tests share (sourced, not run). The caller sets
# passes=0 failures=0 and ends with: echo "$passes passed, $failures failed"; [ $failures -eq 0 ]
#
# expect NAME WANTED_STATUS PATTERN... -- COMMAND...: runs COMMAND; the exit status must be
# WANTED_STATUS and its output (stdout and stderr) must match every extended regex PATTERN.
# A PATTERN starting with ! must NOT match. With SHOW=1 in the environment every output is
# printed, to read the messages themselves.
expect() {
    local name=$1 wanted=$2; shift 2
    local patterns=()
    while [ "$1" != -- ]; do patterns+=("$1"); shift; done
    shift
    local output status
    output=$("$@" 2>&1)
    status=$?
    local ok=1 why=""
    [ "$status" -eq "$wanted" ] || { ok=0; why="exit status $status, wanted $wanted"; }
    for pattern in "${patterns[@]}"; do
        if [[ $pattern == !* ]]; then
            grep -qE -- "${pattern#!}" <<<"$output" && { ok=0; why="$why; output matches '${pattern#!}'"; }
        else
            grep -qE -- "$pattern" <<<"$output" || { ok=0; why="$why; output lacks '$pattern'"; }
        fi
    done
    [ -z "${SHOW:-}" ] || sed 's/^/     > /' <<<"$output"
    if [ $ok -eq 1 ]; then passes=$((passes + 1)); echo "ok   $name"
    else failures=$((failures + 1)); echo "FAIL $name: ${why#; }"; sed 's/^/     | /' <<<"$output" | head -n 30; fi
}
