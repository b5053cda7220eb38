#!/usr/bin/python3
"""Golden cases for chapter 03 (kernel regression, scaled dot-product attention, the
attention layer), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/03_queries_keys_values/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

Masks follow the course's convention: blocked[b, i, j] = True means query i may not look at
key j. The weights are softmax(Q K^T / sqrt(d)) over the allowed keys, computed here with
-inf fill and torch.softmax (not the C++ code's -1e9 penalty), and a query with no allowed
key gets all-zero weights (so a zero output and zero gradients). Every row of weights is
cross-checked against the formula written out query by query in NumPy.

Scaled dot-product attention, batch 2, n_q 3, n_k 5, d 4, d_v 3; prefix sdpa_:
  sdpa_queries (2, 3, 4), sdpa_keys (2, 5, 4), sdpa_values (2, 5, 3), sdpa_doutput (2, 3, 3)
  (a random upstream gradient of the output), and for each mask M in
    none       no mask
    batch      valid lengths (2,) = [5, 2]
    query      valid lengths (2, 3) = [[5, 1, 0], [2, 3, 4]]  (one query sees nothing)
  sdpa_M_valid_lens (int64; not for none), sdpa_M_weights (2, 3, 5), sdpa_M_output (2, 3, 3),
  sdpa_M_dqueries, sdpa_M_dkeys, sdpa_M_dvalues: gradients of sum(output * doutput).
Causal self-attention, batch 2, n 4, d 4, d_v 3; prefix causal_: causal_x (2, 4, 4) used as
  queries and keys, causal_values (2, 4, 3), causal_doutput, causal_weights, causal_output,
  causal_dx (queries and keys share x, so their gradients add), causal_dvalues.
The attention layer, batch 2, n_q 3, n_k 5, query 6, key 5, value 4, d_k 3, d_v 2, no
biases (torch.nn.Linear layout (out, in)), valid lengths [4, 2]; prefix layer_:
  layer_queries, layer_keys, layer_values, layer_W_q (3, 6), layer_W_k (3, 5), layer_W_v (2, 4),
  layer_valid_lens, layer_doutput, layer_weights, layer_output, and the gradients
  layer_dqueries, layer_dkeys, layer_dvalues, layer_dW_q, layer_dW_k, layer_dW_v.
Nadaraya-Watson pooling, 8 training points, 5 queries, width w = 1.7; prefix nw_:
  nw_keys (8,), nw_values (8,), nw_queries (5,), nw_width (1,), nw_doutput (5,),
  nw_weights (5, 8), nw_output (5,), nw_dwidth (1,), nw_dqueries (5,), nw_dkeys (8,), nw_dvalues (8,),
  and the leave-one-out case with the keys as queries: nw_loo_weights (8, 8), nw_loo_output (8,),
  nw_loo_doutput (8,), nw_loo_dwidth (1,).
"""
import math
import os

import numpy as np
import torch

torch.manual_seed(3)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    np.save(os.path.join(OUT, name + ".npy"), array)


def length_mask(valid_lens, n_q, n_k):
    positions = torch.arange(n_k)
    lens = valid_lens if valid_lens.dim() == 2 else valid_lens[:, None].expand(-1, n_q)
    return positions[None, None, :] >= lens[:, :, None]   # True = blocked


def attention(q, k, v, blocked):
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if blocked is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        allowed = ~blocked
        any_allowed = allowed.any(dim=-1, keepdim=True)
        safe = torch.where(any_allowed, allowed, torch.ones_like(allowed))   # avoid an all -inf row
        weights = torch.softmax(scores.masked_fill(~safe, float("-inf")), dim=-1)
        weights = torch.where(any_allowed, weights, torch.zeros_like(weights))
    # Cross-check with the formula written out query by query in NumPy.
    s, a = scores.detach().numpy(), np.ones(scores.shape, bool) if blocked is None else (~blocked).numpy()
    for b, i in np.ndindex(s.shape[:2]):
        row = np.where(a[b, i], np.exp(s[b, i] - s[b, i][a[b, i]].max()) if a[b, i].any() else 0.0, 0.0)
        expected = row / row.sum() if row.sum() > 0 else row
        assert np.allclose(weights[b, i].detach().numpy(), expected, rtol=1e-13, atol=1e-15)
    return weights @ v, weights


def leaves(*tensors):
    return [t.clone().requires_grad_(True) for t in tensors]


