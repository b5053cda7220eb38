#!/usr/bin/env bash
# Tests of the learner's commands (check, hint in both languages, progress, reset, watch) on a
# scratch copy of the course: the untouched stub, a wrong solution, the right one, code that does not compile,
# runaway code (endless loop, abort, endless printing), and folders a learner moved away.
# Each case checks the output a learner reads and the exit code. Run by CI (.ci/run); about
# two minutes, most of it the scratch copy's first build.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/course-tool-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failures=0 passes=0

# ---- a scratch copy: the tracked files as they are now, committed in a repository of its own
cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$scratch" || exit 1
cd "$scratch" || exit 1
git init -q && git add -A && git -c user.name=test -c user.email=test@localhost commit -qm copy || exit 1
export COURSE_BUILD_DIR=$scratch/build COURSE_CHECK_TIMEOUT=5
STUB=exercises/00_foundations/softmax.cpp
SOLUTION=solutions/00_foundations/softmax.cpp

# expect NAME STATUS PATTERN... -- COMMAND... (tests/course/expect.sh)
source "$ROOT/tests/course/expect.sh"

# with_body CODE: the stub of 00.1 with its COURSE_TODO line replaced by CODE.
with_body() { sed "s|^\( *\)COURSE_TODO(\"00.1\");|\1$1|" "$scratch/.stub" > "$STUB"; }
cp "$STUB" .stub

echo "building the scratch copy (its first build)..."
expect "check on the untouched stub says todo and names the file, and that the first build takes minutes" 1 \
    '^First build: .*several minutes' \
    '^\[todo\] 00\.1 softmax: not implemented yet: exercises/00_foundations/softmax\.cpp' '^\[todo\] 00\.3' \
    -- ./course check 00
expect "progress counts the exercises from the course's own lists" 0 \
    '^0 of [0-9]+ exercises pass\.' 'Next: 00\.1 exercises/00_foundations/softmax\.cpp' '!Well done' \
    -- ./course progress

# A plausible mistake: the maximum of the whole matrix instead of each row's.
sed 's|const T m = row_math::max(x, n); .*|const T m = xt::amax(X)();|' "$SOLUTION" > "$STUB"
grep -q 'xt::amax(X)()' "$STUB" || { failures=$((failures + 1)); echo "FAIL the wrong solution could not be made: the reference solution's line changed"; }
expect "a wrong solution fails and names the failing properties; no first-build notice any more" 1 \
    '^\[fail\] 00\.1 softmax: edit exercises/00_foundations/softmax\.cpp' 'properties fail' '!\[pass\] 00\.1' \
    '!First build' \
    -- ./course check 00

cp "$SOLUTION" "$STUB"
expect "the right solution passes" 1 \
    '^\[pass\] 00\.1 softmax' 'solutions/00_foundations/softmax\.cpp' \
    -- ./course check 00
expect "progress shows the pass and points at the next exercise" 0 \
    '^1 of [0-9]+ exercises pass\.' 'Next: 00\.2' \
    -- ./course progress

with_body 'return X +;'
expect "a compile error shows the first error in the learner's own file" 1 \
    '^\[error\] 00\.1 softmax: your file does not compile' 'exercises/00_foundations/softmax\.cpp:[0-9]+' \
    -- ./course check 00

with_body 'std::exit(0);'
expect "code that ends the program before the tests run is not a pass" 1 \
    '^\[fail\] 00\.1' 'ended before its tests had run' 'exit\(\)' '!\[pass\] 00\.1' \
    -- ./course check 00

with_body 'throw std::runtime_error(std::string(300, (char)120) + " the end of a long message");'
expect "a long failure message is shown whole, wrapped, not cut" 1 \
    '^\[fail\] 00\.1' 'the end of a long message' \
    -- env COLUMNS=100 ./course check 00
expect "into a pipe, with no COLUMNS, the message stays on one line (for grep and the reader's pager)" 1 \
    '^\[fail\] 00\.1' 'x{300} the end of a long message' \
    -- env -u COLUMNS ./course check 00
