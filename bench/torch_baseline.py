#!/usr/bin/python3
"""The PyTorch side of the toolkit benchmarks: the same configurations as bench_main.cpp,
float32, forward + backward, one JSON line per measurement in the same format.
Run through ./bench/run (same thread count for both sides)."""
import ctypes
import json
import os
import statistics
import struct
import sys
import time

import torch


def median_ms_per_call(body, calls, repeats=7, warmup=3):
    for _ in range(warmup):
        body()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            body()
        samples.append((time.perf_counter() - start) * 1000 / calls)
    return statistics.median(samples)


def status_mib(key):
    """"VmRSS" or "VmHWM" of /proc/self/status, in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def peak_growth_mib(body):
    """The growth of resident memory while body() runs, at its peak, as the C++ side measures it:
    free heap back to the system first, then the kernel's high-water mark reset."""
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")   # VmHWM := VmRSS
    before = status_mib("VmRSS")
    body()
    return status_mib("VmHWM") - before


def in_child(measure, what):
    """Runs measure() -> (ms, mib) in a forked child and returns its two numbers."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.write(write_end, struct.pack("dd", *measure()))
        os._exit(0)
    os.close(write_end)
    data = os.read(read_end, 16)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if len(data) != 16 or status != 0:
        raise SystemExit(f"{os.path.basename(sys.argv[0])}: the child measuring {what} failed")
    return struct.unpack("dd", data)


def emit(config, ms):
    print(json.dumps({"config": config, "impl": "torch", "threads": torch.get_num_threads(), "ms_per_call": ms,
                      "env": {"torch": torch.__version__, "python": sys.version.split()[0]}}))


def bench_matmul(M, K, N):
    A = torch.randn(M, K, requires_grad=True)
    B = torch.randn(K, N, requires_grad=True)
    dC = torch.randn(M, N)

    def step():
        (A @ B).backward(dC)
        A.grad = None
        B.grad = None
    emit(f"matmul fwd+bwd {M}x{K} * {K}x{N}", median_ms_per_call(step, 50))


def bench_bmm(batch, n, d):
    Q = torch.randn(batch, n, d, requires_grad=True)
    K = torch.randn(batch, n, d, requires_grad=True)
    dS = torch.randn(batch, n, n)

    def step():
        torch.bmm(Q, K.transpose(1, 2)).backward(dS)
        Q.grad = None
        K.grad = None
    emit(f"bmm fwd+bwd Q K^T ({batch}, {n}, {d})", median_ms_per_call(step, 50))


def bench_cross_entropy(rows, classes):
    logits = torch.randn(rows, classes, requires_grad=True)
    targets = torch.randint(0, classes, (rows,))

    def step():
        torch.nn.functional.cross_entropy(logits, targets, ignore_index=0).backward()
        logits.grad = None
    emit(f"log_softmax+cross_entropy fwd+bwd ({rows}, {classes})", median_ms_per_call(step, 200))


if __name__ == "__main__":
    torch.manual_seed(0)
    bench_matmul(64, 160, 384)
    bench_matmul(64, 128, 384)
    bench_matmul(2048, 128, 128)
    bench_matmul(768, 128, 16)
    bench_bmm(64, 32, 32)
    bench_cross_entropy(64 * 12, 16)
