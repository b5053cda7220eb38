// Chapter 07's decoder block and translation model with grouped-query attention in the decoder
// (grouped_decoder_layer.hpp, grouped_query_translation.hpp): at G = H with chapter 07's
// weights the block is chapter 07's, forward and backward; at G < H the model has exactly the
// parameters the sizes say; the study's arithmetic.
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"
#include "chapters/08_attention_at_scale/grouped_query_translation.hpp"
#include "chapters/08_attention_at_scale/key_sharing.hpp"
#include "chapters/08_attention_at_scale/key_value_heads_study.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

#include <string>
#include <vector>

using A = xt::xarray<double>;
using attn::Var;

namespace {

// Chapter 07's decoder layer with every weight moved off its initial value (random biases for
// the attentions, whose own start at zero; random norm scales and shifts), and the grouped
// layer with G = H given the same numbers.
struct SameWeights {
    attn::ch07::TransformerDecoderLayer<double> chapter07;
    attn::ch08::GroupedDecoderLayer<double> grouped;

    SameWeights(const attn::ch07::TransformerSizes& sizes, attn::Rng& rng)
        : chapter07(sizes, rng), grouped(sizes, sizes.heads, rng) {
        std::uint64_t seed = 100;
        for (auto& [name, p] : chapter07.named_parameters()) p.value() = support::random_array(p.shape(), ++seed, 0.5);
        attn::ch08::copy_multi_head(chapter07.self_attn, grouped.self_attn);
        attn::ch08::copy_multi_head(chapter07.multihead_attn, grouped.multihead_attn);
        const std::pair<attn::Module<double>*, attn::Module<double>*> same[] = {
            {&chapter07.linear1, &grouped.linear1}, {&chapter07.linear2, &grouped.linear2}, {&chapter07.norm1, &grouped.norm1},
            {&chapter07.norm2, &grouped.norm2},     {&chapter07.norm3, &grouped.norm3}};
        for (const auto& [from, into] : same) {
            const auto source = from->named_parameters();
            auto target = into->named_parameters();
            for (std::size_t k = 0; k < source.size(); ++k) target[k].second.value() = source[k].second.value();
        }
    }
};

// Every scalar of a model of these sizes, counted by hand: chapter 07's embeddings, encoder and
// output layer, and a decoder whose k_proj and v_proj have G d_h rows.
std::size_t counted_by_hand(const attn::ch07::TranslationSizes& s, std::size_t G) {
    const std::size_t d = s.transformer.d_model, f = s.transformer.feed_forward, d_h = d / s.transformer.heads;
    const std::size_t feed_forward = (d * f + f) + (f * d + d), norm = 2 * d;
    const std::size_t multi_head = 3 * d * d + 3 * d + d * d + d;                          // in_proj, out_proj
    const std::size_t grouped = 2 * (d * d + d) + 2 * (G * d_h * d + G * d_h);             // q, o; k, v
    const std::size_t encoder = s.transformer.encoder_layers * (multi_head + feed_forward + 2 * norm) + norm;
    const std::size_t decoder = s.transformer.decoder_layers * (2 * grouped + feed_forward + 3 * norm) + norm;
    return s.source_vocab * d + s.target_vocab * d + encoder + decoder + d * s.target_vocab + s.target_vocab;
}

attn::ch07::TranslationSizes small_sizes() {
    attn::ch07::TranslationSizes sizes;
    sizes.source_vocab = 11;
    sizes.target_vocab = 13;
    sizes.transformer.d_model = 8;
    sizes.transformer.heads = 4;
    sizes.transformer.feed_forward = 16;
    sizes.transformer.encoder_layers = 1;
    sizes.transformer.decoder_layers = 2;
    return sizes;
}

}  // namespace

