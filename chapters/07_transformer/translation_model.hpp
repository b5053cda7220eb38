// Chapter 07's translation model: the Transformer between two embedding tables and an output
// layer, behind chapter 01's Seq2SeqModel interface, so that the same training loop, greedy
// decoding and evaluation by source length run it as they ran the GRUs of chapters 01 and 02.
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/07_transformer/transformer.hpp"

#include <functional>

namespace attn::ch07 {

// How the embedding tables start. add_positions multiplies them by sqrt(d) before adding
// positions whose entries lie in [-1, 1]:
//   scaled:   N(0, 1/d), so that sqrt(d) x has entries of size 1, as large as the positions
//             (fairseq's choice; the default here);
//   standard: N(0, 1), PyTorch's nn.Embedding, whose sqrt(d) x are 8 times the positions at d 64.
// Measured on the translation at the default recipe (seed 42, 1200 steps): scaled reaches test
// BLEU 0.972 (validation loss 0.15), standard only 0.503 (1.03), with word vectors eight
// times the size of the positions that should tell the words' order.
enum class EmbeddingInit { scaled, standard };

struct TranslationSizes {
    std::size_t source_vocab = 0, target_vocab = 0;
    TransformerSizes transformer;
    EmbeddingInit embedding_init = EmbeddingInit::scaled;
};

// Scores, and every attention weight behind them (for the heatmaps).
template <class T>
struct TranslationOutput {
    Var<T> logits;                       // (batch, m, target_vocab)
    TransformerOutput<T> transformer;    // the decoder's output and every layer's weights
};

// Parameters: source_embedding.weight, target_embedding.weight, transformer.* (named exactly
// as torch.nn.Transformer's state_dict under the prefix "transformer."), output.weight and
// output.bias.
template <class T>
class TransformerSeq2Seq : public ch01::Seq2SeqModel<T> {
public:
    TransformerSeq2Seq(const TranslationSizes& sizes, Rng& rng);

    // Teacher forcing over the whole target at once (parallel over its positions): the
    // decoder reads target_in = <bos> y_1 ... y_m under the causal mask, so position t only
    // sees the tokens before y_{t+1}; padded source positions are hidden from the encoder and
    // the cross-attention, padded target positions from the decoder's self-attention (a batch
    // without padding gets no padding masks: bench/bench_transformer.cpp times such batches).
    TranslationOutput<T> forward_with_weights(const data::Batch& batch);
    Var<T> forward(const data::Batch& batch) override { return forward_with_weights(batch).logits; }

    // Greedy decoding: the source is encoded once; each step appends the new token to the
    // tokens so far, runs the decoder over all of them under the causal mask, and returns the
    // last position's scores. Step t recomputes the t positions before it, whose outputs the
    // causal mask keeps as they were: chapter 08's key/value cache keeps them instead.
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;

    // Chapter 01's sizes as checkpoints record them: embedding = d_model, hidden = feed_forward.
    ch01::ModelSizes sizes() const override;
    // "heads 4, layers 2+2, post-norm": what a checkpoint must match beyond the shapes.
    std::string architecture() const override;
    const TranslationSizes& translation_sizes() const { return sizes_; }

    Embedding<T> source_embedding, target_embedding;
    Transformer<T> transformer;
    Linear<T> output;   // d_model -> target vocabulary

protected:
    // The tokens' embeddings times sqrt(d) plus their positions (6.3): the decoder's inputs,
    // for chapter 08's cached decoder as for this one.
    Var<T> embed_source(const IndexMatrix& source) const;
    Var<T> embed_target(const IndexMatrix& target) const;

private:
    TranslationSizes sizes_;
};

// Greedy decoding without a cache, for `rows` sentences: keeps the tokens fed so far
// (<bos> y_1 ... y_t), appends each step's tokens, and returns last_scores of them all, the
// scores (rows, vocab) of the last position. TransformerSeq2Seq::decoder's steps, and those of
// any model that runs its decoder over the whole prefix again.
template <class T>
ch01::DecodeStep<T> prefix_decoder(std::size_t rows, std::function<Var<T>(const IndexMatrix& prefix)> last_scores);

// blocked[b, j] = (j >= lens[b]): the padding of each sequence, as nn.Transformer's
// key_padding_mask. lens (batch) -> (batch, n).
ch03::Mask padding_mask(const IndexVector& lens, std::size_t n);
// The same, or no mask at all when every sequence fills the batch, as nn.Transformer without
// a key_padding_mask: the same numbers (nothing is blocked either way) without masking the
// scores of every head.
ch03::Mask padding_if_any(const IndexVector& lens, std::size_t n);

// A table as `init` says: nn.Embedding's N(0, 1) kept, or scaled to N(0, 1/d) (see EmbeddingInit).
template <class T>
void initialise_embedding(Embedding<T>& table, EmbeddingInit init, std::size_t d);

}  // namespace attn::ch07
