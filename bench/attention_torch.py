#!/usr/bin/python3
"""The PyTorch side of bench_attention.cpp: scaled dot-product attention, batch 1, one head,
d = 64, float32, n = 256 ... 32,768, forward alone (under no_grad) and forward + backward
(q, k and v require gradients; backward of the output with a fixed random output gradient dO,
the gradient of (out * dO).sum()). Each point runs in a forked child, which reports the median
time and the growth of its peak resident memory during one call, as the C++ side does.

Two implementations, where this torch has them:
  naive  softmax(bmm(q, k^T) / 8) @ v, which holds the n x n scores and weights;
  sdpa   torch.nn.functional.scaled_dot_product_attention (torch 2.0 on; Debian 12's torch
         1.13 has none), which on recent CPU builds tiles like the course's op.
The naive rows are printed under the C++ side's chapter 03 configs ("attention fwd 1 head d64
nN", "attention fwd+bwd 1 head d64 nN"); under its tiled configs ("attention fwd streaming 1 head
d64 nN", "attention fwd+bwd streaming ...") this script prints PyTorch's best, the fastest of the
implementations it measured at that n, and names it in "torch_impl".

The memory budget is the C++ side's: BENCH_ATTENTION_BUDGET_GIB (default 6), never more than
80 % of the memory available; a point whose memory, predicted from the last one measured as
growing like n^2, would pass it is not run, and its line says "skipped".
Run through ./bench/run (same thread count for both sides)."""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from torch_baseline import in_child, median_ms_per_call, peak_growth_mib  # noqa: E402

D = 64
LENGTHS = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
DEFAULT_BUDGET_GIB = 6.0
LARGEST_SHARE_OF_AVAILABLE = 0.8
PREDICTION_MARGIN = 1.1   # chapter 08's (scaling.hpp): "about the budget" counts as over it
PASSES = ["fwd", "fwd+bwd"]   # forward alone; forward and backward


def naive(q, k, v):
    return torch.softmax(torch.bmm(q, k.transpose(1, 2)) / 8.0, dim=-1) @ v


def sdpa(q, k, v):
    """Scaled by 1 / sqrt(64). With a head axis (batch, heads, n, d): torch's CPU build takes its
    fused, tiled kernel only for 4-d inputs, and falls back to the n x n composition for 3-d ones."""
    heads = lambda x: x.unsqueeze(1)   # (1, n, d) -> (1, 1, n, d), a view
    return torch.nn.functional.scaled_dot_product_attention(heads(q), heads(k), heads(v)).squeeze(1)


IMPLEMENTATIONS = {"naive": naive}
if hasattr(torch.nn.functional, "scaled_dot_product_attention"):
    IMPLEMENTATIONS["sdpa"] = sdpa


def one_call(attention, pass_, q, k, v, d_out):
    """Forward alone with no graph, or forward and backward down to the gradients of q, k and v
    (forgotten after each call, as a training step's zero_grad forgets them)."""
    if pass_ == "fwd":
        with torch.no_grad():
            attention(q, k, v)
        return
    attention(q, k, v).backward(d_out)
    q.grad = k.grad = v.grad = None


def schedule_for(n):
    """(calls, repeats, warmup): few timed calls where one call takes long."""
    if n <= 512:
        return 20, 5, 1
    if n <= 2048:
        return 5, 5, 1
    if n <= 4096:
        return 2, 5, 1
    # The call that measured the memory was the warm-up. Above 8192 one timed call: bench/run's
    # rounds give the median.
    return 1, 3 if n <= 8192 else 1, 0


def measure(attention, pass_, n):
    """The memory of the first call (after one at n = 2), then the median time per call."""
    torch.manual_seed(n)
    grad = pass_ == "fwd+bwd"

    def inputs(length):
        q, k, v = (torch.randn(1, length, D, requires_grad=grad) for _ in range(3))
        return q, k, v, torch.randn(1, length, D)
    one_call(attention, pass_, *inputs(2))
    q, k, v, d_out = inputs(n)
    peak = peak_growth_mib(lambda: one_call(attention, pass_, q, k, v, d_out))
    calls, repeats, warmup = schedule_for(n)
    return median_ms_per_call(lambda: one_call(attention, pass_, q, k, v, d_out), calls, repeats, warmup), peak


