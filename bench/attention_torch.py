#!/usr/bin/python3
"""The PyTorch side of bench_attention.cpp: softmax(bmm(q, k^T) / 8) @ v under no_grad, batch 1,
one head, d = 64, float32, n = 128 ... 8192. Each n runs in a forked child, which reports the
median time and the growth of its peak resident memory during one call, as the C++ side does.
The same computation (which holds the n x n matrix) is printed under both of the C++ side's
config names, "attention fwd 1 head d64 nN" and "attention fwd streaming 1 head d64 nN", so
that both of its implementations are compared with it. Same JSON lines.
Run through ./bench/run (same thread count for both sides)."""
import argparse
import json
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from torch_baseline import in_child, median_ms_per_call, peak_growth_mib  # noqa: E402

D = 64


def attention(q, k, v):
    with torch.no_grad():
        return torch.softmax(torch.bmm(q, k.transpose(1, 2)) / 8.0, dim=-1) @ v


def measure(n):
    """The memory of the first call (after one at n = 2), then the median time per call."""
    torch.manual_seed(n)
    small = torch.randn(1, 2, D)
    attention(small, small, small)
    q, k, v = (torch.randn(1, n, D) for _ in range(3))
    peak = peak_growth_mib(lambda: attention(q, k, v))
    calls = 20 if n <= 512 else 5 if n <= 2048 else 2 if n <= 4096 else 1
    return median_ms_per_call(lambda: attention(q, k, v), calls, repeats=5, warmup=1), peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    threads = parser.parse_args().threads
    torch.set_num_threads(threads)
    for n in [128, 256, 512, 1024, 2048, 4096, 8192]:
        ms, mib = in_child(lambda: measure(n), f"n = {n}")
        for name in ["attention fwd 1 head d64", "attention fwd streaming 1 head d64"]:
            print(json.dumps({"config": f"{name} n{n}", "impl": "torch", "threads": threads, "ms_per_call": ms,
                              "gflops": 4.0 * n * n * D / (ms * 1e6), "peak_mib_growth": mib,
                              "env": {"torch": torch.__version__}}), flush=True)


if __name__ == "__main__":
    main()
