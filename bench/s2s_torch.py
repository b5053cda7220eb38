#!/usr/bin/python3
"""PyTorch speed baseline for the chapter-02 benchmark: one training step of a character-level
sequence-to-sequence model with Bahdanau (additive) attention, float32, on the CPU.

Configuration: source vocabulary 64, target vocabulary 16, embedding 32, one-layer GRU with
hidden 128 on each side, additive attention with hidden 128, decoder input = embedding (+)
context, batch 64, source length 32, target length 12, teacher forcing, cross-entropy
(ignore_index=0), Adam(lr=1e-3). One step = forward + backward + Adam update.

Written as a careful PyTorch user would: nn.GRU (batch_first) over the whole padded source in
one call (no packing), keys projected once per sequence, nn.GRUCell for the 12 decoder steps
(query = previous decoder state), the output layer applied once to the stacked decoder
states, and the d2l masked softmax (fill -1e6) with the source valid lengths.

Data (fixed seed): ids 0 = padding, 1 = begin-of-sequence, 2..3 unused, real tokens >= 4.
Source valid lengths are uniform in [20, 32], padded with 0 after that (the encoder runs over
the padding, as without packing; attention ignores it through the mask, and the decoder
starts from the encoder state at each sequence's last valid token, as in the course).
Target lengths are uniform in [8, 12], padded with 0 (ignored by the loss); decoder inputs
are BOS followed by the target shifted right by one.

Threads: --threads N sets torch's intra-op (OpenMP) pool. Debian's python3-torch does its
matrix products in the pthread OpenBLAS, which keeps a second pool of its own (sized by
OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else the core count). On 2 cores the two pools
fight (idle machine, bench/run's malloc settings): OMP 2 + OpenBLAS 2 ran at ~9.5 steps/s,
OMP 2 + OpenBLAS 1 at ~21.5, one thread in all at ~19. So this script sets OpenBLAS to --blas-threads (default 1) itself, whatever the
environment says, which is both the fastest choice and keeps "--threads 1" really one thread.

Usage:  /usr/bin/python3 bench/s2s_torch.py [--threads N] [--blas-threads 1] [--steps 30]
                                            [--repeats 3] [--warmup 5] [--check]
Prints one JSON line:
  {"config": "s2s bahdanau gru h128 b64 s32 t12", "impl": "torch", "threads": N,
   "steps_per_s": X, "cpu_ms_per_step": C, "parameters": P, "peak_mib": M, "baseline_mib": B,
   "env": {"torch": "...", "python": "..."}}
(peak_mib: the process's peak resident memory after the timed steps; baseline_mib: the same
before the model was built.)
--check prints the parameter count and the loss of each of the first 3 steps instead (and
does not time anything).
"""
import sys

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from training_step_torch import parse_arguments, peak_mib, set_threads, time_or_check  # noqa: E402

SRC_VOCAB, TGT_VOCAB, EMBED, HIDDEN, ATTN_HIDDEN = 64, 16, 32, 128, 128
BATCH, SRC_LEN, TGT_LEN = 64, 32, 12
PAD, BOS, FIRST_TOKEN = 0, 1, 4
CONFIG = "s2s bahdanau gru h128 b64 s32 t12"


class AdditiveAttention(nn.Module):
    def __init__(self, query_size, key_size, hidden):
        super().__init__()
        self.W_q = nn.Linear(query_size, hidden, bias=False)
        self.W_k = nn.Linear(key_size, hidden, bias=False)
        self.w_v = nn.Linear(hidden, 1, bias=False)

    def project_keys(self, keys):
        """Once per sequence: (batch, n_k, key) -> (batch, n_k, hidden)."""
        return self.W_k(keys)

    def forward(self, query, projected_keys, values, key_mask):
        """query (batch, q), projected_keys (batch, n_k, h), values (batch, n_k, v),
        key_mask (batch, n_k) bool -> context (batch, v)."""
        features = torch.tanh(self.W_q(query).unsqueeze(1) + projected_keys)   # (batch, n_k, h)
        scores = self.w_v(features).squeeze(-1)                                 # (batch, n_k)
        weights = torch.softmax(scores.masked_fill(~key_mask, -1e6), dim=-1)    # d2l masked softmax
        return torch.bmm(weights.unsqueeze(1), values).squeeze(1)


