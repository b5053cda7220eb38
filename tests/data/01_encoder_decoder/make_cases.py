#!/usr/bin/python3
"""Golden cases for chapter 01 (GRU cell and GRU encoder with padding), computed by PyTorch
in float64.

Run from the repository root:  /usr/bin/python3 tests/data/01_encoder_decoder/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.
Lengths are int64, everything else float64. PyTorch's GRU layout and gate order (r, z, n):
  r  = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
  z  = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
  n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))
  h' = (1 - z) * n + z * h
where weight_ih = [W_ir; W_iz; W_in] and weight_hh = [W_hr; W_hz; W_hn] (rows stacked).

GRU cell, batch 3, input 5, hidden 4 (torch.nn.GRUCell):
  gru_cell_x.npy            (3, 5)   input
  gru_cell_h.npy            (3, 4)   previous state
  gru_cell_weight_ih.npy    (12, 5)
  gru_cell_weight_hh.npy    (12, 4)
  gru_cell_bias_ih.npy      (12,)
  gru_cell_bias_hh.npy      (12,)
  gru_cell_dh_next.npy      (3, 4)   upstream gradient of h'
  gru_cell_h_next.npy       (3, 4)   h'
  gru_cell_dx.npy           (3, 5)   gradients of sum(h' * dh_next)
  gru_cell_dh.npy           (3, 4)
  gru_cell_dweight_ih.npy   (12, 5)
  gru_cell_dweight_hh.npy   (12, 4)
  gru_cell_dbias_ih.npy     (12,)
  gru_cell_dbias_hh.npy     (12,)

GRU sequence, batch 3, seq 6, input 5, hidden 4, batch-first, h0 = 0, valid lengths
[6, 4, 1]. At steps t >= length the state is frozen (h_t = h_{t-1}), so padded positions of
`states` repeat the last valid state (packed sequences would give zeros there) and `final`
is each sequence's state after its last valid token (asserted equal to nn.GRU's h_n on a
pack_padded_sequence, and the valid part of `states` to the packed output).
  gru_seq_x.npy             (3, 6, 5)  input (padded positions hold random values too;
                                       they must not influence anything)
  gru_seq_lengths.npy       (3,)       int64 [6, 4, 1]
  gru_seq_h0.npy            (3, 4)     zeros
  gru_seq_weight_ih.npy     (12, 5)
  gru_seq_weight_hh.npy     (12, 4)
  gru_seq_bias_ih.npy       (12,)
  gru_seq_bias_hh.npy       (12,)
  gru_seq_states.npy        (3, 6, 4)  h_1 .. h_6 with the frozen-state convention
  gru_seq_final.npy         (3, 4)     final state
  gru_seq_R1.npy            (3, 6, 4)  random weights of the loss
  gru_seq_R2.npy            (3, 4)
  gru_seq_dx.npy            (3, 6, 5)  gradients of sum(states * R1) + sum(final * R2)
  gru_seq_dweight_ih.npy    (12, 5)    (dx is exactly zero at padded positions)
  gru_seq_dweight_hh.npy    (12, 4)
  gru_seq_dbias_ih.npy      (12,)
  gru_seq_dbias_hh.npy      (12,)
"""
import pathlib

import numpy as np
import torch

here = pathlib.Path(__file__).resolve().parent
g = torch.Generator().manual_seed(2101)
torch.set_default_dtype(torch.float64)
written = []


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    array = array.astype(np.int64 if array.dtype.kind in "iu" else np.float64)
    np.save(here / f"{name}.npy", array)
    written.append((name, array.shape, array.dtype))


def randn(*shape, scale=1.0):
    return torch.randn(*shape, generator=g) * scale


