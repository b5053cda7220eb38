// Mini-batches for sequence-to-sequence training: padded id matrices with valid lengths,
// teacher-forcing inputs and outputs, shuffled batch orders, and evaluation buckets by
// source length. Introduced in chapter 01.
#pragma once
#include "common/data/corpus.hpp"
#include "common/data/vocab.hpp"
#include "common/random.hpp"
#include "common/tensor.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace attn::data {

// One padded batch; every row is padded with pad_id after its valid length.
//   source      (batch, max source length)      the source tokens, no <bos>/<eos>
//   source_lens (batch)                          valid source lengths
//   target_in   (batch, max target length + 1)   <bos> y_1 ... y_T      the decoder's inputs
//   target_out  (batch, max target length + 1)   y_1 ... y_T <eos>      what it must predict
//   target_lens (batch)                          T + 1, valid length of both target rows
struct Batch {
    IndexMatrix source;
    IndexVector source_lens;
    IndexMatrix target_in;
    IndexMatrix target_out;
    IndexVector target_lens;
};

// The batch made of pairs[indices[0]], pairs[indices[1]], ... in that order. Throws
// std::invalid_argument if `indices` is empty, an index is out of range or a source is empty.
Batch make_batch(const std::vector<Pair>& pairs, const std::vector<std::size_t>& indices,
                 const Vocab& source_vocab, const Vocab& target_vocab);

// One epoch: the indices 0..n_examples-1 in a new random order, cut into batches of
// `batch_size`. The last, smaller batch is kept (every example is seen each epoch) unless
// `drop_last`, which keeps every batch the same size. Call once per epoch with the same Rng.
std::vector<std::vector<std::size_t>> shuffled_batches(std::size_t n_examples, std::size_t batch_size,
                                                       Rng& rng, bool drop_last = false);
// One epoch of batches whose sentences have similar source lengths, so that little of each
// batch is padding (a GRU pays for every padded step): the shuffled examples are taken
// `pool` batches at a time, sorted by source length within the pool, cut into batches of
// `batch_size` (the last partial batch of the epoch is dropped), and the batches shuffled.
// With fewer pairs than `batch_size`, the epoch is one smaller batch of all of them.
std::vector<std::vector<std::size_t>> length_grouped_batches(const std::vector<Pair>& pairs, std::size_t batch_size,
                                                             Rng& rng, std::size_t pool = 50);
// The same cut without shuffling (0, 1, 2, ... in order), for evaluation.
std::vector<std::vector<std::size_t>> ordered_batches(std::size_t n_examples, std::size_t batch_size);

// The pairs whose source has min_len..max_len tokens (both included).
struct Bucket {
    std::size_t min_len = 0;
    std::size_t max_len = 0;
    std::vector<Pair> pairs;
    std::string label() const;   // "11-20", or "7" when min_len == max_len
};

// Buckets by source length. `upper_edges` are the strictly increasing largest lengths of
// the buckets: {10, 20, 30, 40} gives 1-10, 11-20, 21-30, 31-40. Empty buckets are kept, so
// plots share their x axis; sources longer than the last edge get one more bucket
// (last + 1 up to the longest source). Pairs keep their order within a bucket.
std::vector<Bucket> bucket_by_source_length(const std::vector<Pair>& pairs,
                                            const std::vector<std::size_t>& upper_edges);

// Upper edges that cut `lengths` at its quantiles into about `n_buckets` buckets of similar
// counts (for a corpus whose lengths are not spread like the toy tasks'): edge k is the
// smallest length with at least k/n of the lengths at or below it. Equal edges are merged, so
// fewer buckets come back when lengths repeat; the last edge is the longest length.
// {1,2,2,3,5,8,9,9} in 4 gives {2, 3, 8, 9}. Throws std::invalid_argument if `lengths` is
// empty or n_buckets is 0.
std::vector<std::size_t> quantile_edges(std::vector<std::size_t> lengths, std::size_t n_buckets);

}  // namespace attn::data
