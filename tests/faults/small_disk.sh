#!/usr/bin/env bash
# What survives a full disk and a kill (docs/design.md, "Saved models and outputs"), on a small
# tmpfs of its own: the chapter programs fill the disk at many points of their writing, and are
# killed with SIGKILL at many moments of a run and of a save. After each, in every --out folder:
#   - no figure is cut short under its final name (a PNG ends with its IEND chunk, an SVG with
#     </svg>), and no temporary is left behind once a later run has finished there;
#   - summary.json and report.html, when both exist, are of one run (the page holds the very
#     text of the summary);
#   - a checkpoint folder is the whole old or the whole new model, and loads.
# A full disk must end the run with a one-line message and a non-zero exit code, never a crash.
#
# usage: tests/faults/small_disk.sh [BIN_DIR]    (root: it mounts a tmpfs; BIN_DIR default build/bin)
# Takes about a minute. Prints "N passed, N failed"; exits 1 on a failure.
set -u
bin=$(cd "${1:-build/bin}" && pwd) || exit 1
[ "$(id -u)" = 0 ] || { echo "small_disk: needs root (it mounts a tmpfs)"; exit 2; }
disk=$(mktemp -d) logs=$(mktemp -d)   # the logs live off the small disk, which fills up
cleanup() { umount "$disk" 2>/dev/null; rm -rf "$disk" "$logs"; }
trap cleanup EXIT
mount -t tmpfs -o size=8m tmpfs "$disk" || { echo "small_disk: cannot mount a tmpfs"; exit 1; }
export OPENBLAS_NUM_THREADS=1
passed=0 failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# outputs_sound DIR CONTEXT [after_a_finished_run]: the promises above for one --out folder.
outputs_sound() {
    local dir=$1 context=$2 finished=${3:-}
    local why
    if why=$(python3 - "$dir" "$finished" <<'EOF'

import os, sys
folder, finished = sys.argv[1], sys.argv[2] == "finished"
problems = []
for name in sorted(os.listdir(folder)):
    path = os.path.join(folder, name)
    if name.endswith(".png") and os.path.isfile(path):
        data = open(path, "rb").read()
        if not (data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"\0\0\0\0IEND\xaeB`\x82")):
            problems.append(name + " is cut short")
    if name.endswith(".svg") and os.path.isfile(path):
        if not open(path, "rb").read().rstrip().endswith(b"</svg>"):
            problems.append(name + " is cut short")
    if finished and (name.startswith(".render") or ".tmp" in name):
        problems.append(name + " was left behind")
summary, report = os.path.join(folder, "summary.json"), os.path.join(folder, "report.html")
if os.path.isfile(summary) and os.path.isfile(report):
    text = open(summary, encoding="utf-8").read().replace("</", "<\\/")
    if text not in open(report, encoding="utf-8").read():
        problems.append("summary.json and report.html are of different runs")
if problems:
    print("; ".join(problems))
    sys.exit(1)
EOF
    ); then pass; else fail "$context: $why"; fi
}

# fill_leaving KIB: a file takes all of the disk but KIB KiB.
fill_leaving() {
    rm -f "$disk/filler"
    local free_kib
    free_kib=$(df -k --output=avail "$disk" | tail -n 1)
    [ "$free_kib" -gt "$1" ] && head -c $(( (free_kib - $1) * 1024 )) /dev/zero > "$disk/filler" 2>/dev/null
    true
}

# ---- A full disk at many points of chapter 00's writing (1.7 MB of figures, summary and page).
for room in 0 16 64 160 400 800 1200; do
    rm -rf "$disk/out00"
    mkdir -p "$disk/out00"
    fill_leaving "$room"
    "$bin/ch00" --quick --out "$disk/out00" > "$logs/stdout.log" 2> "$logs/stderr.log"
    code=$?
    if [ "$code" -ne 0 ]; then
        lines=$(wc -l < "$logs/stderr.log")
        if [ "$code" -ge 128 ] || [ "$lines" -ne 1 ]; then
            fail "ch00 with $room KiB free: exit code $code, $lines lines on stderr: $(head -n 2 "$logs/stderr.log" | tr '\n' '|')"
        else pass; fi
    else
        pass   # everything fitted (the largest rooms)
    fi
    outputs_sound "$disk/out00" "ch00 with $room KiB free"
    rm -f "$disk/filler"
    "$bin/ch00" --quick --out "$disk/out00" > /dev/null 2>&1 || fail "ch00 after the disk had room again: exit code $?"
    outputs_sound "$disk/out00" "ch00 rerun after $room KiB free" finished
