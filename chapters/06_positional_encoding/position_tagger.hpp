// The models of chapter 06's experiment: letters embedded, then positions added in one of
// three ways, then x + MultiHeadAttention(x, x, x) (chapter 05, padding masked) and chapter
// 04's per-position head (Linear, ReLU, Linear) scoring the classes.
#pragma once
#include "chapters/04_self_attention/taggers.hpp"
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "chapters/06_positional_encoding/previous_token_task.hpp"

#include <memory>
#include <string>

namespace attn::ch06 {

enum class Positions {
    none,         // sqrt(d) X: a bag of letters
    sinusoidal,   // sqrt(d) X + P, P the sinusoidal table: add_positions (6.3)
    learned       // sqrt(d) X + L[i], L a trained table of `learned_positions` rows
};
std::string positions_name(Positions positions);   // "no positions", "sinusoidal", "learned"

struct TaggerSizes {
    std::size_t d_model = 32;
    std::size_t heads = 2;
    std::size_t hidden = 64;
    // Rows of the learned table: the positions seen in training. A position beyond the table
    // uses its last row (the farthest position the model has a code for).
    std::size_t learned_positions = 30;
};

class PositionTagger : public Module<float> {
public:
    PositionTagger(const PreviousTokenTask& task, Positions positions, const TaggerSizes& sizes, Rng& rng);
    // -> class scores (batch, n, classes)
    Var<float> operator()(const TokenBatch& batch) const;
    // -> the embeddings with their positions, (batch, n, d)
    Var<float> embed(const TokenBatch& batch) const;
    Positions positions() const { return positions_; }

    Embedding<float> letters;
    std::unique_ptr<Embedding<float>> position_table;   // learned positions only
    ch05::MultiHeadAttention<float> attention;
    ch04::TaggingHead head;

private:
    Positions positions_;
};

}  // namespace attn::ch06
