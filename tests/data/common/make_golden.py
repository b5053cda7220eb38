#!/usr/bin/python3
"""Golden cases for the toolkit, computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/common/make_golden.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files in
tests/data/common/golden/.

linear_*        torch.nn.Linear(5, 3): x (2, 4, 5), weight, bias, upstream dy, and y, dx, dweight, dbias
embedding_*     torch.nn.Embedding(7, 4): ids (2, 5) with repeats, weight, dy, and y, dweight
ce_*            log_softmax + cross_entropy(ignore_index=0, label_smoothing=0.1) on logits (3, 4, 6):
                loss, dlogits; also the plain mean loss without smoothing (ce_loss_plain, ce_dlogits_plain)
adam_*          torch.optim.Adam(lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01) on a (3, 4)
                parameter: three fixed gradients and the parameter after each step
clip_*          torch.nn.utils.clip_grad_norm_(max_norm=1.0) on two gradients: before, after, the norm
conv1d_k3_*     torch.nn.Conv1d(3, 4, 3, padding=1): x (2, 6, 3) in the course's (batch, n, channels)
                layout (transposed for PyTorch and back), weight (4, 3, 3), bias, dy, and y, dx, dweight, dbias
conv1d_k5_*     torch.nn.Conv1d(2, 3, 5, padding=2) on x (1, 3, 2): a kernel wider than the sequence
conv2d_k3_*     torch.nn.Conv2d(3, 4, 3, padding=1): x (2, 5, 4, 3) in the course's (batch, H, W, channels)
                layout (permuted for PyTorch and back), weight (4, 3, 3, 3), bias, dy, and y, dx, dweight, dbias
conv2d_k5_*     torch.nn.Conv2d(2, 3, 5, padding=2) on x (1, 3, 2, 2): a kernel wider than the grid
"""
import pathlib

import numpy as np
import torch

out = pathlib.Path(__file__).resolve().parent / "golden"
out.mkdir(exist_ok=True)
g = torch.Generator().manual_seed(1234)
torch.set_default_dtype(torch.float64)


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    # C order always: a transposed tensor (Conv1d's output read back as (batch, n, channels)) would
    # otherwise be written in Fortran order, which the C++ reader refuses.
    array = array.astype(np.int64 if array.dtype.kind in "iu" else np.float64, order="C")
    np.save(out / f"{name}.npy", array)


def randn(*shape):
    return torch.randn(*shape, generator=g)


# Linear
linear = torch.nn.Linear(5, 3)
with torch.no_grad():
    linear.weight.copy_(randn(3, 5))
    linear.bias.copy_(randn(3))
x = randn(2, 4, 5).requires_grad_(True)
y = linear(x)
dy = randn(2, 4, 3)
y.backward(dy)
for name, t in {"x": x, "weight": linear.weight, "bias": linear.bias, "dy": dy, "y": y,
                "dx": x.grad, "dweight": linear.weight.grad, "dbias": linear.bias.grad}.items():
    save(f"linear_{name}", t)

# Embedding
embedding = torch.nn.Embedding(7, 4)
with torch.no_grad():
    embedding.weight.copy_(randn(7, 4))
ids = torch.tensor([[1, 3, 3, 0, 6], [2, 1, 5, 5, 5]])
y = embedding(ids)
dy = randn(2, 5, 4)
y.backward(dy)
for name, t in {"ids": ids, "weight": embedding.weight, "dy": dy, "y": y, "dweight": embedding.weight.grad}.items():
    save(f"embedding_{name}", t)

# log-softmax + cross-entropy with padding (id 0) and label smoothing
logits = (randn(3, 4, 6) * 2).requires_grad_(True)
targets = torch.tensor([[2, 5, 0, 0], [1, 1, 3, 0], [4, 0, 0, 0]])
loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 6), targets.reshape(-1), ignore_index=0,
                                         label_smoothing=0.1)
(dlogits,) = torch.autograd.grad(loss, logits)
plain = torch.nn.functional.cross_entropy(logits.reshape(-1, 6), targets.reshape(-1), ignore_index=0)
(dlogits_plain,) = torch.autograd.grad(plain, logits)
log_p = torch.log_softmax(logits, dim=-1)
for name, t in {"logits": logits, "targets": targets, "loss": loss, "dlogits": dlogits, "loss_plain": plain,
                "dlogits_plain": dlogits_plain, "log_softmax": log_p}.items():
    save(f"ce_{name}", t)

# Adam, three steps with fixed gradients
param = torch.nn.Parameter(randn(3, 4))
save("adam_param0", param)
adam = torch.optim.Adam([param], lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
for step in range(1, 4):
    grad = randn(3, 4) * step
    param.grad = grad.clone()
    adam.step()
    save(f"adam_grad{step}", grad)
    save(f"adam_param{step}", param)

# Gradient clipping by global norm
a = torch.nn.Parameter(torch.zeros(2, 3))
b = torch.nn.Parameter(torch.zeros(4))
a.grad, b.grad = randn(2, 3), randn(4)
save("clip_grad_a", a.grad)
save("clip_grad_b", b.grad)
norm = torch.nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
save("clip_norm", norm)
save("clip_after_a", a.grad)
save("clip_after_b", b.grad)

# Conv1d with "same" padding. PyTorch reads (batch, channels, n); the course keeps positions on
# axis 1, so x, dy and y are saved as (batch, n, channels).
for name, (c_in, c_out, k, batch, n) in {"conv1d_k3": (3, 4, 3, 2, 6), "conv1d_k5": (2, 3, 5, 1, 3)}.items():
    conv = torch.nn.Conv1d(c_in, c_out, k, padding=(k - 1) // 2)
    with torch.no_grad():
        conv.weight.copy_(randn(c_out, c_in, k))
        conv.bias.copy_(randn(c_out))
    x = randn(batch, n, c_in).requires_grad_(True)
    y = conv(x.transpose(1, 2)).transpose(1, 2)
    dy = randn(batch, n, c_out)
    y.backward(dy)
    for part, t in {"x": x, "weight": conv.weight, "bias": conv.bias, "dy": dy, "y": y, "dx": x.grad,
                    "dweight": conv.weight.grad, "dbias": conv.bias.grad}.items():
        save(f"{name}_{part}", t)

# Conv2d with "same" padding, likewise saved as (batch, H, W, channels). Appended after every
# other case, so the generator gives the earlier cases the same numbers as before.
for name, (c_in, c_out, k, batch, height, width) in {"conv2d_k3": (3, 4, 3, 2, 5, 4),
                                                      "conv2d_k5": (2, 3, 5, 1, 3, 2)}.items():
    conv = torch.nn.Conv2d(c_in, c_out, k, padding=(k - 1) // 2)
    with torch.no_grad():
        conv.weight.copy_(randn(c_out, c_in, k, k))
        conv.bias.copy_(randn(c_out))
    x = randn(batch, height, width, c_in).requires_grad_(True)
    y = conv(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)
    dy = randn(batch, height, width, c_out)
    y.backward(dy)
    for part, t in {"x": x, "weight": conv.weight, "bias": conv.bias, "dy": dy, "y": y, "dx": x.grad,
                    "dweight": conv.weight.grad, "dbias": conv.bias.grad}.items():
        save(f"{name}_{part}", t)

print(f"wrote {len(list(out.glob('*.npy')))} files to {out.name}/ with torch {torch.__version__}")
