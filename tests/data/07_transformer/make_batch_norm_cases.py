#!/usr/bin/python3
"""Golden cases for chapter 07's batch normalisation (part 11's ablation), computed by
torch.nn.BatchNorm1d in float64.

Run from the repository root:  /usr/bin/python3 tests/data/07_transformer/make_batch_norm_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

The course keeps features on the last axis, (batch, length, features); BatchNorm1d wants them
on axis 1, so the script transposes in and out. batch_norm/ holds, for BatchNorm1d(6)
(momentum 0.1, eps 1e-5, affine) with random weight and bias (not PyTorch's 1 and 0):
    weight, bias;
    x1 (2, 5, 6), doutput (2, 5, 6): the first training step's input, its output1 and the
        gradients dx1, dweight, dbias of sum(output1 * doutput);
    x2 (3, 4, 6): a second training step's input (another batch size and length), output2;
    running_mean, running_var: the buffers after both steps;
    x3 (2, 3, 6): evaluation's input, output3 (normalised with the running averages).
"""
import os

import numpy as np
import torch

torch.manual_seed(11)
torch.set_default_dtype(torch.float64)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "batch_norm")
os.makedirs(OUT, exist_ok=True)


def save(name, tensor):
    np.save(os.path.join(OUT, name + ".npy"), tensor.detach().numpy())


def apply(norm, x):
    """(batch, length, features) through BatchNorm1d, which normalises axis 1."""
    return norm(x.transpose(1, 2)).transpose(1, 2)


norm = torch.nn.BatchNorm1d(6, momentum=0.1, eps=1e-5, affine=True)
with torch.no_grad():
    norm.weight.copy_(torch.rand(6) + 0.5)
    norm.bias.copy_(torch.rand(6) - 0.5)
save("weight", norm.weight)
save("bias", norm.bias)

norm.train()
x1 = (torch.randn(2, 5, 6) * 2 + 0.7).requires_grad_(True)
doutput = torch.randn(2, 5, 6)
output1 = apply(norm, x1)
(output1 * doutput).sum().backward()
for name, value in [("x1", x1), ("doutput", doutput), ("output1", output1), ("dx1", x1.grad),
                    ("dweight", norm.weight.grad), ("dbias", norm.bias.grad)]:
    save(name, value)

x2 = torch.randn(3, 4, 6) * 0.5 - 1.0
save("x2", x2)
save("output2", apply(norm, x2))
save("running_mean", norm.running_mean)
save("running_var", norm.running_var)

norm.eval()
x3 = torch.randn(2, 3, 6)
save("x3", x3)
save("output3", apply(norm, x3))
