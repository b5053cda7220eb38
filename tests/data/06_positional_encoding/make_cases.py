#!/usr/bin/python3
"""Golden cases for chapter 06 (positional encoding), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/06_positional_encoding/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

The table is built the way PyTorch's Transformer tutorial builds it (frequencies as
exp(-2j ln(10000) / d) rather than the C++ code's 1 / 10000^(2j / d): a second route to the
same numbers), all in float64:
  pe_n4_d2 (4, 2), pe_n50_d16 (50, 16), pe_n32_d512 (32, 512): whole tables, positions 0..n-1;
  pe_far_positions (8,) int64: positions up to 10000, and for d in 64 and 512
  pe_far_d64 (8, 64), pe_far_d512 (8, 512): the rows of those positions in a table of 10001 rows.
add_positions (6.3), X (2, 5, 8) random:
  ap_X (2, 5, 8), ap_output (2, 5, 8) = sqrt(8) X + P[0:5].
"""
import math
import os

import numpy as np
import torch

torch.manual_seed(6)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    np.save(os.path.join(OUT, name + ".npy"), array)


def encoding(n, d):
    position = torch.arange(n, dtype=torch.float64).unsqueeze(1)                      # (n, 1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


for n, d in [(4, 2), (50, 16), (32, 512)]:
    save(f"pe_n{n}_d{d}", encoding(n, d))

far = torch.tensor([0, 1, 2, 100, 1000, 5000, 9999, 10000], dtype=torch.int64)
save("pe_far_positions", far)
for d in [64, 512]:
    save(f"pe_far_d{d}", encoding(10001, d)[far])

X = torch.randn(2, 5, 8)
save("ap_X", X)
save("ap_output", math.sqrt(8) * X + encoding(5, 8))