def requested_budget_mib():
    text = os.environ.get("BENCH_ATTENTION_BUDGET_GIB", "")
    if text == "":
        return DEFAULT_BUDGET_GIB * 1024
    try:
        gib = float(text)
    except ValueError:
        gib = float("nan")
    if not gib > 0:
        print(f"attention_torch.py: BENCH_ATTENTION_BUDGET_GIB must be a positive number of GiB, got '{text}'",
              file=sys.stderr)
        sys.exit(2)
    return gib * 1024


def available_mib():
    """MemAvailable, or less under a control group's limit (as common/memory.cpp reads them)."""
    available = None
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                available = int(line.split()[1]) / 1024
    try:
        with open("/sys/fs/cgroup/memory.max") as f_max, open("/sys/fs/cgroup/memory.current") as f_cur:
            room = (int(f_max.read()) - int(f_cur.read())) / 2**20
            available = room if available is None else min(available, room)
    except (OSError, ValueError):   # no control group, or "max": no limit
        pass
    return available


def budget_now_mib(requested):
    available = available_mib()
    return requested if available is None else min(requested, LARGEST_SHARE_OF_AVAILABLE * available)


def run_series(name, attention, pass_, requested):
    """{n: (ms, mib)} or {n: ("skipped", predicted_mib, budget_mib)} for every length."""
    results, last = {}, None
    for n in LENGTHS:
        budget = budget_now_mib(requested)
        if last is not None:
            last_n, last_mib = last
            predicted = last_mib * (n / last_n) ** 2
            if predicted * PREDICTION_MARGIN > budget:
                results[n] = ("skipped", predicted, budget)
                continue
        results[n] = in_child(lambda: measure(attention, pass_, n), f"{name} {pass_} n = {n}")
        last = (n, results[n][1])
    return results


def config(pass_, n, tiled):
    return f"attention {pass_}{' streaming' if tiled else ''} 1 head d64 n{n}"


def emit(config_name, result, threads, **fields):
    row = {"config": config_name, "impl": "torch", "threads": threads}
    if result[0] == "skipped":
        row.update(skipped="over the memory budget", predicted_mib=result[1], budget_mib=result[2])
    else:
        ms, mib = result
        row.update(ms_per_call=ms, peak_mib_growth=mib)
    row.update(fields)
    row["env"] = {"torch": torch.__version__, "implementations": sorted(IMPLEMENTATIONS)}
    print(json.dumps(row), flush=True)


def flops(pass_, n):   # the products: q k^T and p v, and backward four more
    return 4.0 * n * n * D * (1 if pass_ == "fwd" else 3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    threads = parser.parse_args().threads
    torch.set_num_threads(threads)
    requested = requested_budget_mib()
    for pass_ in PASSES:
        measured = {name: run_series(name, attention, pass_, requested) for name, attention in IMPLEMENTATIONS.items()}
        for n in LENGTHS:
            naive_result = measured["naive"][n]
            gflops = {} if naive_result[0] == "skipped" else {"gflops": flops(pass_, n) / (naive_result[0] * 1e6)}
            emit(config(pass_, n, tiled=False), naive_result, threads, torch_impl="naive", **gflops)
            ran = {name: r[n] for name, r in measured.items() if r[n][0] != "skipped"}
            if not ran:   # every implementation was over the budget: report the smallest need
                emit(config(pass_, n, tiled=True), min((r[n] for r in measured.values()), key=lambda s: s[1]),
                     threads, torch_impl="none")
                continue
            best = min(ran, key=lambda name: ran[name][0])
            emit(config(pass_, n, tiled=True), ran[best], threads, torch_impl=best,
                 gflops=flops(pass_, n) / (ran[best][0] * 1e6),
                 **{f"{name}_{unit}": result[i] for name, result in ran.items() for i, unit in enumerate(["ms", "mib"])})


if __name__ == "__main__":
    main()
