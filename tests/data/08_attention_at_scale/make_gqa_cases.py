#!/usr/bin/python3
"""Golden cases for exercise 08.4 (grouped-query attention), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/08_attention_at_scale/make_gqa_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.

d = 12, H = 4 query heads of d_h = 3, and G = 2 or G = 1 key/value heads. The layer is four
torch.nn.Linear projections with biases, named as the Llama family's PyTorch code names them:
q_proj (H d_h, d), k_proj (G d_h, d), v_proj (G d_h, d), o_proj (d, H d_h). Query head h reads
key/value head h // (H // G): the key/value heads are repeated with repeat_interleave along the
head axis, as torch.nn.functional.scaled_dot_product_attention(enable_gqa=True) does (torch 2.5
and later; Debian's torch 1.13 lacks it, so the attention is written out here: scores / sqrt(d_h),
blocked keys -inf, softmax, times the values; with a torch that has enable_gqa the script also
checks against it). Batch 2, n_q 3, n_k 5 (so a mask or a weight of the wrong shape does not fit
by accident); query, key and value three different tensors. Prefix gqa_:
  gqa_query (2, 3, 12), gqa_key (2, 5, 12), gqa_value (2, 5, 12), gqa_doutput (2, 3, 12) (a random
  upstream gradient of the output), the masks gqa_key_padding (2, 5) int64 0/1 (keys 3, 4 of the
  second sequence are padding) and gqa_attention_mask (3, 5) int64 0/1 (query i may not see key
  j > i + 2: the queries are the last three of five positions, causal);
for G in 2, 1 the layer's parameters gqa_gG_P_weight and gqa_gG_P_bias for P in q_proj, k_proj,
v_proj, o_proj; and for each case C in
    plain     no mask
    both      the key-padding mask and the attention mask (OR-ed)
  gqa_gG_C_output (2, 3, 12), gqa_gG_C_head_weights (2, 4, 3, 5), and the gradients of
  sum(output * doutput): gqa_gG_C_dquery, gqa_gG_C_dkey, gqa_gG_C_dvalue and gqa_gG_C_dP_weight,
  gqa_gG_C_dP_bias for the four projections P.
"""
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(8)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))
D, HEADS, D_H, BATCH, N_Q, N_K = 12, 4, 3, 2, 3, 5
PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    np.save(os.path.join(OUT, name + ".npy"), array)


def make_layer(kv_heads):
    layer = torch.nn.ModuleDict({"q_proj": torch.nn.Linear(D, HEADS * D_H), "k_proj": torch.nn.Linear(D, kv_heads * D_H),
                                 "v_proj": torch.nn.Linear(D, kv_heads * D_H), "o_proj": torch.nn.Linear(HEADS * D_H, D)})
    with torch.no_grad():   # biases of both signs and of a size that shows when one is forgotten
        for name in PROJECTIONS:
            layer[name].bias.uniform_(-0.5, 0.5)
    return layer


def heads_of(x, count):
    """(batch, n, count d_h) -> (batch, count, n, d_h)"""
    return x.view(x.shape[0], x.shape[1], count, D_H).transpose(1, 2)


