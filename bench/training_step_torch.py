"""What the PyTorch training-step baselines share (s2s_torch.py, transformer_torch.py): the
command line, the two thread pools, the timing loop and the JSON line."""
import argparse
import ctypes
import json
import resource
import statistics
import sys
import time

import torch


def set_openblas_threads(n):
    """Resize the pool of the OpenBLAS that torch loaded; returns its size (None: no OpenBLAS)."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libopenblas" in line}
    for path in sorted(paths):
        library = ctypes.CDLL(path)
        library.openblas_set_num_threads(ctypes.c_int(n))
        return library.openblas_get_num_threads()
    return None


def parse_arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--blas-threads", type=int, default=1, help="OpenBLAS pool size (see the docstring)")
    parser.add_argument("--steps", type=int, default=30, help="steps per timed repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="print the first 3 losses and exit")
    return parser.parse_args()


def set_threads(args):
    """torch's intra-op pool to --threads, OpenBLAS's to --blas-threads; returns OpenBLAS's size."""
    torch.set_num_threads(args.threads)
    return set_openblas_threads(args.blas_threads)


def peak_mib():
    """The process's peak resident memory so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def time_or_check(step, args, config, blas_threads, extra=dict, check_note=""):
    """--check: print the loss `step()` returns for 3 steps. Otherwise: `args.warmup` steps,
    then the median steps/s over `args.repeats` runs of `args.steps`, as one JSON line with the
    process's CPU time per step over all of them (steadier than the wall clock on a busy
    machine) and the fields `extra()` returns after the timing."""
    if args.check:
        print(f"torch threads {torch.get_num_threads()}, OpenBLAS threads {blas_threads}{check_note}")
        for i in range(3):
            print(f"step {i + 1} loss {step().item():.6f}")
        return
    cpu_start = time.process_time()
    for _ in range(args.warmup):
        step()
    rates = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for _ in range(args.steps):
            step()
        rates.append(args.steps / (time.perf_counter() - start))
    cpu_ms_per_step = 1000 * (time.process_time() - cpu_start) / (args.warmup + args.repeats * args.steps)
    print(json.dumps({"config": config, "impl": "torch", "threads": torch.get_num_threads(),
                      "steps_per_s": statistics.median(rates),
                      "cpu_ms_per_step": cpu_ms_per_step, **extra(),
                      "env": {"torch": torch.__version__, "python": sys.version.split()[0]}}))
