#!/usr/bin/python3
"""Golden cases for chapter 02 (masked softmax and additive attention), computed by PyTorch
in float64.

Run from the repository root:  /usr/bin/python3 tests/data/02_bahdanau_attention/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.
Valid lengths are int64, everything else float64. Weights use torch.nn.Linear's layout
(out, in), no biases.

Masked softmax over the last axis (d2l-style): positions j >= valid_len get exactly zero
weight; a row whose valid length is 0 gets all-zero weights (not uniform, not NaN) and a zero
gradient. valid_lens is (batch,) (the same for every query) or (batch, n_q) (per query).
Additive attention: scores[b,i,j] = w_v . tanh(W_q q_i + W_k k_j) (before masking),
weights = masked_softmax(scores, valid_lens), context = weights @ values.

Masked softmax only, scores (2, 3, 4):
  msm_scores.npy              (2, 3, 4)  scores; some masked positions hold +-1000 (a correct
                                         mask ignores them), one row is shifted by +500
  msm_dweights.npy            (2, 3, 4)  random upstream gradient of the weights
  msm_batch_valid_lens.npy    (2,)       int64 [3, 0]  (batch 1: every row empty)
  msm_batch_weights.npy       (2, 3, 4)
  msm_batch_dscores.npy       (2, 3, 4)  gradient of sum(weights * dweights)
  msm_query_valid_lens.npy    (2, 3)     int64 [[3, 1, 0], [2, 3, 4]]
  msm_query_weights.npy       (2, 3, 4)
  msm_query_dscores.npy       (2, 3, 4)

Additive attention, batch 2, n_q 3, n_k 5, query 4, key 6, value 3, hidden 7. Two
self-contained cases with their own random inputs, prefixes attn_batch_ (valid_lens (2,) =
[5, 2]) and attn_query_ (valid_lens (2, 3) = [[5, 3, 0], [1, 2, 5]]; the 0 row has zero
weights and zero context):
  <prefix>queries.npy     (2, 3, 4)
  <prefix>keys.npy        (2, 5, 6)
  <prefix>values.npy      (2, 5, 3)
  <prefix>W_q.npy         (7, 4)     Linear(4, 7, bias=False).weight
  <prefix>W_k.npy         (7, 6)     Linear(6, 7, bias=False).weight
  <prefix>w_v.npy         (1, 7)     Linear(7, 1, bias=False).weight
  <prefix>valid_lens.npy  (2,) or (2, 3)  int64
  <prefix>scores.npy      (2, 3, 5)  before masking
  <prefix>weights.npy     (2, 3, 5)
  <prefix>context.npy     (2, 3, 3)
  <prefix>R.npy           (2, 3, 3)  random weights of the loss sum(context * R)
  <prefix>dqueries.npy    (2, 3, 4)  gradients of sum(context * R)
  <prefix>dkeys.npy       (2, 5, 6)
  <prefix>dvalues.npy     (2, 5, 3)
  <prefix>dW_q.npy        (7, 4)
  <prefix>dW_k.npy        (7, 6)
  <prefix>dw_v.npy        (1, 7)
"""
import pathlib

import numpy as np
import torch

here = pathlib.Path(__file__).resolve().parent
g = torch.Generator().manual_seed(2202)
torch.set_default_dtype(torch.float64)
written = []


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    array = array.astype(np.int64 if array.dtype.kind in "iu" else np.float64)
    np.save(here / f"{name}.npy", array)
    written.append((name, array.shape, array.dtype))


def randn(*shape, scale=1.0):
    return torch.randn(*shape, generator=g) * scale


def valid_mask(scores, valid_lens):
    """(batch, n_q, n_k) bool: True where key j is valid for query i."""
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None].expand(scores.shape[:-1])
    return torch.arange(scores.shape[-1]) < valid_lens[..., None]


def masked_softmax(scores, valid_lens):
    """Zero weight at j >= valid_len; all-zero rows where valid_len == 0 (no NaN, also in the
    gradient: empty rows keep their finite scores and the result is multiplied by the mask)."""
    mask = valid_mask(scores, valid_lens)
    row_empty = ~mask.any(dim=-1, keepdim=True)
    filled = torch.where(mask | row_empty, scores, torch.tensor(float("-inf")))
    return torch.softmax(filled, dim=-1) * mask


def d2l_masked_softmax(scores, valid_lens):
    """d2l's version (fill with -1e6): agrees except on empty rows, where it is uniform."""
    return torch.softmax(scores.masked_fill(~valid_mask(scores, valid_lens), -1e6), dim=-1)


def check_masked_softmax(scores, valid_lens, weights):
    mask = valid_mask(scores, valid_lens)
    nonempty = mask.any(dim=-1)
    reference = d2l_masked_softmax(scores, valid_lens)
    assert torch.allclose(weights[nonempty], reference[nonempty], rtol=1e-15, atol=0), "differs from d2l"
    assert torch.all(weights[~mask] == 0), "masked positions must be exactly 0"
    assert torch.all(weights[~nonempty] == 0), "empty rows must be all zero"
    sums = weights.sum(dim=-1)
    assert torch.allclose(sums[nonempty], torch.ones_like(sums[nonempty]), atol=1e-15), "rows must sum to 1"
    assert torch.isfinite(weights).all()


