#!/usr/bin/env bash
# Whole-program behaviour of the chapter programs (mostly the seq2seq ones, 01 and 02) on bad input: each mistake must
# give a one-line message naming the problem and exit code 2 before any training, and leave
# nothing written. Also: tiny corpora train instead of crashing, a save never replaces what
# is not a checkpoint, and the leftovers of a killed save are cleaned by the next one.
# (Killing a save at each of its steps is tested in tests/common/test_nn.cpp.)
#
# usage: tests/programs/bad_input.sh [BIN_DIR]     BIN_DIR holds ch00, ch01 and ch02 (default: build/bin)
# Runs in a temporary folder in about 15 seconds; prints "N passed, N failed"; exits 1 on a failure.
set -u
bin=$(cd "${1:-build/bin}" && pwd) || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/run" && cd "$work/run" || exit 1   # the messages go to $work, outside what is compared
export OPENBLAS_NUM_THREADS=1
passed=0 failed=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# Every path under the current folder with its contents' checksum (a FIFO has none).
snapshot() { find . -print0 | LC_ALL=C sort -z | xargs -0 -I{} sh -c '[ -f "{}" ] && md5sum "{}" || echo "{}"'; }

# refused NAME EXPECTED PROGRAM ARGS...: exit code 2, the first line on stderr holds EXPECTED
# (a usage error adds the usage line, nothing else), and no file or folder appeared or changed.
refused() {
    local name=$1 expected=$2 program=$3
    shift 3
    local before after code first lines
    before=$(snapshot)
    timeout 20 "$bin/$program" "$@" >../stdout.log 2>../stderr.log
    code=$?
    after=$(snapshot)
    first=$(head -n 1 ../stderr.log)
    lines=$(grep -vc '^usage: ' ../stderr.log)
    if [ "$code" -ne 2 ]; then fail "$name: exit code $code, expected 2 (stderr: $first)"; return; fi
    if [[ "$first" != *"$expected"* ]]; then fail "$name: message '$first' does not say '$expected'"; return; fi
    if [ "$lines" -ne 1 ]; then fail "$name: $lines lines of message, expected 1"; return; fi
    if [ "$before" != "$after" ]; then fail "$name: files were written or changed"; return; fi
    pass
}

# works NAME PROGRAM ARGS...: exit code 0.
works() {
    local name=$1 program=$2
    shift 2
    if timeout 60 "$bin/$program" "$@" >run.log 2>&1; then pass; else fail "$name: exit code $? ($(tail -n 1 run.log))"; fi
    rm -f run.log
}

touch a_file
mkdir -p exercises && echo "the learner's work" >exercises/mine.cpp
mkfifo a_fifo
printf 'Hi.\tSalut.\nRun!\tCours !\nWho?\tQui ?\n' >three.tsv
printf 'Hi.\tSalut.\nRun!\tCours !\nHi.\tBonjour.\n' >two_sources.tsv
for i in $(seq 1 30); do printf 'I have %s cats.\tJ'"'"'ai %s chats.\n' "$i" "$i"; done >thirty.tsv

# ---- Flags and outputs, checked before the first training step.
for ch in ch01 ch02; do
    refused "$ch --out FILE" "--out a_file: it is a file, not a folder" $ch --quick --out a_file
    refused "$ch --out FILE/sub" "a_file is a file, not a folder" $ch --quick --out a_file/sub
    refused "$ch --save ." "not '.' or '..'" $ch --quick --out o --save .
    refused "$ch --save FOLDER" "--save exercises: the folder exists and is not a checkpoint" $ch --quick --out o --save exercises
    refused "$ch --save FILE" "--save a_file: it is a file, not a checkpoint folder" $ch --quick --out o --save a_file
    refused "$ch --save = --out" "--out o is that folder or inside it" $ch --quick --out o --save o/
    refused "$ch --out inside --save" "--out o/figures is that folder or inside it" $ch --quick --out o/figures --save o
    refused "$ch blank --translate" "--translate: the sentence is blank" $ch --quick --out o --translate "   "
