// Padded batches, shuffled batch orders and length buckets (see batching.hpp).
// Introduced in chapter 01.
#include "common/data/batching.hpp"

#include <algorithm>
#include <stdexcept>

namespace attn::data {
namespace {

void check_indices(const std::vector<Pair>& pairs, const std::vector<std::size_t>& indices) {
    if (indices.empty()) throw std::invalid_argument("make_batch: no indices (an empty batch)");
    for (std::size_t index : indices) {
        if (index >= pairs.size())
            throw std::invalid_argument("make_batch: index " + std::to_string(index) + " is outside the " +
                                        std::to_string(pairs.size()) + " pairs");
        if (pairs[index].source.empty())
            throw std::invalid_argument("make_batch: pair " + std::to_string(index) + " has an empty source");
    }
}

// Writes `ids` into row `row` of `matrix` from column `start`.
void put_row(IndexMatrix& matrix, std::size_t row, std::size_t start, const std::vector<std::int64_t>& ids) {
    for (std::size_t j = 0; j < ids.size(); ++j) matrix(row, start + j) = ids[j];
}

}  // namespace

Batch make_batch(const std::vector<Pair>& pairs, const std::vector<std::size_t>& indices,
                 const Vocab& source_vocab, const Vocab& target_vocab) {
    check_indices(pairs, indices);
    std::size_t source_width = 0, target_width = 0;
    for (std::size_t index : indices) {
        source_width = std::max(source_width, pairs[index].source.size());
        target_width = std::max(target_width, pairs[index].target.size() + 1);   // room for <bos>/<eos>
    }
    const std::size_t batch = indices.size();
    Batch out;
    out.source = xt::zeros<std::int64_t>({batch, source_width});       // (batch, S), pad_id == 0
    out.target_in = xt::zeros<std::int64_t>({batch, target_width});    // (batch, T + 1)
    out.target_out = xt::zeros<std::int64_t>({batch, target_width});   // (batch, T + 1)
    out.source_lens = xt::zeros<std::int64_t>({batch});                // (batch)
    out.target_lens = xt::zeros<std::int64_t>({batch});                // (batch)
    for (std::size_t row = 0; row < batch; ++row) {
        const Pair& pair = pairs[indices[row]];
        const std::vector<std::int64_t> target = target_vocab.encode(pair.target);
        put_row(out.source, row, 0, source_vocab.encode(pair.source));
        out.target_in(row, 0) = bos_id;          // teacher forcing: the decoder sees <bos> y_1 ..
        put_row(out.target_in, row, 1, target);
        put_row(out.target_out, row, 0, target);   // .. and must answer y_1 .. y_T <eos>
        out.target_out(row, target.size()) = eos_id;
        out.source_lens(row) = static_cast<std::int64_t>(pair.source.size());
        out.target_lens(row) = static_cast<std::int64_t>(target.size() + 1);
    }
    return out;
}

std::vector<std::vector<std::size_t>> ordered_batches(std::size_t n_examples, std::size_t batch_size) {
    if (batch_size == 0) throw std::invalid_argument("ordered_batches: batch_size must be positive");
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t start = 0; start < n_examples; start += batch_size) {
        std::vector<std::size_t> batch;
        for (std::size_t i = start; i < std::min(start + batch_size, n_examples); ++i) batch.push_back(i);
        batches.push_back(batch);
    }
    return batches;
}

std::vector<std::vector<std::size_t>> shuffled_batches(std::size_t n_examples, std::size_t batch_size,
                                                       Rng& rng, bool drop_last) {
    if (batch_size == 0) throw std::invalid_argument("shuffled_batches: batch_size must be positive");
    const std::vector<std::size_t> order = rng.permutation(n_examples);
    std::vector<std::vector<std::size_t>> batches = ordered_batches(n_examples, batch_size);
    for (std::vector<std::size_t>& batch : batches)
        for (std::size_t& index : batch) index = order[index];   // position -> shuffled example
    if (drop_last && !batches.empty() && batches.back().size() < batch_size) batches.pop_back();
    return batches;
}

std::vector<std::vector<std::size_t>> length_grouped_batches(const std::vector<Pair>& pairs, std::size_t batch_size,
                                                             Rng& rng, std::size_t pool) {
    if (batch_size == 0 || pool == 0) throw std::invalid_argument("length_grouped_batches: batch_size and pool must be positive");
    std::vector<std::size_t> order = rng.permutation(pairs.size());
    const std::size_t chunk = batch_size * pool;
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t start = 0; start + batch_size <= order.size(); start += chunk) {
        const auto first = order.begin() + static_cast<std::ptrdiff_t>(start);
        const auto last = order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), start + chunk));
        std::stable_sort(first, last, [&](std::size_t a, std::size_t b) { return pairs[a].source.size() < pairs[b].source.size(); });
        for (auto it = first; last - it >= static_cast<std::ptrdiff_t>(batch_size); it += static_cast<std::ptrdiff_t>(batch_size))
            batches.emplace_back(it, it + static_cast<std::ptrdiff_t>(batch_size));
    }
    if (batches.empty() && !order.empty()) {   // fewer pairs than one batch: they all make one smaller batch
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pairs[a].source.size() < pairs[b].source.size(); });
        batches.push_back(order);
    }
    for (std::size_t i = batches.size(); i > 1; --i) std::swap(batches[i - 1], batches[rng.below(i)]);   // Fisher-Yates
    return batches;
}

std::string Bucket::label() const {
    if (min_len == max_len) return std::to_string(min_len);
    return std::to_string(min_len) + "-" + std::to_string(max_len);
}

std::vector<Bucket> bucket_by_source_length(const std::vector<Pair>& pairs,
                                            const std::vector<std::size_t>& upper_edges) {
    if (upper_edges.empty() || upper_edges[0] == 0)
        throw std::invalid_argument("bucket_by_source_length: needs upper edges >= 1, like {10, 20, 30, 40}");
    std::vector<Bucket> buckets;
    std::size_t low = 1;
    for (std::size_t edge : upper_edges) {
        if (edge < low) throw std::invalid_argument("bucket_by_source_length: the edges must increase strictly");
        buckets.push_back(Bucket{low, edge, {}});
        low = edge + 1;
    }
    std::size_t longest = 0;
    for (const Pair& pair : pairs) longest = std::max(longest, pair.source.size());
    if (longest > upper_edges.back()) buckets.push_back(Bucket{low, longest, {}});
    for (const Pair& pair : pairs)
        for (Bucket& bucket : buckets)
            if (pair.source.size() >= bucket.min_len && pair.source.size() <= bucket.max_len)
                bucket.pairs.push_back(pair);
    return buckets;
}

std::vector<std::size_t> quantile_edges(std::vector<std::size_t> lengths, std::size_t n_buckets) {
    if (lengths.empty() || n_buckets == 0) throw std::invalid_argument("quantile_edges: needs lengths and at least one bucket");
    std::sort(lengths.begin(), lengths.end());
    std::vector<std::size_t> edges;
    for (std::size_t k = 1; k <= n_buckets; ++k) {
        const std::size_t rank = (k * lengths.size() + n_buckets - 1) / n_buckets;   // ceil(k n / buckets), 1-based
        const std::size_t edge = std::max<std::size_t>(1, lengths[rank - 1]);
        if (edges.empty() || edge > edges.back()) edges.push_back(edge);
    }
    return edges;
}

}  // namespace attn::data
