#!/usr/bin/python3
"""Golden cases for chapter 07 (the Transformer), computed by PyTorch in float64.

Run from the repository root:  /usr/bin/python3 tests/data/07_transformer/make_cases.py
Needs Debian's python3-torch and python3-numpy; the C++ tests only read the .npy files.
Masks are int64 0/1 arrays, 1 = blocked (PyTorch's boolean masks). Every gradient is that
of sum(output * doutput) for the stored random doutput. Biases and the norms' weights and
biases are random (not PyTorch's 0 and 1), so that forgetting one shows. No row is fully
blocked (PyTorch returns NaN there, the course zeros).

layer_norm/   torch.nn.LayerNorm, eps 1e-5, for two normalised shapes C:
    C = d1: x (2, 3, 6) over its last axis (6);  C = d2: x (2, 3, 4, 5) over its last two (4, 5)
    C_x, C_weight, C_bias, C_doutput, C_output, C_dx, C_dweight, C_dbias
encoder_layer/   nn.TransformerEncoderLayer(16, 4, 32, dropout=0, batch_first=True):
    its parameters as <state_dict name>.npy; x (2, 5, 16); key_padding (2, 5) (the last two
    positions of sequence 1); doutput (2, 5, 16); for P = post (norm_first=False) and pre
    (norm_first=True), the same weights: P_output, P_dx, P_d.<name> for every parameter.
decoder_layer/   nn.TransformerDecoderLayer(16, 4, 32, dropout=0, batch_first=True):
    its parameters; y (2, 4, 16), memory (2, 5, 16), causal_mask (4, 4), target_padding (2, 4)
    (the last position of sequence 1), memory_padding (2, 5) (the last three of sequence 1),
    doutput (2, 4, 16); for P in post, pre: P_output, P_dy, P_dmemory, P_d.<name>.
transformer/   nn.Transformer(d_model=16, nhead=4, 2 + 2 layers, dim_feedforward=32,
    dropout=0, batch_first=True): its parameters; parameters.tsv (name, shape as "48,16", in
    state_dict order); source (2, 6, 16), target (2, 5, 16), source_padding (2, 6) (the last
    two of sequence 1, also the memory padding), target_mask (5, 5) (causal),
    target_padding (2, 5) (the last two of sequence 1), doutput (2, 5, 16); output, dsource,
    dtarget, d.<name> for every parameter.
"""
import os

import numpy as np
import torch

torch.manual_seed(7)
torch.set_default_dtype(torch.float64)
OUT = os.path.dirname(os.path.abspath(__file__))
D, HEADS, FF = 16, 4, 32


def save(name, tensor):
    array = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    path = os.path.join(OUT, name + ".npy")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.save(path, array)


def padding(lengths, n):
    return torch.arange(n)[None, :] >= torch.tensor(lengths)[:, None]   # True = padding


def causal(m):
    return torch.arange(m)[None, :] > torch.arange(m)[:, None]   # row i may not see column j > i


def randomise(module):
    """Random biases and norm parameters (PyTorch starts them at 0 and 1)."""
    with torch.no_grad():
        for name, p in module.named_parameters():
            if p.dim() == 1:
                p.copy_(torch.rand_like(p) - 0.5 + (1.0 if "norm" in name and name.endswith("weight") else 0.0))


def save_parameters(module, folder, prefix=""):
    for name, p in module.named_parameters():
        save(folder + "/" + prefix + name, p)


def save_gradients(module, folder, prefix):
    for name, p in module.named_parameters():
        save(folder + "/" + prefix + "d." + name, p.grad)


# ---- LayerNorm, 1-D and 2-D normalised shapes, checked against the formula (7.1) by hand.
for case, shape, normalised in [("d1", (2, 3, 6), (6,)), ("d2", (2, 3, 4, 5), (4, 5))]:
    norm = torch.nn.LayerNorm(normalised)
    randomise(norm)
    x = torch.randn(*shape, requires_grad=True)
    doutput = torch.randn(*shape)
    output = norm(x)
    axes = tuple(range(-len(normalised), 0))
    xn = x.detach().numpy()
    mu, var = xn.mean(axis=axes, keepdims=True), xn.var(axis=axes, keepdims=True)
    by_hand = (xn - mu) / np.sqrt(var + 1e-5) * norm.weight.detach().numpy() + norm.bias.detach().numpy()
    assert np.allclose(output.detach().numpy(), by_hand, rtol=1e-12, atol=1e-14)
    (output * doutput).sum().backward()
    for name, tensor in [("x", x), ("weight", norm.weight), ("bias", norm.bias), ("doutput", doutput),
                         ("output", output), ("dx", x.grad), ("dweight", norm.weight.grad), ("dbias", norm.bias.grad)]:
        save("layer_norm/" + case + "_" + name, tensor)

