#!/usr/bin/python3
"""BLEU cases for common/metrics.cpp, computed with NLTK (Debian's python3-nltk).

Run from the repository root:  /usr/bin/python3 tests/data/common/make_bleu_cases.py
It rewrites tests/data/common/bleu_cases.txt; the C++ tests only read that file.
One reference per hypothesis; uniform weights 1/max_n.

Values written for each case:
  nltk_sentence_bleu   nltk sentence_bleu, max_n 4, SmoothingFunction().method1 (epsilon 0.1)
  nltk_corpus_bleu_4   nltk corpus_bleu, max_n 4, no smoothing
  nltk_corpus_bleu_2   nltk corpus_bleu, max_n 2, no smoothing
  papineni_bleu_4      corpus BLEU with Papineni's n-gram totals, max_n 4 (see below)
  papineni_bleu_2      the same, max_n 2

Two places where NLTK's unsmoothed corpus_bleu is not the Papineni et al. (2002) formula
that common/metrics.cpp implements:
  1. NLTK counts every hypothesis as having at least one n-gram of each order
     (denominator max(1, count)), so a hypothesis shorter than n adds an unmatched n-gram
     to the corpus total: a perfect corpus containing a one-word sentence scores 0.889.
     papineni_bleu_N keeps NLTK's clipped match counts (modified_precision) and its
     brevity_penalty, and counts the n-grams a hypothesis really has, len - n + 1. Where
     every hypothesis has at least n tokens, the two agree; this script asserts that.
  2. For a zero precision NLTK uses sys.float_info.min instead, so its "0" is about 1e-77
     (with a warning that the score evaluates to 0). papineni_bleu_N is exactly 0 there.

File format (UTF-8), one case after another:
  case NAME
  hyp: TOKEN TOKEN ...        tokens separated by single spaces; "hyp:" alone is empty
  ref: TOKEN TOKEN ...
  nltk_sentence_bleu: VALUE   for the pair just above
  ... (more hyp / ref / nltk_sentence_bleu triples)
  nltk_corpus_bleu_4: VALUE
  nltk_corpus_bleu_2: VALUE
  papineni_bleu_4: VALUE
  papineni_bleu_2: VALUE
  end
Numbers have 17 significant digits, so they read back to the same double.
"""
import math
import pathlib
import random
import warnings

import nltk
from nltk.translate.bleu_score import (SmoothingFunction, brevity_penalty, corpus_bleu,
                                       modified_precision, sentence_bleu)

here = pathlib.Path(__file__).resolve().parent
smoothing = SmoothingFunction().method1  # epsilon = 0.1
nltk_zero = 1e-60  # NLTK's stand-in for 0 is (float_info.min)^(1/max_n) ~ 1e-77 or less


def split(text):
    return text.split(" ") if text else []


# Hand-made cases: (name, [(hypothesis, reference), ...]).
hand_cases = [
    ("perfect_match", [("the cat sat on the mat", "the cat sat on the mat")]),
    ("no_4gram_overlap", [("the cat sat the mat on", "the cat sat on the mat")]),
    ("no_overlap_at_all", [("a b c d e", "v w x y z")]),
    ("short_hypothesis_brevity_penalty",
     [("the cat sat on the", "the cat sat on the mat today")]),
    ("three_word_hypothesis", [("the cat sat", "the cat sat on the mat")]),
    ("clipping_repeated_words", [("the the the the", "the cat")]),
    ("clipping_paper_example",
     [("the the the the the the the", "the cat is on the mat")]),
    ("longer_hypothesis_no_penalty",
     [("the cat sat on the mat and then it slept", "the cat sat on the mat")]),
    ("unicode_tokens",
     [("le café est très chaud ß 日本 語 🙂", "le café est très chaud ß 日本 語 🙂 !"),
      # precomposed é (U+00E9) vs e + combining acute (U+0301): different tokens
      ("un caf\u00e9 noir s'il vous plaît", "un cafe\u0301 noir s'il vous plaît")]),
    ("empty_hypothesis", [("", "the cat sat")]),
    ("corpus_of_three",
     [("the cat sat on the mat", "the cat sat on the mat"),
      ("a dog ran in the park today", "the dog ran in the park"),
      ("it is raining", "it is raining again today")]),
    ("corpus_with_one_word_hypothesis",
     [("yes", "yes"),
      ("we will meet at the station at noon", "we will meet at the station at noon")]),
]