expect "--verbose shows everything the checks printed, the runner's report included" 1 \
    '^\[fail\] 00\.1' '^\[done\] [0-9]+ test cases run' '!\.\.\.$' \
    -- ./course check 00 --verbose

with_body 'for (volatile int i = 0;; i = i + 1) {}'
expect "an endless loop is stopped and reported as a time-out" 1 \
    '^\[fail\] 00\.1' 'did not finish within 5 s' '!status 124' \
    -- ./course check 00

with_body 'std::abort();'
expect "an abort is named" 1 \
    '^\[fail\] 00\.1' 'SIGABRT' '!status 134' \
    -- ./course check 00

with_body 'for (;;) std::puts("all work and no play makes jack a dull boy");'
expect "endless printing is cut off at 1 MB" 1 \
    '^\[fail\] 00\.1' 'more than 1 MB of output' \
    -- ./course check 00
log_size=$(stat -c %s build/logs/check_00.1.log)
[ "$log_size" -le 1000000 ] && { passes=$((passes + 1)); echo "ok   the kept output is capped ($log_size bytes)"; } \
    || { failures=$((failures + 1)); echo "FAIL the kept output is $log_size bytes"; }

# hints: one at a time, in order; a bad id is one line and exit 2, with no stray errors
expect "the first hint" 0 '^Hint 1 of [0-9]+ for 00\.1' -- ./course hint 00.1
expect "the second hint" 0 '^Hint 2 of [0-9]+ for 00\.1' -- ./course hint 00.1
expect "an unknown exercise id" 2 'there is no exercise 09\.9' '!awk' -- ./course hint 9.9
expect "a malformed exercise id" 2 "'x' is not an exercise id" '!awk' -- ./course hint x
expect "an exercise number too long for a number is a malformed id, not an overflow" 2 \
    "'07\.99999999999999999999' is not an exercise id" -- ./course hint 07.99999999999999999999
echo abc > .course/hints/00.1
expect "a damaged hint counter starts the ladder again, and is written whole" 0 '^Hint 1 of [0-9]+ for 00\.1' '!unbound' \
    -- ./course hint 00.1
[ "$(cat .course/hints/00.1)" = 1 ] && [ -z "$(ls .course/hints | grep -v '^[0-9.]*$')" ] \
    && { passes=$((passes + 1)); echo "ok   the counter reads 1 and no temporary file is left"; } \
    || { failures=$((failures + 1)); echo "FAIL the hint counter: $(ls .course/hints)"; }
ln -s "$scratch/course" "$scratch/course-link"
expect "the course command works through a symbolic link" 0 '^Hint 2 of [0-9]+ for 00\.1' -- "$scratch/course-link" hint 00.1

# hints in Chinese: --lang, COURSE_LANG, or a zh_* locale in POSIX order; English otherwise,
# and when a chapter has no Chinese hints yet. A stand-in HINTS.zh.md for chapter 00: the
# English hints, each marked, so that the language of a hint shown is plain to see.
sed -E 's/^([0-9]+)\. /\1. 【中文】/' exercises/00_foundations/HINTS.md > exercises/00_foundations/HINTS.zh.md
rm -f exercises/01_encoder_decoder/HINTS.zh.md
plain() { env -u COURSE_LANG -u LC_ALL -u LC_MESSAGES -u LANG "$@"; }   # no language chosen
expect "--lang zh shows the Chinese hint" 0 '^00\.2 的第 1 条提示（共 [0-9]+ 条' '^1\. 【中文】' -- plain ./course hint 00.2 --lang zh
expect "COURSE_LANG=zh shows the next hint, in Chinese" 0 '^00\.2 的第 2 条提示' '^2\. 【中文】' -- plain COURSE_LANG=zh ./course hint 00.2
expect "--lang en overrides COURSE_LANG=zh" 0 '^Hint 3 of [0-9]+ for 00\.2' '!【中文】' -- plain COURSE_LANG=zh ./course hint 00.2 --lang en
expect "a zh_CN locale in LANG gives Chinese" 0 '^1\. 【中文】' -- plain LANG=zh_CN.UTF-8 ./course hint 00.3 --all
expect "LC_MESSAGES comes before LANG" 0 '^1\. [^【]' '!【中文】' -- plain LC_MESSAGES=en_US.UTF-8 LANG=zh_CN.UTF-8 ./course hint 00.3 --all
expect "LC_ALL comes before LC_MESSAGES" 0 '^1\. 【中文】' -- plain LC_ALL=zh_TW.UTF-8 LC_MESSAGES=C ./course hint 00.3 --all
expect "no language chosen: English" 0 '^1\. [^【]' '!【中文】' -- plain ./course hint 00.3 --all
expect "a chapter without Chinese hints falls back to English with a note" 0 'no Chinese hints for 01\.1 yet' '^Hint 1 of' \
    -- plain ./course hint 01.1 --lang zh