done

# ---- A full disk in the middle of a run into the folder of an earlier run: the figures there are
# all the earlier run's (the disk was full before the first figure) or none of them are.
for room in 200 400 800; do
    rm -rf "$disk/out00"
    "$bin/ch00" --quick --seed 1 --out "$disk/out00" > /dev/null 2>&1 || fail "ch00 --seed 1 into an empty disk: exit code $?"
    touch "$disk/second_run_starts"
    fill_leaving "$room"
    "$bin/ch00" --quick --seed 2 --out "$disk/out00" > /dev/null 2>&1
    earlier=$(find "$disk/out00" -maxdepth 1 \( -name '*.png' -o -name '*.svg' -o -name '*.gp' -o -name '*.dat' \) ! -newer "$disk/second_run_starts" | wc -l)
    all=$(find "$disk/out00" -maxdepth 1 \( -name '*.png' -o -name '*.svg' -o -name '*.gp' -o -name '*.dat' \) | wc -l)
    if [ "$earlier" -eq 0 ] || [ "$earlier" -eq "$all" ]; then pass
    else fail "ch00 into an earlier run's folder with $room KiB free: $earlier of $all figure files are the earlier run's"; fi
    rm -f "$disk/filler" "$disk/second_run_starts"
done

# ---- A full disk during a save: the old checkpoint stays whole, and loads.
rm -rf "$disk/out00"
"$bin/ch01" --quick --steps 2 --out "$disk/o1" --save "$disk/ck" > /dev/null 2>&1 || fail "the first save: exit code $?"
for room in 0 8 32 96; do
    fill_leaving "$room"
    "$bin/ch01" --quick --steps 2 --seed 7 --out "$disk/o1" --save "$disk/ck" > /dev/null 2> "$logs/stderr.log"
    code=$?
    rm -f "$disk/filler"
    if [ "$code" -eq 0 ] || [ "$code" -ge 128 ]; then fail "a save with $room KiB free: exit code $code"; else pass; fi
    if "$bin/ch01" --quick --out "$disk/o1" --load "$disk/ck" > /dev/null 2> "$logs/stderr.log"; then pass
    else fail "the checkpoint after a save with $room KiB free does not load: $(head -n 1 "$logs/stderr.log")"; fi
    leftovers=$(cd "$disk" && ls -d ck.* 2>/dev/null | tr '\n' ' ')
    if [ -z "$leftovers" ]; then pass; else fail "a failed save left $leftovers"; fi
done

# ---- SIGKILL at many moments of a run that draws figures and saves: the next run cleans up.
for delay in 0.05 0.1 0.2 0.3 0.45 0.6 0.8 1.0 1.3 1.7; do
    "$bin/ch01" --quick --steps 30 --seed 3 --out "$disk/o1" --save "$disk/ck" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    outputs_sound "$disk/o1" "ch01 killed after $delay s"
    # The checkpoint is whole: the old one (seed 42's vocabularies) or, when the kill came after
    # the save had finished (a fast machine), the new one (seed 3's); a mixture loads as neither.
    if "$bin/ch01" --quick --out "$disk/o1" --load "$disk/ck" > /dev/null 2> "$logs/stderr.log" ||
        "$bin/ch01" --quick --seed 3 --out "$disk/o1" --load "$disk/ck" > /dev/null 2>> "$logs/stderr.log"; then pass
    else fail "the checkpoint after a kill at $delay s does not load: $(head -n 1 "$logs/stderr.log")"; fi
    outputs_sound "$disk/o1" "ch01 --load after a kill at $delay s" finished
    leftovers=$(cd "$disk" && ls -d ck.* 2>/dev/null | tr '\n' ' ')
    [ -z "$leftovers" ] || "$bin/ch01" --quick --steps 2 --out "$disk/o1" --save "$disk/ck" > /dev/null 2>&1
    leftovers=$(cd "$disk" && ls -d ck.* 2>/dev/null | tr '\n' ' ')
    if [ -z "$leftovers" ]; then pass; else fail "the next save after a kill at $delay s left $leftovers"; fi
done

echo "small_disk: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