done
refused "ch00 --out FILE" "--out a_file: it is a file, not a folder" ch00 --quick --out a_file
refused "ch00 --points too large" "--points must be between 10 and 100000" ch00 --points 100000000
refused "--steps too large" "--steps must be between 1 and 10000000, got 99999999999" ch01 --steps 99999999999
refused "--hidden too large" "--hidden must be between 1 and 2048" ch01 --hidden 100000000
refused "--batch 0" "--batch must be between 1 and 8192" ch01 --batch 0
refused "--swap without --data" "--swap only applies to a corpus given with --data" ch01 --quick --swap
refused "--level without --data" "--level only applies to a corpus given with --data" ch01 --quick --level char
refused "--task with --data" "--task chooses a generated task" ch01 --data three.tsv --task dates
refused "bad --level" "--level must be word or char" ch01 --data three.tsv --level chars

# ---- Corpora: regular files only, and enough of them for three splits.
refused "--data FIFO" "a_fifo: cannot open the corpus: it is not a regular file" ch01 --out o --data a_fifo
refused "--data device" "/dev/zero: cannot open the corpus: it is not a regular file" ch01 --out o --data /dev/zero
refused "two distinct sources" "2 distinct source sentences; at least 3 are needed" ch01 --out o --data two_sources.tsv
works "three pairs train" ch01 --data three.tsv --steps 3 --out o_three
works "30 pairs, fewer than a batch, train" ch01 --data thirty.tsv --steps 3 --out o_thirty
works "30 pairs at the character level" ch02 --data thirty.tsv --level char --steps 2 --out o_chars
if grep -q '"test_count_' o_thirty/summary.json; then pass; else fail "30 pairs: no bucket counts in summary.json"; fi

# ---- Output that cannot be written is an error, not a silent success.
for run in "ch00 --help" "ch01 --ranges" "ch00 --quick --steps 2 --out o_full"; do
    # shellcheck disable=SC2086
    timeout 60 "$bin/"$run > /dev/full 2> ../stderr.log
    code=$?
    if [ "$code" -ne 0 ] && grep -q "cannot write to the standard output" ../stderr.log; then pass
    else fail "$run > /dev/full: exit code $code, stderr: $(head -n 1 ../stderr.log)"; fi
done
rm -rf o_full

# ---- Checkpoints: save, replace, clean up after killed saves, refuse damaged ones.
works "save" ch01 --quick --steps 2 --out o --save ck
mkdir ck.writing2147483646 ck.old2147483646 ck.writing99999999999   # killed saves (dead process ids) left the first two
works "save again" ch01 --quick --steps 2 --out o --save ck --seed 7
if [ "$(ls -d ck.*)" = "ck.writing99999999999" ]; then pass; else fail "leftovers of killed saves remain: $(ls -d ck.*)"; fi
rm -r ck.writing99999999999   # not a process id: not ours to remove
works "load" ch01 --quick --out o --load ck --seed 7 --translate "le chat noir"

cp -r ck ck_nan   # a NaN (float32 0x7fc00000) as the last value of a parameter
bytes=$(stat -c %s ck_nan/decoder.output.bias.npy)
printf '\x00\x00\xc0\x7f' | dd of=ck_nan/decoder.output.bias.npy bs=1 seek=$((bytes - 4)) conv=notrunc status=none
refused "NaN weights" "decoder.output.bias holds NaN or infinite values" ch01 --quick --out o --load ck_nan --seed 7
cp -r ck ck_escape
sed -i 's|\tdecoder.output.bias.npy$|\t../ck/decoder.output.bias.npy|' ck_escape/manifest.tsv
refused "manifest naming ../" "is not a plain file name inside the checkpoint folder" ch01 --quick --out o --load ck_escape --seed 7
cp -r ck ck_huge
sed -i 's|^\(decoder.output.bias\t\)[0-9]*|\1100000000000000000000000|' ck_huge/manifest.tsv
refused "dimension of 10^23" "bad or too large shape" ch01 --quick --out o --load ck_huge --seed 7
refused "missing checkpoint" "no_such_ck: no such checkpoint folder" ch01 --quick --out o --load no_such_ck

echo "bad_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