# ---- scaled dot-product attention with the three kinds of mask
queries, keys, values = torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 3)
doutput = torch.randn(2, 3, 3)
save("sdpa_queries", queries), save("sdpa_keys", keys), save("sdpa_values", values), save("sdpa_doutput", doutput)
for name, lens in [("none", None), ("batch", torch.tensor([5, 2])), ("query", torch.tensor([[5, 1, 0], [2, 3, 4]]))]:
    q, k, v = leaves(queries, keys, values)
    blocked = None if lens is None else length_mask(lens, 3, 5)
    output, weights = attention(q, k, v, blocked)
    (output * doutput).sum().backward()
    if lens is not None:
        save(f"sdpa_{name}_valid_lens", lens.to(torch.int64))
    save(f"sdpa_{name}_weights", weights), save(f"sdpa_{name}_output", output)
    save(f"sdpa_{name}_dqueries", q.grad), save(f"sdpa_{name}_dkeys", k.grad), save(f"sdpa_{name}_dvalues", v.grad)

# ---- causal self-attention: queries and keys are the same tensor
x0, values0, doutput0 = torch.randn(2, 4, 4), torch.randn(2, 4, 3), torch.randn(2, 4, 3)
x, v = leaves(x0, values0)
causal = torch.ones(4, 4, dtype=torch.bool).triu(diagonal=1)[None].expand(2, -1, -1)
output, weights = attention(x, x, v, causal)
(output * doutput0).sum().backward()
save("causal_x", x0), save("causal_values", values0), save("causal_doutput", doutput0)
save("causal_weights", weights), save("causal_output", output), save("causal_dx", x.grad), save("causal_dvalues", v.grad)

# ---- the attention layer with learned projections (no biases)
W_q, W_k, W_v = (torch.nn.Linear(i, o, bias=False) for i, o in [(6, 3), (5, 3), (4, 2)])
queries, keys, values = torch.randn(2, 3, 6), torch.randn(2, 5, 5), torch.randn(2, 5, 4)
lens, doutput = torch.tensor([4, 2]), torch.randn(2, 3, 2)
q, k, v = leaves(queries, keys, values)
output, weights = attention(W_q(q), W_k(k), W_v(v), length_mask(lens, 3, 5))
(output * doutput).sum().backward()
for name, tensor in [("queries", queries), ("keys", keys), ("values", values), ("W_q", W_q.weight), ("W_k", W_k.weight),
                     ("W_v", W_v.weight), ("valid_lens", lens.to(torch.int64)), ("doutput", doutput),
                     ("weights", weights), ("output", output), ("dqueries", q.grad), ("dkeys", k.grad),
                     ("dvalues", v.grad), ("dW_q", W_q.weight.grad), ("dW_k", W_k.weight.grad), ("dW_v", W_v.weight.grad)]:
    save("layer_" + name, tensor)

# ---- Nadaraya-Watson pooling with a Gaussian kernel of learnable width
def kernel_pooling(queries, keys, values, width, leave_one_out):
    scores = -((queries[:, None] - keys[None, :]) * width) ** 2 / 2
    if leave_one_out:
        scores = scores.masked_fill(torch.eye(len(keys), dtype=torch.bool), float("-inf"))
    weights = torch.softmax(scores, dim=1)
    return weights @ values, weights


keys0 = torch.sort(torch.rand(8) * 5).values
values0 = 2 * torch.sin(keys0) + keys0 ** 0.8 + 0.5 * torch.randn(8)
queries0, doutput = torch.rand(5) * 5, torch.randn(5)
q, k, v, w = leaves(queries0, keys0, values0, torch.tensor([1.7]))
output, weights = kernel_pooling(q, k, v, w, False)
(output * doutput).sum().backward()
for name, tensor in [("keys", keys0), ("values", values0), ("queries", queries0), ("width", torch.tensor([1.7])),
                     ("doutput", doutput), ("weights", weights), ("output", output), ("dwidth", w.grad),
                     ("dqueries", q.grad), ("dkeys", k.grad), ("dvalues", v.grad)]:
    save("nw_" + name, tensor)
k, v, w = leaves(keys0, values0, torch.tensor([1.7]))
doutput = torch.randn(8)
output, weights = kernel_pooling(k, k, v, w, True)
(output * doutput).sum().backward()
save("nw_loo_weights", weights), save("nw_loo_output", output), save("nw_loo_doutput", doutput), save("nw_loo_dwidth", w.grad)
print("wrote the golden cases of chapter 03 to", OUT)