expect "an unknown language is one line and exit 2" 2 "--lang 'fr' is not a language of the course" '!awk' -- plain ./course hint 00.1 --lang fr
expect "a bad COURSE_LANG says where it came from" 2 "COURSE_LANG 'klingon' is not a language" -- plain COURSE_LANG=klingon ./course hint 00.1
expect "help mentions both languages" 0 'README\.zh\.md' '--lang zh' -- ./course help

# report: the path of a run's page, or of the index of every page; never needs a desktop
expect "help lists the report command" 0 '\./course report \[N\] \[--mine\]' -- ./course help
expect "report before any run says which run to make" 1 'no report yet at out/02_bahdanau_attention/report\.html: run \./course run 02 first' \
    -- ./course report 2
expect "report --mine before a --mine run says so" 1 'run \./course run 02 --mine first' -- ./course report 02 --mine
expect "report with an unknown flag is a usage error" 2 'report: unknown flag --open' -- ./course report 02 --open
mkdir -p out/02_bahdanau_attention out/mine/05_multi_head_attention
echo '<!DOCTYPE html>' > out/02_bahdanau_attention/report.html
echo '{"all_in_range": true}' > out/02_bahdanau_attention/summary.json
echo '<!DOCTYPE html>' > out/mine/05_multi_head_attention/report.html
echo '{"all_in_range": false}' > out/mine/05_multi_head_attention/summary.json
expect "report N prints the page's path, with no desktop to open it in" 0 "^$scratch/out/02_bahdanau_attention/report\.html\$" \
    -- env -u DISPLAY -u WAYLAND_DISPLAY ./course report 02
expect "report without N writes and prints the index" 0 "^$scratch/out/index\.html\$" -- env -u DISPLAY ./course report
expect "the index links every report, reference and --mine, with its verdict" 0 \
    'href="02_bahdanau_attention/report\.html">02_bahdanau_attention</a>: all metrics in range' \
    'href="mine/05_multi_head_attention/report\.html">mine/05_multi_head_attention</a>: <span class="out">some metrics out of range' \
    '!https?:' -- cat out/index.html
rm -rf out
rm -f exercises/00_foundations/HINTS.zh.md && git checkout -q -- exercises

# reset restores the stub from git, and refuses without a terminal unless --yes
expect "reset without --yes and without a terminal refuses" 1 'add --yes' -- ./course reset 00.1 < /dev/null
expect "reset --yes restores the stub" 0 'Restored exercises/00_foundations/softmax\.cpp' -- ./course reset 00.1 --yes
cmp -s "$STUB" .stub && { passes=$((passes + 1)); echo "ok   the restored file is the original stub"; } \
    || { failures=$((failures + 1)); echo "FAIL the restored file differs from the stub"; }
expect "reset of an unknown exercise" 2 'there is no exercise 09\.1' '!awk' -- ./course reset 9.1 --yes

# watch: re-checks when an exercise file is saved
watch_log=$scratch/watch.log
# watch_and_save READY_PATTERN [PATH]: starts ./course watch 00 (with PATH), waits for READY_PATTERN
# in its output, saves the solution over the stub, waits for the pass, stops the watcher.
watch_and_save() {
    PATH=${2:-$PATH} ./course watch 00 > "$watch_log" 2>&1 &
    local watcher=$!
    for _ in $(seq 60); do grep -q "$1" "$watch_log" && break; sleep 1; done
    sleep 2
    cp "$SOLUTION" "$STUB"
    for _ in $(seq 60); do grep -q '^\[pass\] 00\.1' "$watch_log" && break; sleep 1; done
    kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
    cp .stub "$STUB"
}
watch_and_save '^\[todo\] 00\.3'
if grep -q 'softmax\.cpp changed' "$watch_log" && grep -q '^\[pass\] 00\.1' "$watch_log"; then
    passes=$((passes + 1)); echo "ok   watch re-checks a saved exercise"