class Seq2SeqAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_embedding = nn.Embedding(SRC_VOCAB, EMBED)
        self.tgt_embedding = nn.Embedding(TGT_VOCAB, EMBED)
        self.encoder = nn.GRU(EMBED, HIDDEN, batch_first=True)
        self.attention = AdditiveAttention(HIDDEN, HIDDEN, ATTN_HIDDEN)
        self.decoder = nn.GRUCell(EMBED + HIDDEN, HIDDEN)
        self.output = nn.Linear(HIDDEN, TGT_VOCAB)

    def forward(self, src, src_valid_lens, dec_inputs):
        enc_states, _ = self.encoder(self.src_embedding(src))       # (B, S, H)
        key_mask = torch.arange(src.shape[1]).unsqueeze(0) < src_valid_lens.unsqueeze(1)
        keys = self.attention.project_keys(enc_states)              # once per sequence
        embedded = self.tgt_embedding(dec_inputs)                   # (B, T, E)
        # Decoder initial state = the encoder's state after each sequence's last valid token
        # (the course's frozen-state convention, = packed nn.GRU's h_n); the unpacked GRU's
        # h_n would also have run over the padding. The states at padded positions are
        # masked out of the attention, so the model equals the course's.
        state = enc_states[torch.arange(src.shape[0]), src_valid_lens - 1]
        states = []
        for t in range(dec_inputs.shape[1]):
            context = self.attention(state, keys, enc_states, key_mask)    # query = s_{t-1}
            state = self.decoder(torch.cat([embedded[:, t], context], dim=-1), state)
            states.append(state)
        return self.output(torch.stack(states, dim=1))              # (B, T, V)


def make_batch(seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(FIRST_TOKEN, SRC_VOCAB, (BATCH, SRC_LEN), generator=g)
    src_valid_lens = torch.randint(20, SRC_LEN + 1, (BATCH,), generator=g)
    src[torch.arange(SRC_LEN).unsqueeze(0) >= src_valid_lens.unsqueeze(1)] = PAD
    labels = torch.randint(FIRST_TOKEN, TGT_VOCAB, (BATCH, TGT_LEN), generator=g)
    tgt_lens = torch.randint(8, TGT_LEN + 1, (BATCH,), generator=g)
    labels[torch.arange(TGT_LEN).unsqueeze(0) >= tgt_lens.unsqueeze(1)] = PAD
    dec_inputs = torch.cat([torch.full((BATCH, 1), BOS), labels[:, :-1]], dim=1)
    return src, src_valid_lens, dec_inputs, labels


def main():
    args = parse_arguments(__doc__.split("\n")[0])
    blas_threads = set_threads(args)
    baseline = peak_mib()
    torch.manual_seed(0)
    model = Seq2SeqAttention()
    parameters = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    src, src_valid_lens, dec_inputs, labels = make_batch(2024)
    flat_labels = labels.reshape(-1)

    def step():
        optimizer.zero_grad(set_to_none=True)
        logits = model(src, src_valid_lens, dec_inputs)
        loss = F.cross_entropy(logits.reshape(-1, TGT_VOCAB), flat_labels, ignore_index=PAD)
        loss.backward()
        optimizer.step()
        return loss

    time_or_check(step, args, CONFIG, blas_threads, check_note=f", parameters {parameters}",
                  extra=lambda: {"parameters": parameters, "peak_mib": peak_mib(), "baseline_mib": baseline})


if __name__ == "__main__":
    main()