def random_corpus(seed, pairs, vocabulary_size, shortest, longest, hypothesis_minimum):
    """References of random length from a small vocabulary; hypotheses are noisy copies
    (substitutions, deletions, insertions), so every n-gram order gets some matches."""
    generator = random.Random(seed)
    vocabulary = [f"w{i:02d}" for i in range(vocabulary_size)]
    corpus = []
    for _ in range(pairs):
        length = generator.randint(shortest, longest)
        reference = [generator.choice(vocabulary) for _ in range(length)]
        hypothesis = []
        for token in reference:
            roll = generator.random()
            if roll < 0.10:
                continue  # deletion
            hypothesis.append(generator.choice(vocabulary) if roll < 0.25 else token)
            if generator.random() < 0.05:
                hypothesis.append(generator.choice(vocabulary))  # insertion
        while len(hypothesis) < hypothesis_minimum:
            hypothesis.append(generator.choice(vocabulary))
        corpus.append((" ".join(hypothesis), " ".join(reference)))
    return corpus


cases = hand_cases + [
    # Every hypothesis has >= 4 tokens, so NLTK's corpus_bleu applies as it is.
    ("random_corpus_seed_2026", random_corpus(2026, 50, 30, 3, 40, 4)),
    # Short sentences, where NLTK's n-gram totals and Papineni's differ.
    ("random_short_corpus_seed_7", random_corpus(7, 20, 8, 1, 6, 0)),
]


def papineni_corpus_bleu(hypotheses, references, max_n):
    """Corpus BLEU from NLTK's clipped counts and brevity penalty, with Papineni's totals."""
    matched, total = [0] * max_n, [0] * max_n
    for hypothesis, reference in zip(hypotheses, references):
        for n in range(1, max_n + 1):
            matched[n - 1] += modified_precision([reference], hypothesis, n).numerator
            total[n - 1] += max(0, len(hypothesis) - n + 1)  # NLTK: max(1, ...)
    if min(matched) == 0:
        return 0.0  # a zero precision (or none defined) makes the geometric mean 0
    hypothesis_length = sum(len(h) for h in hypotheses)
    reference_length = sum(len(r) for r in references)
    bp = brevity_penalty(reference_length, hypothesis_length)
    weight = 1.0 / max_n
    return bp * math.exp(math.fsum(weight * math.log(m / t) for m, t in zip(matched, total)))


def nltk_corpus(hypotheses, references, max_n):
    return corpus_bleu([[r] for r in references], hypotheses, weights=(1.0 / max_n,) * max_n)


def check_agreement(name, hypotheses, nltk_value, papineni_value, max_n):
    """Where the conventions coincide, the Papineni line must reproduce NLTK itself."""
    if papineni_value == 0.0:
        assert nltk_value < nltk_zero, (name, max_n, nltk_value)
    elif all(len(h) >= max_n for h in hypotheses):
        assert abs(nltk_value - papineni_value) <= 1e-15 * nltk_value, (name, max_n)


def value(number):
    return f"{float(number):.17g}"


def case_lines(name, pairs):
    hypotheses = [split(h) for h, _ in pairs]
    references = [split(r) for _, r in pairs]
    lines = [f"case {name}"]
    for hypothesis, reference in zip(hypotheses, references):
        lines.append(("hyp: " + " ".join(hypothesis)).rstrip())
        lines.append(("ref: " + " ".join(reference)).rstrip())
        smoothed = sentence_bleu([reference], hypothesis, weights=(0.25,) * 4,
                                 smoothing_function=smoothing)
        lines.append("nltk_sentence_bleu: " + value(smoothed))
    for max_n in (4, 2):
        nltk_value = nltk_corpus(hypotheses, references, max_n)
        papineni_value = papineni_corpus_bleu(hypotheses, references, max_n)
        check_agreement(name, hypotheses, nltk_value, papineni_value, max_n)
        lines.append(f"nltk_corpus_bleu_{max_n}: " + value(nltk_value))
        lines.append(f"papineni_bleu_{max_n}: " + value(papineni_value))
    lines.append("end")
    return lines


lines = [f"# Written by make_bleu_cases.py with NLTK {nltk.__version__}; do not edit by hand."]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # NLTK warns whenever a precision is zero
    for name, pairs in cases:
        lines += case_lines(name, pairs)

out = here / "bleu_cases.txt"
out.write_text("\n".join(lines) + "\n", encoding="utf-8")
sentences = sum(len(pairs) for _, pairs in cases)
print(f"wrote {out.name}: {len(cases)} cases, {sentences} sentence pairs, with NLTK {nltk.__version__}")
