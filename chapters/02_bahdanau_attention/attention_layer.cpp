// The parameters of additive attention (see attention_layer.hpp).
#include "chapters/02_bahdanau_attention/attention_layer.hpp"

#include <stdexcept>

namespace attn::ch02 {

template <class T>
AdditiveAttention<T>::AdditiveAttention(std::size_t query_size, std::size_t key_size, std::size_t hidden, Rng& rng)
    : W_q(query_size, hidden, rng, false), W_k(key_size, hidden, rng, false), w_v(hidden, 1, rng, false) {
    this->register_module("W_q", W_q);
    this->register_module("W_k", W_k);
    this->register_module("w_v", w_v);
}

template <class T>
Var<T> AdditiveAttention<T>::project_keys(const Var<T>& keys) const {
    return W_k(keys);   // (batch, n_k, hidden)   (2.1)
}

template <class T>
void check_score_shapes(const Var<T>& queries_proj, const Var<T>& keys_proj, const Var<T>& w_v) {
    const bool ok = queries_proj.dim() == 3 && keys_proj.dim() == 3 && w_v.dim() == 2 &&
                    queries_proj.shape(0) == keys_proj.shape(0) && queries_proj.shape(2) == keys_proj.shape(2) &&
                    w_v.shape(0) == 1 && w_v.shape(1) == queries_proj.shape(2);
    if (!ok)
        throw std::invalid_argument("additive_scores: expected queries_proj (batch, n_q, h), keys_proj (batch, n_k, h) "
                                    "and w_v (1, h), got " + shape_string(queries_proj.shape()) + ", " +
                                    shape_string(keys_proj.shape()) + " and " + shape_string(w_v.shape()));
}

template <class T>
void check_mask_shapes(const Var<T>& scores, const xt::xarray<std::int64_t>& valid_lens) {
    const Shape lens(valid_lens.shape().begin(), valid_lens.shape().end());
    const bool ok = scores.dim() == 3 && ((lens.size() == 1 && lens[0] == scores.shape(0)) ||
                                          (lens.size() == 2 && lens[0] == scores.shape(0) && lens[1] == scores.shape(1)));
    if (!ok)
        throw std::invalid_argument("masked_softmax: expected scores (batch, n_q, n_k) and valid_lens (batch) or "
                                    "(batch, n_q), got " + shape_string(scores.shape()) + " and " + shape_string(lens));
    for (const std::int64_t length : valid_lens)
        if (length < 0 || static_cast<std::size_t>(length) > scores.shape(2))
            throw std::invalid_argument("masked_softmax: a valid length of " + std::to_string(length) +
                                        " does not fit " + std::to_string(scores.shape(2)) + " keys");
}

// ---- instantiations: do not edit ----
template class AdditiveAttention<float>;
template class AdditiveAttention<double>;
template void check_score_shapes(const Var<float>&, const Var<float>&, const Var<float>&);
template void check_score_shapes(const Var<double>&, const Var<double>&, const Var<double>&);
template void check_mask_shapes(const Var<float>&, const xt::xarray<std::int64_t>&);
template void check_mask_shapes(const Var<double>&, const xt::xarray<std::int64_t>&);

}  // namespace attn::ch02
