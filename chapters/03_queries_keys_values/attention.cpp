// Masks and shape checks shared by this chapter's attention functions (see attention.hpp).
#include "chapters/03_queries_keys_values/attention.hpp"

#include "chapters/03_queries_keys_values/gaussian_kernel_pooling.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch03 {

namespace {
std::string text(const Shape& shape) {
    std::string out = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
    return out + ")";
}
Shape shape_of(const Mask& mask) { return Shape(mask.shape().begin(), mask.shape().end()); }
}  // namespace

Mask either(const Mask& a, const Mask& b) {
    if (is_empty(a)) return b;
    if (is_empty(b)) return a;
    if (shape_of(a) != shape_of(b))
        throw std::invalid_argument("either: masks of shapes " + text(shape_of(a)) + " and " + text(shape_of(b)) +
                                    " cannot be combined");
    return a || b;
}

template <class T>
void check_attention_shapes(const char* who, const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                            const Mask& blocked) {
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument(std::string(who) + ": " + what + " (queries " + text(queries.shape()) + ", keys " +
                                    text(keys.shape()) + ", values " + text(values.shape()) + ", mask " +
                                    text(shape_of(blocked)) + ")");
    };
    if (queries.dim() != 3 || keys.dim() != 3 || values.dim() != 3)
        fail("queries, keys and values must be (batch, n, features)");
    if (keys.shape(0) != queries.shape(0) || values.shape(0) != queries.shape(0)) fail("batch sizes differ");
    if (keys.shape(2) != queries.shape(2)) fail("queries and keys must have the same feature size d");
    if (values.shape(1) != keys.shape(1)) fail("there must be one value per key");
    if (!is_empty(blocked) && shape_of(blocked) != Shape{queries.shape(0), queries.shape(1), keys.shape(1)})
        fail("the mask must be (batch, n_q, n_k)");
}

void check_lengths(const char* who, const xt::xarray<std::int64_t>& valid_lens, std::size_t n_q, std::size_t n_k) {
    const Shape shape(valid_lens.shape().begin(), valid_lens.shape().end());
    if (valid_lens.dimension() == 0 || valid_lens.dimension() > 2 || (valid_lens.dimension() == 2 && shape[1] != n_q))
        throw std::invalid_argument(std::string(who) + ": valid lengths must be (batch) or (batch, n_q = " +
                                    std::to_string(n_q) + "), got " + text(shape));
    for (const std::int64_t length : valid_lens)
        if (length < 0 || length > static_cast<std::int64_t>(n_k))
            throw std::invalid_argument(std::string(who) + ": a valid length of " + std::to_string(length) +
                                        " is outside [0, " + std::to_string(n_k) + "]");
}

template <class T>
void check_kernel_shapes(const Var<T>& queries, const Var<T>& keys, const Var<T>& values, const Var<T>& width,
                         bool leave_one_out) {
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument("gaussian_kernel_pooling: " + what + " (queries " + text(queries.shape()) +
                                    ", keys " + text(keys.shape()) + ", values " + text(values.shape()) + ", width " +
                                    text(width.shape()) + ")");
    };
    if (queries.dim() != 1 || keys.dim() != 1 || values.dim() != 1) fail("queries, keys and values must be 1-D");
    if (values.size() != keys.size()) fail("there must be one value per key");
    if (width.size() != 1) fail("the width must be one number");
    if (leave_one_out && queries.size() != keys.size()) fail("leave-one-out needs the keys as queries");
}

template void check_kernel_shapes(const Var<float>&, const Var<float>&, const Var<float>&, const Var<float>&, bool);
template void check_kernel_shapes(const Var<double>&, const Var<double>&, const Var<double>&, const Var<double>&, bool);

template void check_attention_shapes(const char*, const Var<float>&, const Var<float>&, const Var<float>&, const Mask&);
template void check_attention_shapes(const char*, const Var<double>&, const Var<double>&, const Var<double>&, const Mask&);

}  // namespace attn::ch03