TEST_CASE("grouped decoder layer and translation model" * doctest::test_suite("ch08")) {
    PROPERTY("at G = H with chapter 07's weights the block is chapter 07's decoder_layer: outputs, weights, gradients") {
        for (const attn::ch07::NormPlacement placement : {attn::ch07::NormPlacement::post, attn::ch07::NormPlacement::pre}) {
            CAPTURE(placement == attn::ch07::NormPlacement::post ? "post-norm" : "pre-norm");
            attn::ch07::TransformerSizes sizes = small_sizes().transformer;
            sizes.norm = placement;
            attn::Rng rng(3);
            SameWeights layers(sizes, rng);
            const std::size_t batch = 2, m = 5, n = 6;
            const A y_value = support::random_array({batch, m, 8}, 7), memory_value = support::random_array({batch, n, 8}, 8);
            const attn::ch03::Mask target_padding = attn::ch07::padding_mask(attn::IndexVector{5, 3}, m);
            const attn::ch03::Mask memory_padding = attn::ch07::padding_mask(attn::IndexVector{6, 4}, n);
            const attn::ch03::Mask causal = attn::ch03::causal_mask(batch, m);
            const Var<double> y1 = attn::parameter<double>(y_value), memory1 = attn::parameter<double>(memory_value);
            const Var<double> y2 = attn::parameter<double>(y_value), memory2 = attn::parameter<double>(memory_value);
            const auto expected = attn::ch07::decoder_layer(layers.chapter07, y1, memory1, target_padding, causal, memory_padding);
            const auto got = attn::ch08::grouped_decoder_layer(layers.grouped, y2, memory2, target_padding, causal, memory_padding);
            CHECK_ALLCLOSE(got.output.value(), expected.output.value(), 1e-12, 1e-12);
            CHECK_ALLCLOSE(got.self_weights.value(), expected.self_weights.value(), 1e-12, 1e-12);
            CHECK_ALLCLOSE(got.cross_weights.value(), expected.cross_weights.value(), 1e-12, 1e-12);

            const A doutput = support::random_array({batch, m, 8}, 9);
            attn::backward(expected.output, doutput);
            attn::backward(got.output, doutput);
            CHECK_ALLCLOSE(y2.grad(), y1.grad(), 1e-12, 1e-12);
            CHECK_ALLCLOSE(memory2.grad(), memory1.grad(), 1e-12, 1e-12);
            // The projections' gradients are the blocks of in_proj's: queries, keys, values.
            const std::pair<const attn::ch05::MultiHeadAttention<double>*, const attn::ch08::GroupedQueryAttention<double>*> pairs[] = {
                {&layers.chapter07.self_attn, &layers.grouped.self_attn},
                {&layers.chapter07.multihead_attn, &layers.grouped.multihead_attn}};
            for (const auto& [multi, grouped] : pairs) {
                const A dW = multi->in_proj_weight.grad();
                const attn::Linear<double>* parts[] = {&grouped->q_proj, &grouped->k_proj, &grouped->v_proj};
                for (std::size_t p = 0; p < 3; ++p)
                    CHECK_ALLCLOSE(parts[p]->weight.grad(), A(xt::view(dW, xt::range(p * 8, (p + 1) * 8))), 1e-12, 1e-12);
                CHECK_ALLCLOSE(grouped->o_proj.weight.grad(), multi->out_proj.weight.grad(), 1e-12, 1e-12);
            }
            CHECK_ALLCLOSE(layers.grouped.linear1.weight.grad(), layers.chapter07.linear1.weight.grad(), 1e-12, 1e-12);
            CHECK_ALLCLOSE(layers.grouped.norm3.weight.grad(), layers.chapter07.norm3.weight.grad(), 1e-12, 1e-12);
        }
    };
    PROPERTY("at G = H/2 the block differs from G = H: the equality above depends on G") {
        attn::Rng rng(4);
        const attn::ch07::TransformerSizes sizes = small_sizes().transformer;
        attn::ch08::GroupedDecoderLayer<double> four(sizes, 4, rng), two(sizes, 2, rng);
        // Two's key/value heads the means of four's pairs, everything else four's.
        const auto source = four.named_parameters();
        auto target = two.named_parameters();
        for (std::size_t k = 0; k < source.size(); ++k)
            if (source[k].second.shape() == target[k].second.shape()) target[k].second.value() = source[k].second.value();
        attn::ch08::pool_key_value_heads(four.self_attn, two.self_attn);
        attn::ch08::pool_key_value_heads(four.multihead_attn, two.multihead_attn);
        CHECK(two.self_attn.k_proj.weight.shape(0) == 4);   // G d_h = 2 x 2
        const Var<double> y = attn::constant<double>(support::random_array({1, 4, 8}, 10, 2.0));
        const Var<double> memory = attn::constant<double>(support::random_array({1, 3, 8}, 11, 2.0));
        const A out4 = attn::ch08::grouped_decoder_layer(four, y, memory).output.value();
        const A out2 = attn::ch08::grouped_decoder_layer(two, y, memory).output.value();
        CHECK(xt::amax(xt::abs(out4 - out2))() > 1e-3);
    };
    PROPERTY("the model's parameters at G = 4, 2 and 1 are the ones counted by hand, and G = 4 has chapter 07's count") {
        const attn::ch07::TranslationSizes sizes = small_sizes();
        attn::Rng rng(5);
        const attn::ch07::TransformerSeq2Seq<double> chapter07(sizes, rng);
        for (const std::size_t G : {4, 2, 1}) {
            CAPTURE(G);
            const attn::ch08::GroupedQueryTranslation<double> model(sizes, G, rng);
            CHECK(model.parameter_count() == counted_by_hand(sizes, G));
            // What the study's table calls the key/value weights: the decoder's k_proj and v_proj.
            std::size_t key_value = 0;
            for (const auto& [name, p] : model.named_parameters())
                if (name.find("decoder.") == 0 && (name.find("k_proj") != std::string::npos || name.find("v_proj") != std::string::npos))
                    key_value += p.size();
            CHECK(attn::ch08::decoder_key_value_weights(sizes.transformer, G) == key_value);
        }
        CHECK(counted_by_hand(sizes, 4) == chapter07.parameter_count());
        // d 8, H 4, d_h 2: each of the 2 x 2 decoder attentions loses 2 (H - G) d_h (d + 1) = 72 numbers at G = 2.
        CHECK(counted_by_hand(sizes, 4) - counted_by_hand(sizes, 2) == 4 * 72);
        CHECK_THROWS_AS(attn::ch08::GroupedQueryTranslation<double>(sizes, 3, rng), std::invalid_argument);
    };
    PROPERTY("the model starts as chapter 07's: q, k, v drawn with in_proj's bound whatever G, every attention bias zero") {
        const attn::ch07::TranslationSizes sizes = small_sizes();
        attn::Rng rng(6);
        const attn::ch08::GroupedQueryTranslation<double> model(sizes, 1, rng);
        const double bound = std::sqrt(6.0 / (8 + 3 * 8));   // Xavier's own bound for k_proj (2, 8) would be sqrt(6 / 10)
        const auto& attention = model.decoder_stack.layers[0]->multihead_attn;
        for (const attn::Linear<double>* projection : {&attention.q_proj, &attention.k_proj, &attention.v_proj}) {
            CHECK(xt::amax(xt::abs(projection->weight.value()))() <= bound);
            CHECK(xt::amax(xt::abs(projection->bias.value()))() == 0.0);
        }
        CHECK(xt::amax(xt::abs(attention.o_proj.bias.value()))() == 0.0);
        CHECK(model.architecture() == "heads 4, kv heads 1, layers 1+2, post-norm");
    };
    PROPERTY("the study trains G = H/2, H/4, ..., 1") {
        CHECK(attn::ch08::fewer_key_value_heads(4) == std::vector<std::size_t>{2, 1});
        CHECK(attn::ch08::fewer_key_value_heads(8) == std::vector<std::size_t>{4, 2, 1});
        CHECK(attn::ch08::fewer_key_value_heads(2) == std::vector<std::size_t>{1});
        CHECK(attn::ch08::fewer_key_value_heads(6) == std::vector<std::size_t>{3, 1});
    };
}
