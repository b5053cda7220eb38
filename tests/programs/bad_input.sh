#!/usr/bin/env bash
# Whole-program behaviour of the chapter programs (mostly the seq2seq ones, 01 and 02) on bad input: each mistake must
# give a one-line message naming the problem and exit code 2 before any training, and leave
# nothing written. Also: tiny corpora train instead of crashing, a save never replaces what
# is not a checkpoint, and the leftovers of a killed save are cleaned by the next one.
# (Killing a save at each of its steps is tested in tests/common/test_nn.cpp.)
#
# usage: tests/programs/bad_input.sh [BIN_DIR]     BIN_DIR holds the chapter programs (default: build/bin)
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
    refused "$ch --save FIFO" "--save a_fifo: it is not a folder (a FIFO, a socket or a device)" $ch --quick --out o --save a_fifo
    refused "$ch --save = --out" "--out o is that folder or inside it" $ch --quick --out o --save o/
    refused "$ch --out inside --save" "--out o/figures is that folder or inside it" $ch --quick --out o/figures --save o
    refused "$ch blank --translate" "--translate: the sentence is blank" $ch --quick --out o --translate "   "
done
refused "ch00 --out FILE" "--out a_file: it is a file, not a folder" ch00 --quick --out a_file
ln -s no_such_target a_dangling_link
refused "ch00 --out DANGLING-LINK" "--out a_dangling_link: it is a symbolic link to nothing, not a folder" ch00 --quick --out a_dangling_link
# A folder another run is writing to (here this script holds the lock, with flock(1), as a running
# program holds it): refused before any work, so that the two runs' figures never mix.
mkdir held_by_another_run
exec 9<held_by_another_run && flock -n 9
refused "ch00 --out HELD" "--out held_by_another_run: another run is writing there now" ch00 --quick --out held_by_another_run
exec 9<&-
works "ch00 --out FREED" ch00 --quick --out held_by_another_run
rm -rf held_by_another_run
refused "ch00 --out FIFO" "--out a_fifo: it is a FIFO, a socket or a device, not a folder" ch00 --quick --out a_fifo
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
refused "a changed value" "decoder.output.bias.npy is damaged: its bytes do not match the checksum" ch01 --quick --out o --load ck_nan --seed 7
cp -r ck ck_escape
sed -i 's|\tdecoder.output.bias.npy\t|\t../ck/decoder.output.bias.npy\t|' ck_escape/manifest.tsv
refused "manifest naming ../" "is not a plain file name inside the checkpoint folder" ch01 --quick --out o --load ck_escape --seed 7
cp -r ck ck_huge
sed -i 's|^\(decoder.output.bias\t\)[0-9]*|\1100000000000000000000000|' ck_huge/manifest.tsv
refused "dimension of 10^23" "bad or too large shape" ch01 --quick --out o --load ck_huge --seed 7
refused "missing checkpoint" "--load no_such_ck: no such folder" ch01 --quick --out o --load no_such_ck
refused "--load with --steps" "--load uses the saved model as it is, without training, so --steps would be ignored" \
    ch01 --quick --out o --load ck --steps 10
refused "ch07 --load with --lr" "so --lr would be ignored" ch07 --quick --out o --load ck --lr 0.1
refused "a folder that is no checkpoint" "--load exercises: not a checkpoint" ch01 --quick --out o --load exercises
# Chapter 03 runs parts 1-3 before it loads part 4's model: a --load that cannot work is refused first.
refused "ch03 missing checkpoint" "--load no_such_ck: no such folder" ch03 --quick --out o3 --load no_such_ck
works "ch03 save (Luong dot)" ch03 --quick --steps 2 --out o3 --save ck3
refused "ch03 --load of a Luong-dot checkpoint with --score general" "ck3" ch03 --quick --out o3b --load ck3 --score general

ln -s exercises ck_link
refused "--save onto a symbolic link" "--save ck_link: it is a symbolic link" ch01 --quick --steps 2 --out o --save ck_link

