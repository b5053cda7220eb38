// The three taggers of chapter 06 (see position_tagger.hpp).
#include "chapters/06_positional_encoding/position_tagger.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>
#include <cmath>

namespace attn::ch06 {

std::string positions_name(Positions positions) {
    switch (positions) {
        case Positions::none: return "no positions";
        case Positions::sinusoidal: return "sinusoidal";
        case Positions::learned: return "learned";
    }
    return "?";
}

PositionTagger::PositionTagger(const PreviousTokenTask& task, Positions positions, const TaggerSizes& sizes, Rng& rng)
    : letters(task.letters, sizes.d_model, rng), attention(sizes.d_model, sizes.heads, rng),
      head(sizes.d_model, sizes.hidden, task.classes(), rng), positions_(positions) {
    // Letters start at about 1/sqrt(d) per entry (Xavier's size), the embeddings (6.3)'s
    // sqrt(d) is made for: scaled, a letter and a position weigh about the same.
    letters.weight.value() *= static_cast<float>(1.0 / std::sqrt(static_cast<double>(sizes.d_model)));
    this->register_module("letters", letters);
    if (positions == Positions::learned) {
        // N(0, 1) entries, the size of the sinusoidal table's.
        position_table = std::make_unique<Embedding<float>>(sizes.learned_positions, sizes.d_model, rng);
        this->register_module("positions", *position_table);
    }
    this->register_module("attention", attention);
    this->register_module("head", head);
}

Var<float> PositionTagger::embed(const TokenBatch& batch) const {
    const Var<float> x = letters(batch.tokens);
    switch (positions_) {
        case Positions::none: break;
        case Positions::sinusoidal: return add_positions(x);
        case Positions::learned: {
            const std::size_t n = batch.tokens.shape(1), last = position_table->weight.shape()[0] - 1;
            xt::xarray<std::int64_t> ids = xt::xarray<std::int64_t>::from_shape(batch.tokens.shape());
            for (std::size_t b = 0; b < ids.shape(0); ++b)
                for (std::size_t i = 0; i < n; ++i) ids(b, i) = static_cast<std::int64_t>(std::min(i, last));
            const float scale = std::sqrt(static_cast<float>(x.shape()[2]));
            return x * scale + (*position_table)(ids);
        }
    }
    return x * std::sqrt(static_cast<float>(x.shape()[2]));
}

Var<float> PositionTagger::operator()(const TokenBatch& batch) const {
    const Var<float> x = embed(batch);
    // A residual connection: the head sees the position's own letter beside what attention gathered.
    return head(x + ch05::multi_head_attention(attention, x, x, x, batch.padding).output);
}

}  // namespace attn::ch06
