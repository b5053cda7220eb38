// The three taggers of the counting task (see taggers.hpp).
#include "chapters/04_self_attention/taggers.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "chapters/04_self_attention/self_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch04 {

AttentionTagger::AttentionTagger(std::size_t vocab, std::size_t d_model, std::size_t hidden, std::size_t classes, Rng& rng)
    : embed(vocab, d_model, rng), attention({d_model, d_model, d_model, d_model, d_model}, rng),
      head(d_model, hidden, classes, rng) {
    this->register_module("embed", embed);
    this->register_module("attention", attention);
    this->register_module("head", head);
}

Var<float> AttentionTagger::operator()(const xt::xarray<std::int64_t>& tokens) const {
    const Var<float> x = embed(tokens);   // (batch, n, d)
    // A residual connection: the head sees the token itself beside what it gathered.
    return head(x + self_attention(attention, x, full_lengths(tokens.shape(0), tokens.shape(1))).output);
}

Array<float> AttentionTagger::weights(const xt::xarray<std::int64_t>& tokens) const {
    return self_attention(attention, embed(tokens), full_lengths(tokens.shape(0), tokens.shape(1))).weights.value();
}

GruTagger::GruTagger(std::size_t vocab, std::size_t d_model, std::size_t state, std::size_t hidden, std::size_t classes,
                     Rng& rng)
    : embed(vocab, d_model, rng), forward(d_model, state, rng), backward(d_model, state, rng),
      head(2 * state, hidden, classes, rng) {
    this->register_module("embed", embed);
    this->register_module("forward", forward);
    this->register_module("backward", backward);
    this->register_module("head", head);
}

namespace {

// The GRU's state after each step, read in the order `steps` gives; states[t] is position t's.
std::vector<Var<float>> run_gru(const ch01::GruLayer<float>& gru, const Var<float>& x, const std::vector<std::size_t>& steps) {
    const Var<float> x_gates = gru.project_inputs(x);   // (batch, n, 3H), every step at once
    Var<float> h = constant<float>(xt::zeros<float>({x.shape(0), gru.hidden_size}));
    std::vector<Var<float>> states(steps.size());
    for (const std::size_t t : steps) {
        h = ch01::gru_cell(select(x_gates, 1, t), h, gru);
        states[t] = h;
    }
    return states;
}

}  // namespace

Var<float> GruTagger::operator()(const xt::xarray<std::int64_t>& tokens) const {
    const Var<float> x = embed(tokens);
    const std::size_t n = tokens.shape(1);
    std::vector<std::size_t> left_to_right(n);
    for (std::size_t t = 0; t < n; ++t) left_to_right[t] = t;
    const std::vector<std::size_t> right_to_left(left_to_right.rbegin(), left_to_right.rend());
    const Var<float> states = concat<float>({stack(run_gru(forward, x, left_to_right), 1),
                                             stack(run_gru(backward, x, right_to_left), 1)},
                                            2);   // (batch, n, 2H)
    return head(states);
}

ConvTagger::ConvTagger(std::size_t vocab, std::size_t d_model, std::size_t channels, std::size_t layers, std::size_t hidden,
                       std::size_t classes, Rng& rng)
    : embed(vocab, d_model, rng), head(channels, hidden, classes, rng) {
    this->register_module("embed", embed);
    for (std::size_t l = 0; l < layers; ++l) {
        convolutions.push_back(std::make_unique<Conv1d<float>>(l == 0 ? d_model : channels, channels, 3, rng));
        this->register_module("conv" + std::to_string(l), *convolutions.back());
    }
    this->register_module("head", head);
}

Var<float> ConvTagger::operator()(const xt::xarray<std::int64_t>& tokens) const {
    Var<float> h = embed(tokens);
    for (const auto& conv : convolutions) h = relu((*conv)(h));   // each layer widens the window by 1 on each side
    return head(h);
}

std::string ConvTagger::name() const { return std::to_string(convolutions.size()) + " convolutions k3"; }

}  // namespace attn::ch04