else
    failures=$((failures + 1)); echo "FAIL watch did not re-check the saved exercise:"; sed 's/^/     | /' "$watch_log" | tail -n 20
fi
[ ! -e .course/watch.stamp ] && { passes=$((passes + 1)); echo "ok   watch leaves no stamp file behind"; } \
    || { failures=$((failures + 1)); echo "FAIL watch left .course/watch.stamp behind"; }

# watch re-checks a file saved while the previous check was running (inotifywait was not watching then)
./course watch 00 > "$watch_log" 2>&1 &
watcher=$!
for _ in $(seq 60); do grep -q '^\[todo\] 00\.3' "$watch_log" && break; sleep 1; done
sleep 2
echo "// a first save" >> "$STUB"
# Once that check has reported 00.1 (its file read and judged), it goes on with 00.2 and 00.3:
# the solution saved now lands while it runs.
for _ in $(seq 100); do sed -n '/softmax\.cpp changed/,$p' "$watch_log" | grep -q '^\[todo\] 00\.1' && break; sleep 0.1; done
cp "$SOLUTION" "$STUB"
for _ in $(seq 60); do grep -q '^\[pass\] 00\.1' "$watch_log" && break; sleep 1; done
kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
cp .stub "$STUB"
if grep -q '^\[pass\] 00\.1' "$watch_log"; then
    passes=$((passes + 1)); echo "ok   watch re-checks a file saved during the previous check"
else
    failures=$((failures + 1)); echo "FAIL watch missed a save made during a check:"; sed 's/^/     | /' "$watch_log" | tail -n 20
fi

# watch when inotifywait cannot start: one attempt, a note, then it looks every second
mkdir -p "$scratch/broken"
printf '#!/bin/sh\necho start >> "%s/broken/starts"\necho "Failed to watch exercises; upper limit on inotify watches reached!" >&2\nexit 1\n' \
    "$scratch" > "$scratch/broken/inotifywait"
chmod +x "$scratch/broken/inotifywait"
watch_and_save 'looking for saved files every second' "$scratch/broken:$PATH"
starts=$(wc -l < "$scratch/broken/starts" 2>/dev/null || echo 0)
if grep -q 'upper limit on inotify watches' "$watch_log" && grep -q '^\[pass\] 00\.1' "$watch_log" && [ "$starts" -eq 1 ]; then
    passes=$((passes + 1)); echo "ok   watch falls back to looking every second when inotifywait cannot start, and says why"
else
    failures=$((failures + 1)); echo "FAIL watch with a broken inotifywait (started $starts times):"; sed 's/^/     | /' "$watch_log" | tail -n 20
fi