def grouped_query(layer, kv_heads, query, key, value, blocked):
    q = heads_of(layer["q_proj"](query), HEADS)                                  # (b, H, n_q, d_h)
    k = heads_of(layer["k_proj"](key), kv_heads).repeat_interleave(HEADS // kv_heads, dim=1)   # (b, H, n_k, d_h)
    v = heads_of(layer["v_proj"](value), kv_heads).repeat_interleave(HEADS // kv_heads, dim=1)
    scores = q @ k.transpose(-1, -2) / math.sqrt(D_H)
    scores = scores.masked_fill(torch.from_numpy(blocked)[:, None], -math.inf)
    weights = torch.softmax(scores, dim=-1)                                      # (b, H, n_q, n_k)
    heads = (weights @ v).transpose(1, 2).reshape(BATCH, N_Q, HEADS * D_H)
    return layer["o_proj"](heads), weights


def by_hand(layer, kv_heads, query, key, value, blocked):
    """The formulas (8.11)-(8.13) head by head in NumPy, to cross-check the PyTorch code."""
    W = {name: (layer[name].weight.detach().numpy(), layer[name].bias.detach().numpy()) for name in PROJECTIONS}
    q, k, v = (x.detach().numpy() @ W[p][0].T + W[p][1] for x, p in ((query, "q_proj"), (key, "k_proj"), (value, "v_proj")))
    heads, weights = [], []
    for h in range(HEADS):
        g = h // (HEADS // kv_heads)
        qh, kg, vg = q[..., h * D_H:(h + 1) * D_H], k[..., g * D_H:(g + 1) * D_H], v[..., g * D_H:(g + 1) * D_H]
        scores = np.where(blocked, -np.inf, qh @ kg.transpose(0, 2, 1) / math.sqrt(D_H))
        w = np.exp(scores - scores.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        heads.append(w @ vg)
        weights.append(w)
    return np.concatenate(heads, -1) @ W["o_proj"][0].T + W["o_proj"][1], np.stack(weights, 1)


def with_enable_gqa(layer, kv_heads, query, key, value, blocked):
    """torch 2.5+: the same attention by scaled_dot_product_attention(enable_gqa=True); None before."""
    if not hasattr(F, "scaled_dot_product_attention"):   # torch 2.0 and later
        return None
    q, k, v = heads_of(layer["q_proj"](query), HEADS), heads_of(layer["k_proj"](key), kv_heads), heads_of(layer["v_proj"](value), kv_heads)
    try:
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask=~torch.from_numpy(blocked)[:, None], enable_gqa=True)
    except TypeError:                                    # torch 2.0 to 2.4: no enable_gqa
        return None
    return layer["o_proj"](heads.transpose(1, 2).reshape(BATCH, N_Q, HEADS * D_H))


query, key, value = torch.randn(BATCH, N_Q, D), torch.randn(BATCH, N_K, D), torch.randn(BATCH, N_K, D)
doutput = torch.randn(BATCH, N_Q, D)
key_padding = (torch.arange(N_K)[None, :] >= torch.tensor([5, 3])[:, None]).numpy()     # (2, 5)
attention_mask = (torch.arange(N_K)[None, :] > torch.arange(N_Q)[:, None] + 2).numpy()  # (3, 5)
for name, tensor in [("query", query), ("key", key), ("value", value), ("doutput", doutput),
                     ("key_padding", key_padding.astype(np.int64)), ("attention_mask", attention_mask.astype(np.int64))]:
    save("gqa_" + name, tensor)

checked_enable_gqa = False
for kv_heads in (2, 1):
    layer = make_layer(kv_heads)
    for name in PROJECTIONS:
        save(f"gqa_g{kv_heads}_{name}_weight", layer[name].weight)
        save(f"gqa_g{kv_heads}_{name}_bias", layer[name].bias)
    for case, blocked in [("plain", np.zeros((BATCH, N_Q, N_K), dtype=bool)),
                          ("both", key_padding[:, None, :] | attention_mask[None, :, :])]:
        layer.zero_grad()
        q, k, v = (x.clone().requires_grad_(True) for x in (query, key, value))
        output, head_weights = grouped_query(layer, kv_heads, q, k, v, blocked)
        expected_output, expected_weights = by_hand(layer, kv_heads, query, key, value, blocked)
        assert np.allclose(output.detach().numpy(), expected_output, rtol=1e-12, atol=1e-14)
        assert np.allclose(head_weights.detach().numpy(), expected_weights, rtol=1e-12, atol=1e-14)
        sdpa = with_enable_gqa(layer, kv_heads, query, key, value, blocked)
        if sdpa is not None:
            assert torch.allclose(sdpa, output, rtol=1e-12, atol=1e-14)
            checked_enable_gqa = True
        (output * doutput).sum().backward()
        prefix = f"gqa_g{kv_heads}_{case}_"
        save(prefix + "output", output), save(prefix + "head_weights", head_weights)
        save(prefix + "dquery", q.grad), save(prefix + "dkey", k.grad), save(prefix + "dvalue", v.grad)
        for name in PROJECTIONS:
            save(prefix + "d" + name + "_weight", layer[name].weight.grad)
            save(prefix + "d" + name + "_bias", layer[name].bias.grad)
print("wrote", len([f for f in os.listdir(OUT) if f.startswith("gqa_")]), "files to", OUT,
      "(checked against scaled_dot_product_attention(enable_gqa=True))" if checked_enable_gqa
      else f"(torch {torch.__version__} has no enable_gqa: checked against the NumPy loop only)")
