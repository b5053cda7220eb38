#!/usr/bin/python3
"""PyTorch speed baseline for the chapter-07 benchmark: one training step of an encoder-decoder
Transformer (torch.nn.Transformer), float32, on the CPU, built as chapter 07's translation
model (chapters/07_transformer/translation_model.*) that bench_transformer times.

Configuration: d_model 64, 4 heads, feed-forward 256, 2 encoder and 2 decoder layers, post-norm
(nn.Transformer's default, with the final encoder.norm and decoder.norm it adds), dropout 0,
ReLU, source and target vocabularies 256 with a separate embedding table each, initialised as
the chapter's (N(0, 1/64), so that sqrt(64) times an embedding has entries of size 1, like the
positions), embeddings times sqrt(64) plus the sinusoidal positions, output Linear(64 -> 256),
batch 64, source and target length 24, no padding, causal target mask, mean cross-entropy over
all target tokens (ignore_index 0, the padding id, as the chapter's training loss; none occurs),
Adam(lr=1e-3). One step = forward + backward + Adam update.

Written as a careful PyTorch user would: nn.Transformer(batch_first=True), the position table
and the causal mask (generate_square_subsequent_mask) built once outside the step, the output
layer applied once to all decoder states, zero_grad(set_to_none=True).

Data (fixed seed): token ids uniform in [4, 256) for the source, the decoder inputs and the
labels (ids 0-3 are reserved for padding and the special tokens, as in the course; none occur).

Threads: --threads N sets torch's intra-op pool; OpenBLAS's own pool is set to --blas-threads
(default 1) for the reason bench/s2s_torch.py measured (two pools on two cores fight).

Usage:  /usr/bin/python3 bench/transformer_torch.py [--threads N] [--blas-threads 1] [--steps 30]
                                                    [--repeats 3] [--warmup 5] [--check]
Prints one JSON line:
  {"config": "transformer d64 h4 ff256 2+2 b64 s24 t24 v256", "impl": "torch", "threads": N,
   "steps_per_s": X, "parameters": P, "peak_mib": M, "baseline_mib": B, "env": {...}}
(peak_mib: the process's peak resident memory after the timed steps; baseline_mib: the same
before the model was built, i.e. what importing torch costs.)
--check prints the parameter count and the loss of each of the first 3 steps instead.
"""
import math
import sys

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from training_step_torch import parse_arguments, peak_mib, set_threads, time_or_check  # noqa: E402

D_MODEL, HEADS, FEED_FORWARD, ENCODER_LAYERS, DECODER_LAYERS = 64, 4, 256, 2, 2
SRC_VOCAB = TGT_VOCAB = 256
BATCH, SRC_LEN, TGT_LEN = 64, 24, 24
PAD_ID, FIRST_TOKEN = 0, 4
CONFIG = "transformer d64 h4 ff256 2+2 b64 s24 t24 v256"


def sinusoidal_encoding(n, d):
    """P[i, 2j] = sin(i w_j), P[i, 2j + 1] = cos(i w_j), w_j = 1 / 10000^(2j / d): (n, d)."""
    position = torch.arange(n, dtype=torch.float64).unsqueeze(1)
    frequency = torch.pow(10000.0, -torch.arange(0, d, 2, dtype=torch.float64) / d)
    table = torch.zeros(n, d, dtype=torch.float64)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency)
    return table.float()


class TranslationTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.source_embedding = nn.Embedding(SRC_VOCAB, D_MODEL)
        self.target_embedding = nn.Embedding(TGT_VOCAB, D_MODEL)
        for table in (self.source_embedding, self.target_embedding):   # the chapter's EmbeddingInit::scaled
            nn.init.normal_(table.weight, std=1 / math.sqrt(D_MODEL))
        self.transformer = nn.Transformer(D_MODEL, HEADS, ENCODER_LAYERS, DECODER_LAYERS, FEED_FORWARD,
                                          dropout=0.0, activation="relu", batch_first=True, norm_first=False)
        self.output = nn.Linear(D_MODEL, TGT_VOCAB)
        self.register_buffer("positions", sinusoidal_encoding(max(SRC_LEN, TGT_LEN), D_MODEL))

    def embed(self, table, ids):
        return table(ids) * math.sqrt(D_MODEL) + self.positions[: ids.shape[1]]

    def forward(self, src, dec_inputs, tgt_mask):
        states = self.transformer(self.embed(self.source_embedding, src),
                                  self.embed(self.target_embedding, dec_inputs), tgt_mask=tgt_mask)
        return self.output(states)   # (B, T, V)


def make_batch(seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(FIRST_TOKEN, SRC_VOCAB, (BATCH, SRC_LEN), generator=g)
    dec_inputs = torch.randint(FIRST_TOKEN, TGT_VOCAB, (BATCH, TGT_LEN), generator=g)
    labels = torch.randint(FIRST_TOKEN, TGT_VOCAB, (BATCH, TGT_LEN), generator=g)
    return src, dec_inputs, labels


def main():
    args = parse_arguments(__doc__.split("\n")[0])
    blas_threads = set_threads(args)
    baseline = peak_mib()
    torch.manual_seed(0)
    model = TranslationTransformer()
    parameters = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    src, dec_inputs, labels = make_batch(2024)
    flat_labels = labels.reshape(-1)
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(TGT_LEN)   # -inf above the diagonal

    def step():
        optimizer.zero_grad(set_to_none=True)
        logits = model(src, dec_inputs, tgt_mask)
        loss = F.cross_entropy(logits.reshape(-1, TGT_VOCAB), flat_labels, ignore_index=PAD_ID)   # mean over all tokens
        loss.backward()
        optimizer.step()
        return loss

    time_or_check(step, args, CONFIG, blas_threads, check_note=f", parameters {parameters}",
                  extra=lambda: {"parameters": parameters, "peak_mib": peak_mib(), "baseline_mib": baseline})


if __name__ == "__main__":
    main()
