#!/usr/bin/python3
"""The PyTorch side of bench_attention.cpp: softmax(bmm(q, k^T) / 8) @ v under no_grad, batch 1,
one head, d = 64, float32, n = 128 ... 4096, in increasing order. Same JSON lines.
Run through ./bench/run (same thread count for both sides)."""
import argparse
import json
import resource
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from torch_baseline import median_ms_per_call  # noqa: E402


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    threads = parser.parse_args().threads
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    baseline = peak_mib()
    d = 64
    for n in [128, 256, 512, 1024, 2048, 4096]:
        q, k, v = (torch.randn(1, n, d) for _ in range(3))

        def call():
            with torch.no_grad():
                torch.softmax(torch.bmm(q, k.transpose(1, 2)) / 8.0, dim=-1) @ v
        calls = 20 if n <= 512 else 5 if n <= 2048 else 2
        ms = median_ms_per_call(call, calls, repeats=5, warmup=1)
        print(json.dumps({"config": f"attention fwd 1 head d64 n{n}", "impl": "torch", "threads": threads,
                          "ms_per_call": ms, "gflops": 4.0 * n * n * d / (ms * 1e6), "peak_mib": peak_mib(),
                          "baseline_mib": baseline, "env": {"torch": torch.__version__}}), flush=True)


if __name__ == "__main__":
    main()