# ---- One encoder block with key padding, post-norm and pre-norm (the same weights).
layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
randomise(layer)
save_parameters(layer, "encoder_layer")
x, key_padding, doutput = torch.randn(2, 5, D), padding([5, 3], 5), torch.randn(2, 5, D)
save("encoder_layer/x", x), save("encoder_layer/key_padding", key_padding.long()), save("encoder_layer/doutput", doutput)
for placement in ["post", "pre"]:
    layer.norm_first = placement == "pre"
    layer.zero_grad()
    xg = x.clone().requires_grad_(True)
    output = layer(xg, src_key_padding_mask=key_padding)
    (output * doutput).sum().backward()
    save(f"encoder_layer/{placement}_output", output), save(f"encoder_layer/{placement}_dx", xg.grad)
    save_gradients(layer, "encoder_layer", placement + "_")

# ---- One decoder block with a causal mask, target padding and memory padding.
layer = torch.nn.TransformerDecoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
randomise(layer)
save_parameters(layer, "decoder_layer")
y, memory, doutput = torch.randn(2, 4, D), torch.randn(2, 5, D), torch.randn(2, 4, D)
masks = {"causal_mask": causal(4), "target_padding": padding([4, 3], 4), "memory_padding": padding([5, 2], 5)}
save("decoder_layer/y", y), save("decoder_layer/memory", memory), save("decoder_layer/doutput", doutput)
for name, mask in masks.items():
    save("decoder_layer/" + name, mask.long())
for placement in ["post", "pre"]:
    layer.norm_first = placement == "pre"
    layer.zero_grad()
    yg, mg = y.clone().requires_grad_(True), memory.clone().requires_grad_(True)
    output = layer(yg, mg, tgt_mask=masks["causal_mask"], tgt_key_padding_mask=masks["target_padding"],
                   memory_key_padding_mask=masks["memory_padding"])
    (output * doutput).sum().backward()
    save(f"decoder_layer/{placement}_output", output)
    save(f"decoder_layer/{placement}_dy", yg.grad), save(f"decoder_layer/{placement}_dmemory", mg.grad)
    save_gradients(layer, "decoder_layer", placement + "_")

# ---- The whole nn.Transformer, 2 + 2 layers, post-norm, with both final norms.
model = torch.nn.Transformer(d_model=D, nhead=HEADS, num_encoder_layers=2, num_decoder_layers=2,
                             dim_feedforward=FF, dropout=0.0, batch_first=True)
randomise(model)
save_parameters(model, "transformer")
with open(os.path.join(OUT, "transformer", "parameters.tsv"), "w") as listing:
    listing.write("# name\tshape: torch.nn.Transformer(16, 4, 2, 2, 32, batch_first=True).state_dict(), in order\n")
    for name, tensor in model.state_dict().items():
        listing.write(name + "\t" + ",".join(str(s) for s in tensor.shape) + "\n")
source, target, doutput = torch.randn(2, 6, D), torch.randn(2, 5, D), torch.randn(2, 5, D)
source_padding, target_mask, target_padding = padding([6, 4], 6), causal(5), padding([5, 3], 5)
for name, tensor in [("source", source), ("target", target), ("doutput", doutput),
                     ("source_padding", source_padding.long()), ("target_mask", target_mask.long()),
                     ("target_padding", target_padding.long())]:
    save("transformer/" + name, tensor)
sg, tg = source.clone().requires_grad_(True), target.clone().requires_grad_(True)
output = model(sg, tg, tgt_mask=target_mask, src_key_padding_mask=source_padding,
               tgt_key_padding_mask=target_padding, memory_key_padding_mask=source_padding)
(output * doutput).sum().backward()
save("transformer/output", output), save("transformer/dsource", sg.grad), save("transformer/dtarget", tg.grad)
save_gradients(model, "transformer", "")
count = sum(len(files) for _, _, files in os.walk(OUT) if files)
print("wrote", count, "files under", OUT)