# a learner who starts at chapter 01: its checks pass, and chapter 01 calls no exercise of chapter 00
cp solutions/01_encoder_decoder/*.cpp exercises/01_encoder_decoder/
expect "check: a chapter that calls no earlier exercise is ready for --mine" 0 'Every exercise of chapter 01 passes. Now: \./course run 01 --mine' \
    '!earlier exercises' -- ./course check 01
expect "progress goes on after the last exercise that passes, not back to the first unfinished" 0 \
    'Next: 02\.1 ' '!Next: 00\.' -- ./course progress
sleep 1
git checkout -q -- exercises/01_encoder_decoder/gru_cell.cpp   # the stub again, saved after its last check
expect "progress checks again an exercise saved after its last check" 0 '^  01\.1 +gru_cell +todo' \
    '^  01\.2 +encode +pass +[a-z]' '^Checked again, their files having changed since their last check:( [0-9]+\.[0-9]+)* 01\.1[ .]' \
    '!\(edited\)' -- ./course progress
# the solution put back with an older time (as a restore within the second of the last check
# leaves it): the file's content, not its time, says it changed
cp solutions/01_encoder_decoder/gru_cell.cpp exercises/01_encoder_decoder/ && touch -d '2001-01-01' exercises/01_encoder_decoder/gru_cell.cpp
expect "progress checks again a file put back with an older time" 0 '^  01\.1 +gru_cell +pass' '!\(edited\)' -- ./course progress
git checkout -q -- exercises/01_encoder_decoder

# a learner who starts at chapter 02: --mine runs their chapter 02 and the reference code for the
# earlier exercises chapter 02 calls (chapters/02_bahdanau_attention/earlier_exercises.tsv), named
cp solutions/02_bahdanau_attention/*.cpp exercises/02_bahdanau_attention/
expect "check names exactly the earlier exercises --mine calls that are still stubs" 0 \
    'Every exercise of chapter 02 passes. Now: \./course run 02 --mine' 'not written: 00\.1 00\.2 01\.1 01\.2 01\.3;' \
    -- ./course check 02
expect "run --mine from chapter 02 runs, the reference code standing in for the stubs, and says so" 0 \
    '^note: your exercises 00\.1 00\.2 01\.1 01\.2 01\.3 of earlier chapters are still stubs' \
    'the reference code stood in for your exercises 00\.1 00\.2 01\.1 01\.2 01\.3' \
    -- ./course run 02 --mine --quick --steps 3 --out "$scratch/mine02"
grep -q '"reference_stand_ins": "00.1 00.2 01.1 01.2 01.3"' "$scratch/mine02/summary.json" && passes=$((passes + 1)) ||
    { failures=$((failures + 1)); echo "FAIL the --mine run's summary.json does not record the stand-ins"; }
cp solutions/00_foundations/softmax.cpp exercises/00_foundations/   # solved: the learner's code runs now
expect "an earlier exercise once solved is the learner's code in the next --mine run" 0 \
    '^note: your exercises 00\.2 01\.1 01\.2 01\.3 of earlier chapters' \
    -- ./course run 02 --mine --quick --steps 3 --out "$scratch/mine02"
git checkout -q -- exercises/02_bahdanau_attention exercises/00_foundations

# a learner who moved the solutions away (not to be tempted) or lost the exercise lists
mv solutions ../solutions.away.$$
expect "progress without solutions/ still lists every exercise" 0 '^  00\.1 ' '^  02\.4 ' -- ./course progress
expect "hint without solutions/ works" 0 '^Hint [0-9]+ of [0-9]+ for 00\.1' -- ./course hint 00.1
expect "check without solutions/ says why it cannot run" 1 'solutions/00_foundations is missing' '!Every exercise' -- ./course check 00
mv ../solutions.away.$$ solutions
mkdir -p ../lists.away.$$ && mv chapters/00_foundations/exercises.tsv ../lists.away.$$/
expect "a missing exercise list is an error, not an empty course" 1 'exercises\.tsv is missing' '!Well done' -- ./course progress
mv ../lists.away.$$/exercises.tsv chapters/00_foundations/ && rmdir ../lists.away.$$

# a build configured without the exercises (-DCOURSE_WITH_EXERCISES=OFF): said once, nothing recorded
cmake -S . -B "$scratch/build-off" -DCOURSE_WITH_EXERCISES=OFF > /dev/null 2>&1
rm -f .course/status.tsv
expect "check in a build without exercises says so and how to turn them on" 2 \
    'configured with -DCOURSE_WITH_EXERCISES=OFF' 'COURSE_WITH_EXERCISES=ON' '!does not compile' \
    -- env COURSE_BUILD_DIR="$scratch/build-off" ./course check 00
[ ! -s .course/status.tsv ] && passes=$((passes + 1)) || { echo "FAIL: that check recorded a status"; failures=$((failures + 1)); }
expect "run --mine in a build without exercises says the same" 2 'configured with -DCOURSE_WITH_EXERCISES=OFF' \
    -- env COURSE_BUILD_DIR="$scratch/build-off" ./course run 00 --mine --quick
expect "run --out with a flag where the folder belongs: the program refuses it" 2 \
    "'--quick' is a flag" -- ./course run 00 --out --quick

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
