#!/usr/bin/python3
"""Golden cases for chapter 04 (self-attention, patchify), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/04_self_attention/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

Self-attention, batch 2, n 5, d_model 6, d_k 4, d_v 6 (d_v = d_model, so a version that
forgets W_v still runs and must be caught by the numbers; d_k != d_model, so scaling by
sqrt(d_model) instead of sqrt(d_k) shows); projections without bias in torch.nn.Linear's
layout (out, in); prefix sa_:
  sa_X (2, 5, 6), sa_W_q (4, 6), sa_W_k (4, 6), sa_W_v (6, 6), sa_doutput (2, 5, 6) (a random
  upstream gradient of the output), and for each case C
    full     valid lengths [5, 5] (no padding)
    padded   valid lengths [5, 3] (keys 3 and 4 of the second sequence are padding; its
             query rows 3 and 4 are computed like the others, over the valid keys)
  sa_C_valid_lens (int64), sa_C_weights (2, 5, 5), sa_C_output (2, 5, 6), and the gradients
  of sum(output * doutput): sa_C_dX, sa_C_dW_q, sa_C_dW_k, sa_C_dW_v.
Patches, with exactly PyTorch's x.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5)
.reshape(b, -1, c * p * p); prefix patch_:
  patch_a_images (2, 3, 6, 4) with p = 2 -> patch_a_patches (2, 6, 12)   (a 3 x 2 patch grid)
  patch_b_images (1, 2, 6, 9) with p = 3 -> patch_b_patches (1, 6, 18)   (a 2 x 3 patch grid)
"""
import math
import os

import numpy as np
import torch

torch.manual_seed(4)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    np.save(os.path.join(OUT, name + ".npy"), array)


def self_attention(X, W_q, W_k, W_v, valid_lens):
    Q, K, V = W_q(X), W_k(X), W_v(X)
    n = X.shape[1]
    blocked = torch.arange(n)[None, None, :] >= valid_lens[:, None, None]   # (b, 1, n): keys past the length
    scores = Q @ K.transpose(-1, -2) / math.sqrt(Q.shape[-1])
    weights = torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1)
    # Cross-check with the formula written out query by query in NumPy.
    s = scores.detach().numpy()
    for b, i in np.ndindex(s.shape[:2]):
        length = int(valid_lens[b])
        row = np.zeros(n)
        row[:length] = np.exp(s[b, i, :length] - s[b, i, :length].max())
        assert np.allclose(weights[b, i].detach().numpy(), row / row.sum(), rtol=1e-13, atol=1e-15)
    return weights @ V, weights


# ---- self-attention, with and without padding
W_q, W_k, W_v = (torch.nn.Linear(6, o, bias=False) for o in (4, 4, 6))
X0, doutput = torch.randn(2, 5, 6), torch.randn(2, 5, 6)
save("sa_X", X0), save("sa_doutput", doutput)
save("sa_W_q", W_q.weight), save("sa_W_k", W_k.weight), save("sa_W_v", W_v.weight)
for name, lens in [("full", [5, 5]), ("padded", [5, 3])]:
    for layer in (W_q, W_k, W_v):
        layer.zero_grad()
    X = X0.clone().requires_grad_(True)
    valid_lens = torch.tensor(lens, dtype=torch.int64)
    output, weights = self_attention(X, W_q, W_k, W_v, valid_lens)
    (output * doutput).sum().backward()
    for suffix, tensor in [("valid_lens", valid_lens), ("weights", weights), ("output", output), ("dX", X.grad),
                           ("dW_q", W_q.weight.grad), ("dW_k", W_k.weight.grad), ("dW_v", W_v.weight.grad)]:
        save(f"sa_{name}_{suffix}", tensor)


# ---- patchify
def patchify(x, p):
    b, c = x.shape[:2]
    return x.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p)


for name, shape, p in [("a", (2, 3, 6, 4), 2), ("b", (1, 2, 6, 9), 3)]:
    images = torch.randn(*shape)
    patches = patchify(images, p)
    # Cross-check one entry per patch with the index formula of the lesson (4.6).
    _, c, H, W = shape
    for b_, r, col, ch, u, v in np.ndindex(shape[0], H // p, W // p, c, p, p):
        assert patches[b_, r * (W // p) + col, ch * p * p + u * p + v] == images[b_, ch, r * p + u, col * p + v]
    save(f"patch_{name}_images", images), save(f"patch_{name}_patches", patches)

print("wrote the golden cases of chapter 04 to", OUT)
