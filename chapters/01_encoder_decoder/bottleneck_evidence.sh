#!/usr/bin/env bash
# Is chapter 01's failure on long sentences the context-vector bottleneck, or just too little
# training? This trains chapter 01 at its default recipe and at twice its steps, and chapter
# 02 (attention) at its own default recipe, all with the same seed, task, sizes and batch,
# then prints BLEU by source length side by side. If more training were the cure, chapter
# 01's long buckets would improve with twice the steps.
#
#   chapters/01_encoder_decoder/bottleneck_evidence.sh [--seed N]     (about 12 minutes on a quiet machine)
#
# Runs the built programs build/bin/ch01 and build/bin/ch02 (./course build, or cmake) from
# the course's folder. Chapter 01's default run is written to out/01_encoder_decoder, as
# `./course run 01` would (the same settings and seed give the same run), so that chapter 02
# compares with it; the other runs go to out/bottleneck/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seed=42
case "${1:-}" in
    --seed) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "bottleneck_evidence.sh: --seed needs a number, e.g. --seed 1" >&2; exit 2; }
            seed=$2 ;;
    "") ;;
    *) echo "bottleneck_evidence.sh: unknown argument '$1'; usage: $0 [--seed N]" >&2; exit 2 ;;
esac
for program in build/bin/ch01 build/bin/ch02; do
    [[ -x $program ]] || { echo "bottleneck_evidence.sh: $program is missing; build it first (./course build)" >&2; exit 2; }
done

# A number from one of our summary.json files, a setting ("key": 0.5,) or a metric
# ("key": {"value": 0.5, ...), with three decimals.
value() {
    local number
    number=$(sed -n -e "s/^ *\"$2\": {\"value\": \\([^,]*\\),.*/\\1/p" -e "s/^ *\"$2\": \\([^,{]*\\),*\$/\\1/p" "$1/summary.json" | head -n 1)
    if [[ $number =~ ^[0-9]+$ ]]; then printf '%s' "$number"
    elif [[ $number =~ ^[-0-9.e+]+$ ]]; then printf '%.3f' "$number"
    else printf '%s' "${number:-n/a}"; fi
}

run() {   # run LABEL PROGRAM ARGS...: trains, keeps the log beside the summary
    local label=$1; shift
    echo "== $label: $*" >&2
    "$@" > "$log_dir/$label.log" 2>&1 || { tail -n 20 "$log_dir/$label.log" >&2; echo "bottleneck_evidence.sh: $label failed" >&2; exit 1; }
}

log_dir=out/bottleneck/seed$seed
mkdir -p "$log_dir"
one=out/01_encoder_decoder
run ch01_default build/bin/ch01 --seed "$seed" --out "$one"
steps=$(value "$one" steps)
two=$log_dir/ch01_${steps}x2
run ch01_twice build/bin/ch01 --seed "$seed" --steps $((2 * steps)) --out "$two"
attention=$log_dir/ch02_default
run ch02_default build/bin/ch02 --seed "$seed" --out "$attention"

printf '\nBLEU by source length (test set, seed %s)\n\n' "$seed"
printf '| source length | 01, %s steps | 01, %s steps | 02, %s steps |\n' "$steps" "$((2 * steps))" "$(value "$attention" steps)"
printf '|---|---|---|---|\n'
for bucket in 1-10 11-20 21-30 31-40; do
    printf '| %s | %s | %s | %s |\n' "$bucket" "$(value "$one" "test_bleu_$bucket")" "$(value "$two" "test_bleu_$bucket")" \
        "$(value "$attention" "test_bleu_$bucket")"
done
printf '| all | %s | %s | %s |\n' "$(value "$one" test_bleu)" "$(value "$two" test_bleu)" "$(value "$attention" test_bleu)"
printf '| final validation loss | %s | %s | %s |\n' "$(value "$one" final_valid_loss)" "$(value "$two" final_valid_loss)" \
    "$(value "$attention" final_valid_loss)"
printf '| training time (s) | %s | %s | %s |\n' "$(value "$one" train_seconds)" "$(value "$two" train_seconds)" \
    "$(value "$attention" train_seconds)"