# ---- The model is saved as soon as training ends, before the sentence of --translate, whose
#      unknown words are noted before (not inside) the line of its translation.
if timeout 60 "$bin/ch01" --quick --steps 2 --out o --save ck_first --translate "le chat zorglub" > ../order.log 2>&1 &&
   [ "$(grep -n 'saved the model to ck_first' ../order.log | cut -d: -f1)" -lt "$(grep -n '^6\. le chat zorglub' ../order.log | cut -d: -f1)" ] &&
   grep -A1 '^6\. le chat zorglub' ../order.log | tail -n 1 | grep -q '^  note: not in the training vocabulary (read as <unk>): zorglub$' &&
   grep -A2 '^6\. le chat zorglub' ../order.log | tail -n 1 | grep -q '^   => '; then pass
else fail "save, then the sentence, its note, its translation: $(grep -A2 -e 'saved the model' -e '^6\.' ../order.log | tr '\n' '|')"; fi
refused "a 10,000-word sentence" "--translate: the sentence has 10000 words; the chapters translate at most 400" \
    ch07 --quick --out o --translate "$(yes mot | head -n 10000 | tr '\n' ' ')"

# ---- A run into an old --out leaves only its own figures; a killed render's folder goes.
works "train into o_fig" ch01 --quick --steps 2 --out o_fig --save ck_fig
mkdir o_fig/.render2147483646_0 o_fig/.render2147483645_1
touch o_fig/.render2147483646_0/.written-by-attn-plot o_fig/.render2147483646_0/loss_curves.png o_fig/.render2147483645_1/mine.txt
works "load into o_fig" ch01 --quick --out o_fig --load ck_fig
if [ ! -e o_fig/loss_curves.png ] && [ ! -e o_fig/loss_curves.gp ] && [ -e o_fig/scores_by_length.png ]; then pass
else fail "a --load run into an old --out kept the last run's training curves"; fi
if [ ! -e o_fig/.render2147483646_0 ] && [ -e o_fig/.render2147483645_1/mine.txt ]; then pass
else fail "render folders: the killed render's should go, the unmarked one stay: $(ls -a o_fig | grep render | tr '\n' ' ')"; fi

# ---- Seeds are recorded digit for digit, up to the largest a JSON reader keeps exactly.
works "an --out named like an option" ch01 --quick --steps 2 --out -o_dash
if [ -s -o_dash/encoder_states.png ]; then pass; else fail "--out -o_dash: no figure was drawn there"; fi
works "seed 12345678901" ch01 --quick --steps 2 --out o_seed --seed 12345678901
if grep -q '"seed": 12345678901,' o_seed/summary.json; then pass; else fail "seed recorded as $(grep '"seed"' o_seed/summary.json)"; fi
refused "seed 2^53" "--seed must be between 0 and 9007199254740991" ch01 --quick --seed 9007199254740992

# ---- A corpus with classic Mac line ends (CR only) reads as its lines.
tr '\n' '\r' <thirty.tsv >thirty_cr.tsv
if timeout 60 "$bin/ch01" --quick --steps 2 --out o_cr --data thirty_cr.tsv > ../cr.log 2>&1 &&
   grep -q "thirty_cr.tsv: 30 pairs" ../cr.log; then pass
else fail "CR-only corpus: $(grep -m1 -e 'thirty_cr' -e 'error' ../cr.log)"; fi

# ---- Flags a run would ignore, or a value it would replace, are refused.
refused "ch03 --width 0" "--width must be above 0 and below 100" ch03 --quick --width 0
for flag in "--save ck3" "--load ck" "--translate chat" "--data thirty.tsv" "--score general" "--steps 5"; do
    # shellcheck disable=SC2086
    refused "ch03 --no-translation $flag" "--no-translation runs parts 1-3 only, which do not use ${flag%% *}" \
        ch03 --quick --no-translation $flag
