#!/usr/bin/python3
"""Golden cases for chapter 00, computed by PyTorch (float64).

Run from the repository root:  /usr/bin/python3 tests/data/00_foundations/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

softmax_X.npy        (5, 7) inputs, including rows shifted by +-500
softmax_Y.npy        torch.softmax(X, dim=1)
softmax_dY.npy       a random upstream gradient
softmax_dX.npy       the gradient torch.autograd gives for sum(softmax(X) * dY)
"""
import pathlib

import numpy as np
import torch

here = pathlib.Path(__file__).resolve().parent
generator = torch.Generator().manual_seed(2026)

X = torch.randn(5, 7, generator=generator, dtype=torch.float64) * 3.0
X[3] += 500.0  # large, but a stable softmax must not care
X[4] -= 500.0
X.requires_grad_(True)
dY = torch.randn(5, 7, generator=generator, dtype=torch.float64)

Y = torch.softmax(X, dim=1)
(dX,) = torch.autograd.grad((Y * dY).sum(), X)

for name, tensor in {"softmax_X": X, "softmax_Y": Y, "softmax_dY": dY, "softmax_dX": dX}.items():
    np.save(here / f"{name}.npy", tensor.detach().numpy().astype(np.float64))
print("wrote", ", ".join(sorted(p.name for p in here.glob("*.npy"))), "with torch", torch.__version__)
