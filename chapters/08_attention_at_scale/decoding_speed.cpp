// The cache against recomputation on chapter 07's model: the same logits, at two costs.
#include "chapters/08_attention_at_scale/decoding_speed.hpp"

#include "chapters/08_attention_at_scale/grouped_query_translation.hpp"

#include "common/autodiff/ops.hpp"
#include "common/data/batching.hpp"
#include "common/data/vocab.hpp"

#include "common/xtensor_compat.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attn::ch08 {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Each row's most likely next token: logits (rows, vocab) -> (rows).
IndexVector most_likely(const Array<float>& logits) {
    IndexVector tokens = IndexVector::from_shape({logits.shape(0)});
    for (std::size_t r = 0; r < logits.shape(0); ++r) {
        std::size_t best = 0;
        for (std::size_t v = 1; v < logits.shape(1); ++v)
            if (logits(r, v) > logits(r, best)) best = v;   // the first of equals, as greedy_decode
        tokens(r) = static_cast<std::int64_t>(best);
    }
    return tokens;
}

}  // namespace

template <class Model>
GenerationSpeed measure_generation(Model& model, const ch01::Task& task, const std::vector<data::Pair>& pairs,
                                   std::size_t length, std::size_t repeats) {
    if (pairs.empty() || length == 0 || repeats == 0)
        throw std::invalid_argument("measure_generation: needs sentences, a length and a repeat, got " +
                                    std::to_string(pairs.size()) + ", " + std::to_string(length) + " and " +
                                    std::to_string(repeats));
    const NoGradGuard no_grad;
    model.eval();
    std::vector<std::size_t> all(pairs.size());
    std::iota(all.begin(), all.end(), std::size_t(0));
    const data::Batch batch = data::make_batch(pairs, all, task.source_vocab, task.target_vocab);
    GenerationSpeed speed;
    speed.sentences = pairs.size();
    std::vector<double> cached(length, std::numeric_limits<double>::infinity()), recomputed = cached;
    for (std::size_t r = 0; r < repeats; ++r) {
        // Each decoder encodes the source itself, as it would alone; that is not timed.
        const ch01::DecodeStep<float> with_cache = model.decoder(batch.source, batch.source_lens);
        const ch01::DecodeStep<float> without = model.recomputing_decoder(batch.source, batch.source_lens);
        IndexVector previous = xt::full_like(batch.source_lens, data::bos_id);   // (rows)
        for (std::size_t t = 0; t < length; ++t) {
            Clock::time_point start = Clock::now();
            const Array<float> fast = with_cache(previous).value();     // (rows, vocab): one new position   (8.15)
            cached[t] = std::min(cached[t], seconds_since(start));
            start = Clock::now();
            const Array<float> slow = without(previous).value();        // the whole prefix again
            recomputed[t] = std::min(recomputed[t], seconds_since(start));
            const double difference = xt::amax(xt::abs(fast - slow))();
            speed.largest_difference = std::max(speed.largest_difference, difference);
            previous = most_likely(fast);
        }
    }
    model.train();
    // Generating t tokens takes steps 1 to t.
    std::partial_sum(cached.begin(), cached.end(), std::back_inserter(speed.cached_seconds));
    std::partial_sum(recomputed.begin(), recomputed.end(), std::back_inserter(speed.recomputed_seconds));
    return speed;
}

template GenerationSpeed measure_generation(CachedTranslationModel<float>&, const ch01::Task&,
                                            const std::vector<data::Pair>&, std::size_t, std::size_t);
template GenerationSpeed measure_generation(GroupedQueryTranslation<float>&, const ch01::Task&,
                                            const std::vector<data::Pair>&, std::size_t, std::size_t);

double tokens_per_second(const GenerationSpeed& speed, const std::vector<double>& seconds, std::size_t t) {
    return static_cast<double>(speed.sentences * t) / seconds.at(t - 1);
}

plot::LinePlot generation_speed_plot(const GenerationSpeed& speed) {
    plot::LinePlot plot;
    plot.title = "Greedy generation on chapter 07's model, " + std::to_string(speed.sentences) + " sentences at a time";
    plot.xlabel = "tokens generated per sentence";
    plot.ylabel = "tokens per second";
    plot.log_y = true;   // the recomputing curve falls as 1 / t: a ratio reads the same at every height
    plot.legend = "bottom left";
    plot::Series cached{"with the key/value cache (8.15)", {}, {}}, recomputed{"recomputing the prefix (chapter 07)", {}, {}};
    for (std::size_t t = 1; t <= speed.cached_seconds.size(); ++t) {
        cached.x.push_back(static_cast<double>(t));
        cached.y.push_back(tokens_per_second(speed, speed.cached_seconds, t));
        recomputed.x.push_back(static_cast<double>(t));
        recomputed.y.push_back(tokens_per_second(speed, speed.recomputed_seconds, t));
    }
    plot.series = {cached, recomputed};
    return plot;
}

}  // namespace attn::ch08
