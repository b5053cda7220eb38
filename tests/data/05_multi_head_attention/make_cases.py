#!/usr/bin/python3
"""Golden cases for chapter 05 (multi-head attention), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/05_multi_head_attention/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

torch.nn.MultiheadAttention(d=8, heads=2, batch_first=True), no dropout, with random
(not PyTorch's zero) biases so that forgetting a bias shows; batch 2, n_q 4, n_k 5 (so a
transposed mask or weight does not fit by accident); query, key and value three different
tensors. Prefix mha_:
  mha_in_proj_weight (24, 8), mha_in_proj_bias (24), mha_out_proj_weight (8, 8),
  mha_out_proj_bias (8), mha_query (2, 4, 8), mha_key (2, 5, 8), mha_value (2, 5, 8),
  mha_doutput (2, 4, 8) (a random upstream gradient of the output), the masks
  mha_key_padding (2, 5) int64 0/1 (keys 3, 4 of the second sequence are padding) and
  mha_attention_mask (4, 5) int64 0/1 (causal: query i may not see key j > i),
and for each case C in
    plain     no mask
    padded    the key-padding mask
    causal    the attention mask
    both      the two masks at once (OR-ed)
  mha_C_output (2, 4, 8), mha_C_head_weights (2, 2, 4, 5), mha_C_averaged_weights (2, 4, 5),
  and the gradients of sum(output * doutput): mha_C_dquery, mha_C_dkey, mha_C_dvalue,
  mha_C_din_proj_weight, mha_C_din_proj_bias, mha_C_dout_proj_weight, mha_C_dout_proj_bias.
"""
import math
import os

import numpy as np
import torch

torch.manual_seed(5)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))
D, HEADS, BATCH, N_Q, N_K = 8, 2, 2, 4, 5


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    np.save(os.path.join(OUT, name + ".npy"), array)


def by_hand(layer, query, key, value, blocked):
    """The formulas (5.3)-(5.5) written out head by head in NumPy, to cross-check PyTorch."""
    W, b = layer.in_proj_weight.detach().numpy(), layer.in_proj_bias.detach().numpy()
    Wo, bo = layer.out_proj.weight.detach().numpy(), layer.out_proj.bias.detach().numpy()
    q, k, v = (x.detach().numpy() @ W[p * D:(p + 1) * D].T + b[p * D:(p + 1) * D]
               for p, x in enumerate((query, key, value)))
    d_h = D // HEADS
    heads, weights = [], []
    for h in range(HEADS):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[..., cols] @ k[..., cols].transpose(0, 2, 1) / math.sqrt(d_h)
        scores = np.where(blocked, -np.inf, scores)
        w = np.exp(scores - scores.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        heads.append(w @ v[..., cols])
        weights.append(w)
    return np.concatenate(heads, -1) @ Wo.T + bo, np.stack(weights, 1)


layer = torch.nn.MultiheadAttention(D, HEADS, batch_first=True)
with torch.no_grad():
    layer.in_proj_bias.uniform_(-0.5, 0.5)
    layer.out_proj.bias.uniform_(-0.5, 0.5)
query, key, value = torch.randn(BATCH, N_Q, D), torch.randn(BATCH, N_K, D), torch.randn(BATCH, N_K, D)
doutput = torch.randn(BATCH, N_Q, D)
key_padding = torch.arange(N_K)[None, :] >= torch.tensor([5, 3])[:, None]   # (2, 5)
attention_mask = torch.arange(N_K)[None, :] > torch.arange(N_Q)[:, None]    # (4, 5), causal
for name, tensor in [("in_proj_weight", layer.in_proj_weight), ("in_proj_bias", layer.in_proj_bias),
                     ("out_proj_weight", layer.out_proj.weight), ("out_proj_bias", layer.out_proj.bias),
                     ("query", query), ("key", key), ("value", value), ("doutput", doutput),
                     ("key_padding", key_padding.long()), ("attention_mask", attention_mask.long())]:
    save("mha_" + name, tensor)

for case, padding, mask in [("plain", None, None), ("padded", key_padding, None),
                            ("causal", None, attention_mask), ("both", key_padding, attention_mask)]:
    layer.zero_grad()
    q, k, v = (x.clone().requires_grad_(True) for x in (query, key, value))
    output, head_weights = layer(q, k, v, key_padding_mask=padding, attn_mask=mask,
                                 need_weights=True, average_attn_weights=False)
    _, averaged = layer(q, k, v, key_padding_mask=padding, attn_mask=mask, need_weights=True)
    blocked = np.zeros((BATCH, N_Q, N_K), dtype=bool)
    if padding is not None:
        blocked |= padding.numpy()[:, None, :]
    if mask is not None:
        blocked |= mask.numpy()[None, :, :]
    expected_output, expected_weights = by_hand(layer, query, key, value, blocked)
    assert np.allclose(output.detach().numpy(), expected_output, rtol=1e-12, atol=1e-14)
    assert np.allclose(head_weights.detach().numpy(), expected_weights, rtol=1e-12, atol=1e-14)
    assert np.allclose(averaged.detach().numpy(), expected_weights.mean(1), rtol=1e-12, atol=1e-14)
    (output * doutput).sum().backward()
    prefix = "mha_" + case + "_"
    save(prefix + "output", output), save(prefix + "head_weights", head_weights)
    save(prefix + "averaged_weights", averaged)
    save(prefix + "dquery", q.grad), save(prefix + "dkey", k.grad), save(prefix + "dvalue", v.grad)
    save(prefix + "din_proj_weight", layer.in_proj_weight.grad)
    save(prefix + "din_proj_bias", layer.in_proj_bias.grad)
    save(prefix + "dout_proj_weight", layer.out_proj.weight.grad)
    save(prefix + "dout_proj_bias", layer.out_proj.bias.grad)
print("wrote", len([f for f in os.listdir(OUT) if f.startswith("mha_")]), "files to", OUT)