def gru_cell_by_formula(x, h, w_ih, w_hh, b_ih, b_hh):
    """The formulas of the docstring, written out (checks the gate order of nn.GRUCell)."""
    gi = x @ w_ih.T + b_ih
    gh = h @ w_hh.T + b_hh
    i_r, i_z, i_n = gi.chunk(3, dim=-1)
    h_r, h_z, h_n = gh.chunk(3, dim=-1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def set_weights(cell):
    # Scaled so the gates are neither saturated nor linear.
    with torch.no_grad():
        for p in (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh):
            p.copy_(randn(*p.shape, scale=0.6))


# ---- GRU cell -------------------------------------------------------------------------
B, IN, H = 3, 5, 4
cell = torch.nn.GRUCell(IN, H)
set_weights(cell)
x = randn(B, IN).requires_grad_(True)
h = randn(B, H, scale=0.8).requires_grad_(True)
dh_next = randn(B, H)
h_next = cell(x, h)
params = [cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh]
dx, dh, dw_ih, dw_hh, db_ih, db_hh = torch.autograd.grad((h_next * dh_next).sum(), [x, h] + params)
by_formula = gru_cell_by_formula(x, h, *params)
assert torch.allclose(by_formula, h_next, rtol=0, atol=1e-14), "nn.GRUCell disagrees with the formulas"
assert torch.autograd.gradcheck(gru_cell_by_formula, (x, h, *params)), "cell gradcheck"
for name, t in {"x": x, "h": h, "weight_ih": cell.weight_ih, "weight_hh": cell.weight_hh,
                "bias_ih": cell.bias_ih, "bias_hh": cell.bias_hh, "dh_next": dh_next, "h_next": h_next,
                "dx": dx, "dh": dh, "dweight_ih": dw_ih, "dweight_hh": dw_hh,
                "dbias_ih": db_ih, "dbias_hh": db_hh}.items():
    save(f"gru_cell_{name}", t)

# ---- GRU sequence with padding ------------------------------------------------------------
B, T, IN, H = 3, 6, 5, 4
lengths = torch.tensor([6, 4, 1], dtype=torch.int64)
cell = torch.nn.GRUCell(IN, H)
set_weights(cell)
params = [cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh]
x = randn(B, T, IN).requires_grad_(True)
h0 = torch.zeros(B, H)
R1 = randn(B, T, H)
R2 = randn(B, H)


def run_encoder(x, *weights):
    state = h0
    states = []
    for t in range(T):
        valid = (t < lengths).unsqueeze(1)      # (B, 1)
        state = torch.where(valid, torch.gru_cell(x[:, t], state, *weights), state)  # = nn.GRUCell
        states.append(state)
    return torch.stack(states, dim=1), state    # (B, T, H), (B, H)


def seq_loss(x, *weights):
    states, final = run_encoder(x, *weights)
    return (states * R1).sum() + (final * R2).sum()


states, final = run_encoder(x, *params)
loss = (states * R1).sum() + (final * R2).sum()
assert torch.autograd.gradcheck(seq_loss, (x, *params)), "sequence gradcheck"
dx, dw_ih, dw_hh, db_ih, db_hh = torch.autograd.grad(loss, [x] + params)

# Validate the convention against nn.GRU on a packed sequence.
gru = torch.nn.GRU(IN, H, batch_first=True)
with torch.no_grad():
    gru.weight_ih_l0.copy_(cell.weight_ih)
    gru.weight_hh_l0.copy_(cell.weight_hh)
    gru.bias_ih_l0.copy_(cell.bias_ih)
    gru.bias_hh_l0.copy_(cell.bias_hh)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    packed_out, h_n = gru(packed, h0.unsqueeze(0))
    padded_out, _ = torch.nn.utils.rnn.pad_packed_sequence(packed_out, batch_first=True, total_length=T)
assert torch.allclose(final, h_n[0], rtol=0, atol=1e-13), "final state differs from packed nn.GRU h_n"
for b in range(B):
    L = int(lengths[b])
    assert torch.allclose(states[b, :L], padded_out[b, :L], rtol=0, atol=1e-13), "valid states differ"
    assert torch.equal(states[b, L:], final[b].expand(T - L, H)), "padded states are not frozen"
    assert torch.all(dx[b, L:] == 0), "padded inputs must get zero gradient"
print("asserts passed: GRUCell == formulas; gradcheck (cell, sequence); final == packed nn.GRU h_n;"
      " valid states == packed output; padded states frozen; dx == 0 at padding")

for name, t in {"x": x, "lengths": lengths, "h0": h0, "weight_ih": cell.weight_ih, "weight_hh": cell.weight_hh,
                "bias_ih": cell.bias_ih, "bias_hh": cell.bias_hh, "states": states, "final": final,
                "R1": R1, "R2": R2, "dx": dx, "dweight_ih": dw_ih, "dweight_hh": dw_hh,
                "dbias_ih": db_ih, "dbias_hh": db_hh}.items():
    save(f"gru_seq_{name}", t)

total = sum((here / f"{n}.npy").stat().st_size for n, _, _ in written)
for name, shape, dtype in written:
    print(f"  {name}.npy {shape} {dtype}")
print(f"wrote {len(written)} files ({total} bytes) to {here.name}/ with torch {torch.__version__}")