done
refused "ch07 --beam" "beam search is taught in chapter 08 now" ch07 --quick --out o --beam 4
refused "ch07 --beam=4" "./course run 08 --beam 4" ch07 --quick --out o --beam=4
refused "ch08 missing checkpoint" "--load no_such_ck: no such folder" ch08 --quick --out o8 --load no_such_ck
refused "ch08 --load of chapter 01's model" "ck" ch08 --quick --out o8 --load ck
refused "ch08 --load with --steps" "so --steps would be ignored" ch08 --quick --out o8 --load ck --steps 10
refused "ch08 --translate ''" "--translate" ch08 --quick --out o8 --translate ""
refused "ch08 --beam 0" "--beam must be between 1 and 64" ch08 --quick --out o8 --beam 0
refused "ch08 --length-penalty -1" "--length-penalty must be between 0 and 10" ch08 --quick --out o8 --length-penalty -1
refused "ch08 --length-penalty 1e308" "--length-penalty must be between 0 and 10 (1 divides by the length), got 1e+308" ch08 --quick --out o8 --length-penalty 1e308
refused "ch08 --kv-heads-study with --load" "--kv-heads-study compares trainings" ch08 --quick --out o8 --load ck --kv-heads-study
refused "ch07 --lr-end with a warm-up" "--lr-end shapes the cosine schedule, which runs only with --warmup 0" ch07 --quick --lr-end 0.1
works "ch07 --lr-end with --warmup 0 (flags accepted)" ch07 --quick --lr-end 0.1 --warmup 0 --ranges
refused "ch07 --embedding 0" "--embedding must be between 1 and 2048" ch07 --quick --embedding 0
refused "ch08 --memory-budget 0" "--memory-budget must be at least 0.1 (GiB), got 0" ch08 --quick --memory-budget 0
refused "ch08 --memory-budget 0.001" "--memory-budget must be at least 0.1 (GiB), got 0.001" ch08 --quick --memory-budget 0.001
refused "ch08 --length-penalty 10.0000001" "got 10.0000001" ch08 --quick --out o8 --length-penalty 10.0000001
refused "ch08 --length-penalty with --beam 1" "--beam 1 turns beam search off" ch08 --quick --out o8 --beam 1 --length-penalty 2
refused "ch08 --out --quick (a flag where the folder belongs)" "--out needs a value (--out DIR); '--quick' is a flag" ch08 --out --quick
refused "ch08 --memory-budget x" "--memory-budget" ch08 --quick --memory-budget x

# ---- Settings that cannot fit in memory are refused, with the estimate, before any work.
refused "ch07 at 2048 wide, 12 layers, batch 8192" "needs about" \
    ch07 --quick --out o_mem --embedding 2048 --heads 64 --feed-forward 8192 --layers 12 --batch 8192
refused "ch03 at batch 8192, hidden 2048" "training with --batch 8192, --hidden 2048" ch03 --quick --out o_mem --batch 8192 --hidden 2048
truncate -s 200G ../huge.tsv   # sparse: takes no room (and lies outside the folder compared)
refused "a 200 GB corpus" "--data ../huge.tsv (200.0 GiB) needs about" ch01 --quick --data ../huge.tsv
rm -f ../huge.tsv
# A limit on the address space (ulimit -v, 1.5 GiB) counts as well: 1024 channels need about 2.3 GiB.
# (In a subshell, which has the limit; its count of failures says how the case went.)
if ( ulimit -v 1500000 && refused "ch04 --conv-channels 1024 under ulimit -v" \
         "the run with --conv-channels 1024 needs about" ch04 --quick --out o_mem --conv-channels 1024 && [ "$failed" -eq 0 ] ); then
    pass
else
    failed=$((failed + 1))
fi
# Under a limit too small for OpenBLAS's work buffer a run would hang for ever: refused at once.
if ( ulimit -v 200000 && refused "ch00 under ulimit -v 200000" "the address-space limit (ulimit -v) is 195 MiB" \
         ch00 --quick --out o_mem && [ "$failed" -eq 0 ] ); then
    pass
else
    failed=$((failed + 1))
fi

# Ctrl-C while a figure is drawn: std::system ignores SIGINT in the program while gnuplot runs,
# and the program must still end by it, not go on and exit 0. A gnuplot that dies of SIGINT
# stands in for the terminal's Ctrl-C.
mkdir -p ../fake_gnuplot && printf '#!/bin/sh\nkill -INT $$\n' > ../fake_gnuplot/gnuplot && chmod +x ../fake_gnuplot/gnuplot
PATH="$(cd ../fake_gnuplot && pwd):$PATH" timeout 60 "$bin/ch00" --quick --out o_int > /dev/null 2>&1
code=$?
if [ "$code" -eq 130 ]; then pass; else fail "ch00 with gnuplot interrupted by Ctrl-C: exit code $code, expected 130 (SIGINT)"; fi
rm -rf o_int

echo "bad_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
