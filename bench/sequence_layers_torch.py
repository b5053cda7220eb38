#!/usr/bin/python3
"""The PyTorch side of bench_sequence_layers.cpp: one forward + backward (loss = sum of the
outputs) of a self-attention layer (three Linear without bias, softmax(Q K^T / sqrt(d)) V; the
same math as chapter 03's layer, not nn.MultiheadAttention), an nn.GRU and an nn.Conv1d(d, d, 3,
padding=1), at d = 64, batch 1, float32, n = 16 ... 2048 (or --up-to N). Each point runs in a forked child,
which reports the median time and the growth of its peak resident memory, as the C++ side does.
Same JSON lines. Run through ./bench/run (same thread count for both sides)."""
import argparse
import json
import math
import sys
import time

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from torch_baseline import in_child, median_ms_per_call, peak_growth_mib  # noqa: E402

LAYERS = ["self-attention", "GRU", "convolution k3"]
THEORY = {"self-attention": 2, "GRU": 1, "convolution k3": 1}


def make_step(layer, n, d):
    x = torch.randn(1, n, d, requires_grad=True)
    if layer == "self-attention":
        W_q, W_k, W_v = (torch.nn.Linear(d, d, bias=False) for _ in range(3))
        params = [*W_q.parameters(), *W_k.parameters(), *W_v.parameters()]

        def forward():
            q, k, v = W_q(x), W_k(x), W_v(x)
            return torch.softmax(q @ k.transpose(1, 2) / math.sqrt(d), dim=-1) @ v
    elif layer == "GRU":
        gru = torch.nn.GRU(d, d, batch_first=True)
        params = list(gru.parameters())

        def forward():
            return gru(x)[0]
    else:
        conv = torch.nn.Conv1d(d, d, 3, padding=1)
        params = list(conv.parameters())

        def forward():   # PyTorch's Conv1d reads (batch, channels, n)
            return conv(x.transpose(1, 2)).transpose(1, 2)

    def step():
        forward().sum().backward()
        x.grad = None
        for p in params:
            p.grad = None
    return step


def measure(layer, n, d, repetitions):
    """The memory of the first call, then the median per-call time of batches lasting >= ~2 ms."""
    torch.manual_seed(n)
    make_step(layer, 2, d)()   # what any first call sets up once (the autograd engine, for one)
    step = make_step(layer, n, d)
    peak = peak_growth_mib(step)
    start = time.perf_counter()
    step()
    one_call = (time.perf_counter() - start) * 1000
    calls = int(min(max(math.ceil(2.0 / max(one_call, 1e-3)), 1), 1000))
    return median_ms_per_call(step, calls, repeats=repetitions, warmup=0), peak


def fit_log_log(lengths, ms):
    """Least-squares (slope, intercept) of log(ms) against log(n) for n at or above the range's geometric middle."""
    middle = math.sqrt(lengths[0] * lengths[-1])
    xy = [(math.log(n), math.log(t)) for n, t in zip(lengths, ms) if n >= middle]
    mx = sum(x for x, _ in xy) / len(xy)
    my = sum(y for _, y in xy) / len(xy)
    slope = sum((x - mx) * (y - my) for x, y in xy) / sum((x - mx) ** 2 for x, _ in xy)
    return slope, my - slope * mx


def attention_gru_crossover(lengths, attention, gru):
    """Where self-attention starts to cost more than the GRU, interpolated on log-log axes (or None)."""
    for i, n in enumerate(lengths):
        gap = math.log(attention[i] / gru[i])
        if gap <= 0:
            continue
        if i == 0:
            return n
        previous = math.log(attention[i - 1] / gru[i - 1])
        a, b = math.log(lengths[i - 1]), math.log(n)
        return math.exp(a + (b - a) * previous / (previous - gap))
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--up-to", type=int, default=2048, help="double n from 16 up to this length")
    args = parser.parse_args()
    if args.up_to < 64:
        parser.error("--up-to must be at least 64 (the slopes are fitted to the upper half of n)")
    lengths = [16 * 2 ** i for i in range(12) if 16 * 2 ** i <= args.up_to]
    torch.set_num_threads(args.threads)
    d = 64
    times = {layer: [] for layer in LAYERS}
    for n in lengths:
        for layer in LAYERS:
            ms, mib = in_child(lambda: measure(layer, n, d, args.repetitions), f"{layer} at n = {n}")
            times[layer].append(ms)
            print(json.dumps({"config": f"sequence layer fwd+bwd {layer} d{d} n{n}", "impl": "torch",
                              "threads": args.threads, "ms_per_call": ms, "peak_mib_growth": mib,
                              "env": {"torch": torch.__version__}}), flush=True)
    for layer in LAYERS:
        print(f"torch  {layer:15} log-log slope {fit_log_log(lengths, times[layer])[0]:.2f} over the upper half of n "
              f"(theory {THEORY[layer]})")
    crossover = attention_gru_crossover(lengths, times["self-attention"], times["GRU"])
    if crossover is None:
        print(f"torch  self-attention stays cheaper than the GRU up to n = {lengths[-1]}")
    else:
        print(f"torch  self-attention costs more time than the GRU from n = {crossover:.0f} on")
    (slope_a, icpt_a), (slope_g, icpt_g) = (fit_log_log(lengths, times[k]) for k in ("self-attention", "GRU"))
    if slope_a > slope_g:
        print(f"torch  the fitted lines of self-attention and the GRU cross at n = "
              f"{math.exp((icpt_g - icpt_a) / (slope_a - slope_g)):.0f}")


if __name__ == "__main__":
    main()