def additive_attention(queries, keys, values, W_q, W_k, w_v, valid_lens):
    q = queries @ W_q.T                                   # (batch, n_q, h)
    k = keys @ W_k.T                                      # (batch, n_k, h)
    features = torch.tanh(q[:, :, None, :] + k[:, None, :, :])  # (batch, n_q, n_k, h)
    scores = (features @ w_v.T).squeeze(-1)               # (batch, n_q, n_k)
    weights = masked_softmax(scores, valid_lens)
    return scores, weights, torch.bmm(weights, values)


# ---- masked softmax only --------------------------------------------------------------
scores = randn(2, 3, 4, scale=2.0)
scores[0, 0, 3] = 1000.0    # masked by both valid-length cases below
scores[0, 1, 3] = -1000.0
scores[1, 2] += 500.0       # a large but valid row: a stable softmax must not care
scores.requires_grad_(True)
dweights = randn(2, 3, 4)
save("msm_scores", scores)
save("msm_dweights", dweights)
for kind, valid_lens in (("batch", torch.tensor([3, 0])),
                         ("query", torch.tensor([[3, 1, 0], [2, 3, 4]]))):
    weights = masked_softmax(scores, valid_lens)
    (dscores,) = torch.autograd.grad((weights * dweights).sum(), scores)
    check_masked_softmax(scores, valid_lens, weights)
    assert torch.all(dscores[~valid_mask(scores, valid_lens)] == 0), "masked positions get zero gradient"
    small = scores.detach().clone()
    small[0, 0, 3] = small[0, 1, 3] = 0.0   # gradcheck's finite differences need modest values
    small[1, 2] -= 500.0
    assert torch.autograd.gradcheck(lambda s: masked_softmax(s, valid_lens), (small.requires_grad_(True),))
    save(f"msm_{kind}_valid_lens", valid_lens)
    save(f"msm_{kind}_weights", weights)
    save(f"msm_{kind}_dscores", dscores)

# ---- additive attention -------------------------------------------------------------------
B, NQ, NK, DQ, DK, DV, H = 2, 3, 5, 4, 6, 3, 7
for kind, valid_lens in (("batch", torch.tensor([5, 2])),
                         ("query", torch.tensor([[5, 3, 0], [1, 2, 5]]))):
    W_q = torch.nn.Linear(DQ, H, bias=False)
    W_k = torch.nn.Linear(DK, H, bias=False)
    w_v = torch.nn.Linear(H, 1, bias=False)
    with torch.no_grad():
        for layer, scale in ((W_q, 0.5), (W_k, 0.5), (w_v, 1.5)):  # tanh not saturated, scores O(1)
            layer.weight.copy_(randn(*layer.weight.shape, scale=scale))
    queries = randn(B, NQ, DQ).requires_grad_(True)
    keys = randn(B, NK, DK).requires_grad_(True)
    values = randn(B, NK, DV).requires_grad_(True)
    R = randn(B, NQ, DV)
    inputs = (queries, keys, values, W_q.weight, W_k.weight, w_v.weight)

    scores, weights, context = additive_attention(*inputs, valid_lens)
    grads = torch.autograd.grad((context * R).sum(), inputs)

    # The same through the nn.Linear modules (the layout the C++ side uses).
    features = torch.tanh(W_q(queries).unsqueeze(2) + W_k(keys).unsqueeze(1))
    assert torch.allclose(w_v(features).squeeze(-1), scores, rtol=0, atol=1e-14), "nn.Linear disagrees"
    check_masked_softmax(scores, valid_lens, weights)
    empty = ~valid_mask(scores, valid_lens).any(dim=-1)
    assert torch.all(context[empty] == 0), "queries with no valid key get zero context"
    assert torch.autograd.gradcheck(lambda *a: additive_attention(*a, valid_lens)[2], inputs), "gradcheck"

    prefix = f"attn_{kind}_"
    for name, t in zip(("queries", "keys", "values", "W_q", "W_k", "w_v"), inputs):
        save(prefix + name, t)
    for name, t in {"valid_lens": valid_lens, "scores": scores, "weights": weights, "context": context,
                    "R": R}.items():
        save(prefix + name, t)
    for name, t in zip(("dqueries", "dkeys", "dvalues", "dW_q", "dW_k", "dw_v"), grads):
        save(prefix + name, t)

print("asserts passed: masked softmax == d2l on non-empty rows, exact zeros when masked and on empty rows,"
      " rows sum to 1, zero gradient when masked, gradcheck; scores == nn.Linear version; zero context"
      " for empty rows; attention gradcheck")
total = sum((here / f"{n}.npy").stat().st_size for n, _, _ in written)
for name, shape, dtype in written:
    print(f"  {name}.npy {shape} {dtype}")
print(f"wrote {len(written)} files ({total} bytes) to {here.name}/ with torch {torch.__version__}")
