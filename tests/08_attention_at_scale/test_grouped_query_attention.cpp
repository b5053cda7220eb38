// Self-checks for exercise 08.4: grouped_query_attention
// (exercises/08_attention_at_scale/grouped_query_attention.cpp), against grouped-query attention
// written out with loops (gqa_by_loops.hpp), chapter 05's multi_head_attention (G = H), PyTorch
// (tests/data/08_attention_at_scale/make_gqa_cases.py) and central differences. The first
// properties each look at one part of the computation, so that a mistake fails first where it is:
// which projection feeds the scores, which key/value head a query head reads, the scale, o_proj,
// the masks.
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/08_attention_at_scale/golden_gqa.hpp"
#include "tests/08_attention_at_scale/gqa_by_loops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/gradients.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <string>

using attn::Var;
using attn::ch03::Mask;
using attn::ch08::GroupedQueryAttention;
using A = xt::xarray<double>;

namespace {

// The same sums in another order, float64.
constexpr double same_in_double = 1e-12;
// Gradients pass through a softmax and three products more: a little more rounding.
constexpr double gradient_rtol = 1e-10, gradient_atol = 1e-12;

attn::ch08::GroupedQueryOutput<double> run(const GroupedQueryAttention<double>& layer, const A& query, const A& key,
                                           const A& value, const Mask& key_padding = attn::ch03::no_mask(),
                                           const Mask& attention_mask = attn::ch03::no_mask()) {
    return attn::ch08::grouped_query_attention(layer, attn::constant<double>(query), attn::constant<double>(key),
                                               attn::constant<double>(value), key_padding, attention_mask);
}

// A layer of d = 2 H with random weights and biases (Linear's start has biases too).
struct RandomLayer {
    attn::Rng rng;
    GroupedQueryAttention<double> layer;
    RandomLayer(std::size_t heads, std::size_t kv_heads, std::uint64_t seed)
        : rng(seed), layer(2 * heads, heads, kv_heads, rng) {}
};

// The query heads whose weights moved by more than rounding between two runs.
std::set<std::size_t> heads_that_moved(const A& before, const A& after) {
    std::set<std::size_t> moved;
    for (std::size_t h = 0; h < before.shape(1); ++h) {
        const A difference = xt::abs(xt::view(after, xt::all(), h) - xt::view(before, xt::all(), h));
        const double largest = xt::amax(difference)();
        if (largest > 1e-9) moved.insert(h);
    }
    return moved;
}

std::string text(const std::set<std::size_t>& heads) {
    std::ostringstream out;
    out << "{";
    for (std::size_t h : heads) out << (h == *heads.begin() ? "" : ", ") << h;
    out << "}";
    return out.str();
}

// The union of the two masks, (batch, n_q, n_k), for the loop reference.
Mask union_of(const Mask& key_padding, const Mask& attention_mask) {
    Mask blocked = xt::zeros<bool>({key_padding.shape(0), attention_mask.shape(0), key_padding.shape(1)});
    for (std::size_t s = 0; s < blocked.shape(0); ++s)
        for (std::size_t i = 0; i < blocked.shape(1); ++i)
            for (std::size_t j = 0; j < blocked.shape(2); ++j) blocked(s, i, j) = key_padding(s, j) || attention_mask(i, j);
    return blocked;
}

}  // namespace

TEST_CASE("08.4 grouped_query_attention" * doctest::test_suite("ch08")) {
    const A query = golden08::load("gqa_query"), key = golden08::load("gqa_key"), value = golden08::load("gqa_value");
    const Mask padding = golden08::load_mask("gqa_key_padding"), causal = golden08::load_mask("gqa_attention_mask");
    REQUIRE_SHAPE(query.shape(), {2, 3, 12});
    REQUIRE_SHAPE(key.shape(), {2, 5, 12});

    PROPERTY("the weights come from q_proj and k_proj: changing v_proj moves the output, never the weights") {
        golden08::GoldenLayer golden(2);
        const auto before = run(golden.layer, query, key, value);
        REQUIRE_SHAPE(before.head_weights.shape(), {2, 4, 3, 5});
        REQUIRE_SHAPE(before.output.shape(), {2, 3, 12});
        golden.layer.v_proj.weight.value() += 0.5;
        const auto after = run(golden.layer, query, key, value);
        CHECK_MESSAGE(heads_that_moved(before.head_weights.value(), after.head_weights.value()).empty(),
                      "changing v_proj changed the weights: the scores must use the keys (key through k_proj), and "
                      "v_proj only the values that the weights mix");
        CHECK_MESSAGE(xt::amax(xt::abs(after.output.value() - before.output.value()))() > 1e-6,
                      "changing v_proj left the output as it was: the values must come from value through v_proj");
    };
    PROPERTY("query head h reads key/value head h / (H / G): new keys for one key/value head move exactly its heads") {
        // (H, G) = (4, 2): heads 0, 1 read key/value head 0 and heads 2, 3 head 1 (h % G would pair 0 with 2);
        // (6, 3): pairs {0, 1} {2, 3} {4, 5}; (6, 2): triples; (4, 1): every head reads head 0.
        for (const auto& [heads, kv_heads] : {std::pair{4, 2}, std::pair{6, 3}, std::pair{6, 2}, std::pair{4, 1}}) {
            RandomLayer random(heads, kv_heads, 7);
            const std::size_t d = 2 * heads, d_h = 2, group = heads / kv_heads;
            const A x = support::random_array({2, 3, d}, 21), y = support::random_array({2, 5, d}, 22);
            const A before = run(random.layer, x, y, y).head_weights.value();
            for (std::size_t g = 0; g < std::size_t(kv_heads); ++g) {
                // Key/value head g's keys are rows [g d_h, (g + 1) d_h) of k_proj.
                A& W = random.layer.k_proj.weight.value();
                xt::view(W, xt::range(g * d_h, (g + 1) * d_h)) += 1.0;
                const A after = run(random.layer, x, y, y).head_weights.value();
                xt::view(W, xt::range(g * d_h, (g + 1) * d_h)) -= 1.0;
                std::set<std::size_t> expected;
                for (std::size_t h = g * group; h < (g + 1) * group; ++h) expected.insert(h);
                const std::set<std::size_t> moved = heads_that_moved(before, after);
                CHECK_MESSAGE(moved == expected, "H = " << heads << ", G = " << kv_heads << ": new keys for key/value head "
                                                        << g << " moved query heads " << text(moved) << "; the heads "
                                                        << text(expected) << " read it (h / (H / G) = h / " << group << ")");
            }
        }
    };
    PROPERTY("the scores are divided by sqrt(d_h), the size of one head (not sqrt(d), not multiplied)") {
        const golden08::GoldenLayer golden(2);
        const A got = run(golden.layer, query, key, value).head_weights.value();
        const double d_h = 3, d = 12;
        const auto group_of = [](std::size_t h) { return h / 2; };
        const auto weights_scaled_by = [&](double scale) {
            return loops08::grouped_query(golden.layer, query, key, value, attn::ch03::no_mask(), scale, group_of).weights;
        };
        const support::AllcloseResult right = support::allclose(got, weights_scaled_by(1 / std::sqrt(d_h)), same_in_double,
                                                                same_in_double);
        std::string diagnosis;
        for (const auto& [scale, name] : {std::pair{1 / std::sqrt(d), "1/sqrt(d), d = d_model = 12"},
                                          std::pair{std::sqrt(d_h), "sqrt(d_h) (multiplied)"},
                                          std::pair{1 / d_h, "1/d_h (divided twice by sqrt(d_h))"}, std::pair{1.0, "1 (not scaled)"}})
            if (support::allclose(got, weights_scaled_by(scale), same_in_double, same_in_double).ok)
                diagnosis = std::string("; they are the weights of scores scaled by ") + name;
        CHECK_MESSAGE(right.ok, "the weights are not softmax(Q_h K_g^T / sqrt(d_h)) with d_h = 3" << diagnosis << "\n"
                                                                                                  << right.report);
    };
    PROPERTY("the output is concat_h(A_h V_g) W_o^T + b_o: the heads merged in order, then o_proj") {
        const golden08::GoldenLayer golden(2);
        const auto got = run(golden.layer, query, key, value);
        const loops08::Result expected = loops08::grouped_query(golden.layer, query, key, value, attn::ch03::no_mask(),
                                                                1 / std::sqrt(3.0), [](std::size_t h) { return h / 2; });
        CHECK_ALLCLOSE(got.output.value(), expected.output, same_in_double, same_in_double);
    };
    PROPERTY("blocked keys get weight exactly 0 in every head: the key padding per sequence, the attention mask per query") {
        const golden08::GoldenLayer golden(2);
        const A w = run(golden.layer, query, key, value, padding, causal).head_weights.value();
        REQUIRE_SHAPE(w.shape(), {2, 4, 3, 5});
        CHECK_ALLCLOSE(A(xt::sum(w, {3})), A(xt::ones<double>({2, 4, 3})), same_in_double, 0.0);
        for (std::size_t s = 0; s < 2; ++s)
            for (std::size_t h = 0; h < 4; ++h)
                for (std::size_t i = 0; i < 3; ++i)
                    for (std::size_t j = 0; j < 5; ++j) {
                        const char* by = padding(s, j) ? "the key padding (key_padding, (batch, n_k))"
                                         : causal(i, j) ? "the attention mask (attention_mask, (n_q, n_k))" : nullptr;
                        if (by)
                            CHECK_MESSAGE(w(s, h, i, j) == 0.0, "weight (sequence, head, query, key) = ("
                                                                    << s << ", " << h << ", " << i << ", " << j
                                                                    << ") is " << w(s, h, i, j) << ": key " << j
                                                                    << " is blocked by " << by);
                    }
        const loops08::Result expected = loops08::grouped_query(golden.layer, query, key, value, union_of(padding, causal),
                                                                1 / std::sqrt(3.0), [](std::size_t h) { return h / 2; });
        CHECK_ALLCLOSE(w, expected.weights, same_in_double, same_in_double);
    };
    PROPERTY("a query whose keys are all blocked gets zero weights in every head and the output b_o, never NaN") {
        const golden08::GoldenLayer golden(1);
        Mask blocked = xt::zeros<bool>({std::size_t{3}, std::size_t{5}});
        xt::view(blocked, 1, xt::all()) = true;   // query 1 may look at nothing
        const auto result = run(golden.layer, query, key, value, attn::ch03::no_mask(), blocked);
        CHECK(xt::amax(xt::abs(xt::view(result.head_weights.value(), xt::all(), xt::all(), 1, xt::all())))() == 0.0);
        for (std::size_t s = 0; s < 2; ++s)
            CHECK_ALLCLOSE(A(xt::view(result.output.value(), s, 1, xt::all())), golden08::load("gqa_g1_o_proj_bias"), 1e-15, 0.0);
    };
    PROPERTY("with G = H it is chapter 05's multi_head_attention: output, head weights and every gradient") {
        // Chapter 05's in_proj_weight (3d, d) stacks W_q, W_k, W_v: its three blocks are q_proj,
        // k_proj and v_proj here, its in_proj_bias their biases, out_proj is o_proj.
        attn::Rng rng(11);
        const std::size_t d = 12, heads = 4;
        attn::ch05::MultiHeadAttention<double> multi(d, heads, rng);
        multi.in_proj_bias.value() = support::random_array({3 * d}, 31, 0.5);
        multi.out_proj.bias.value() = support::random_array({d}, 32, 0.5);
        GroupedQueryAttention<double> grouped(d, heads, heads, rng);
        const A& W = multi.in_proj_weight.value();
        const A& b = multi.in_proj_bias.value();
        attn::Linear<double>* parts[] = {&grouped.q_proj, &grouped.k_proj, &grouped.v_proj};
        for (std::size_t p = 0; p < 3; ++p) {
            parts[p]->weight.value() = xt::view(W, xt::range(p * d, (p + 1) * d));
            parts[p]->bias.value() = xt::view(b, xt::range(p * d, (p + 1) * d));
        }
        grouped.o_proj.weight.value() = multi.out_proj.weight.value();
        grouped.o_proj.bias.value() = multi.out_proj.bias.value();

        const Var<double> q1 = attn::parameter<double>(query), k1 = attn::parameter<double>(key), v1 = attn::parameter<double>(value);
        const Var<double> q2 = attn::parameter<double>(query), k2 = attn::parameter<double>(key), v2 = attn::parameter<double>(value);
        const auto expected = attn::ch05::multi_head_attention(multi, q1, k1, v1, padding, causal);
        const auto got = attn::ch08::grouped_query_attention(grouped, q2, k2, v2, padding, causal);
        CHECK_ALLCLOSE(got.head_weights.value(), expected.head_weights.value(), same_in_double, same_in_double);
        CHECK_ALLCLOSE(got.output.value(), expected.output.value(), same_in_double, same_in_double);
        const A doutput = golden08::load("gqa_doutput");
        attn::backward(expected.output, doutput);
        attn::backward(got.output, doutput);
        CHECK_ALLCLOSE(q2.grad(), q1.grad(), same_in_double, same_in_double);
        CHECK_ALLCLOSE(k2.grad(), k1.grad(), same_in_double, same_in_double);
        CHECK_ALLCLOSE(v2.grad(), v1.grad(), same_in_double, same_in_double);
        const A dW = multi.in_proj_weight.grad(), db = multi.in_proj_bias.grad();
        for (std::size_t p = 0; p < 3; ++p) {
            CAPTURE(p);   // 0: q_proj, 1: k_proj, 2: v_proj
            CHECK_ALLCLOSE(parts[p]->weight.grad(), A(xt::view(dW, xt::range(p * d, (p + 1) * d))), same_in_double, same_in_double);
            CHECK_ALLCLOSE(parts[p]->bias.grad(), A(xt::view(db, xt::range(p * d, (p + 1) * d))), same_in_double, same_in_double);
        }
        CHECK_ALLCLOSE(grouped.o_proj.weight.grad(), multi.out_proj.weight.grad(), same_in_double, same_in_double);
        CHECK_ALLCLOSE(grouped.o_proj.bias.grad(), multi.out_proj.bias.grad(), same_in_double, same_in_double);
    };
    for (const std::size_t kv_heads : {std::size_t{2}, std::size_t{1}})
        for (const std::string masks : {"plain", "both"}) {
            const std::string prefix = "gqa_g" + std::to_string(kv_heads) + "_" + masks + "_";
            const Mask key_padding = masks == "both" ? padding : attn::ch03::no_mask();
            const Mask attention_mask = masks == "both" ? causal : attn::ch03::no_mask();
            PROPERTY(("it matches PyTorch (repeat_interleave of the key/value heads): output and head weights, G = " +
                      std::to_string(kv_heads) + ", masks: " + masks).c_str()) {
                const golden08::GoldenLayer golden(kv_heads);
                const auto result = run(golden.layer, query, key, value, key_padding, attention_mask);
                CHECK_ALLCLOSE(result.head_weights.value(), golden08::load(prefix + "head_weights"), same_in_double, same_in_double);
                CHECK_ALLCLOSE(result.output.value(), golden08::load(prefix + "output"), same_in_double, same_in_double);
            };
            PROPERTY(("it matches PyTorch's gradients of the query, key, value and of every projection, G = " +
                      std::to_string(kv_heads) + ", masks: " + masks).c_str()) {
                const golden08::GoldenLayer golden(kv_heads);
                const attn::ch08::GroupedQueryAttention<double>& layer = golden.layer;
                const Var<double> q = attn::parameter<double>(query), k = attn::parameter<double>(key);
                const Var<double> v = attn::parameter<double>(value);
                attn::backward(attn::ch08::grouped_query_attention(layer, q, k, v, key_padding, attention_mask).output,
                               golden08::load("gqa_doutput"));
                CHECK_ALLCLOSE(q.grad(), golden08::load(prefix + "dquery"), gradient_rtol, gradient_atol);
                CHECK_ALLCLOSE(k.grad(), golden08::load(prefix + "dkey"), gradient_rtol, gradient_atol);
                CHECK_ALLCLOSE(v.grad(), golden08::load(prefix + "dvalue"), gradient_rtol, gradient_atol);
                for (auto [name, linear] : {std::pair{"q_proj", &layer.q_proj}, std::pair{"k_proj", &layer.k_proj},
                                            std::pair{"v_proj", &layer.v_proj}, std::pair{"o_proj", &layer.o_proj}}) {
                    CAPTURE(name);
                    CHECK_ALLCLOSE(linear->weight.grad(), golden08::load(prefix + "d" + name + "_weight"), gradient_rtol,
                                   gradient_atol);
                    CHECK_ALLCLOSE(linear->bias.grad(), golden08::load(prefix + "d" + name + "_bias"), gradient_rtol,
                                   gradient_atol);
                }
            };
        }
    PROPERTY("every gradient matches central differences (H = 4, G = 2, both masks)") {
        RandomLayer random(4, 2, 9);
        GroupedQueryAttention<double>& layer = random.layer;
        const A x = support::random_array({2, 3, 8}, 41), y = support::random_array({2, 5, 8}, 42);
        const A z = support::random_array({2, 5, 8}, 43), R = support::random_array({2, 3, 8}, 44);
        // The inputs, through the toolkit's gradcheck (its own random upstream gradient).
        const support::GradcheckResult inputs = support::gradcheck(
            [&](const std::vector<Var<double>>& in) {
                return attn::ch08::grouped_query_attention(layer, in[0], in[1], in[2], padding, causal).output;
            },
            {x, y, z});
        CHECK_MESSAGE(inputs.worst_error < 1e-7, inputs.report);
        // Every parameter: L = sum(output * R) as a function of its value, by central differences.
        layer.zero_grad();
        attn::backward(run(layer, x, y, z, padding, causal).output, R);
        for (const auto& [name, p] : layer.named_parameters()) {
            CAPTURE(name);
            Var<double> parameter = p;
            // A parameter the output does not depend on gets no gradient at all.
            const A analytic = parameter.has_grad() ? parameter.grad() : A(xt::zeros<double>(parameter.shape()));
            const A original = parameter.value();
            const A numeric = support::numerical_gradient(
                [&](const A& trial) {
                    parameter.value() = trial;
                    const double L = xt::sum(run(layer, x, y, z, padding, causal).output.value() * R)();
                    parameter.value() = original;
                    return L;
                },
                original);
            if (name == "k_proj.bias") {
                // q . (k_j + b) = q . k_j + q . b adds one number to every score of a row, which
                // the softmax ignores: this gradient is 0, and both sides must be rounding only.
                CHECK(xt::amax(xt::abs(analytic))() < 1e-12);
                CHECK(xt::amax(xt::abs(numeric))() < 1e-9);
            } else {
                const double error = attn::max_relative_error(analytic, numeric);
                CHECK_MESSAGE(error < 1e-7, "relative error " << error);
            }
        }
    };
    PROPERTY("sizes that do not fit are refused: G not dividing H, d not a multiple of H, zero, inputs of another d") {
        attn::Rng rng(1);
        CHECK_THROWS_AS(GroupedQueryAttention<double>(12, 4, 3, rng), std::invalid_argument);   // 3 does not divide 4
        CHECK_THROWS_AS(GroupedQueryAttention<double>(10, 4, 2, rng), std::invalid_argument);   // 10 / 4 heads
        CHECK_THROWS_AS(GroupedQueryAttention<double>(12, 4, 0, rng), std::invalid_argument);
        CHECK_THROWS_AS(GroupedQueryAttention<double>(12, 0, 1, rng), std::invalid_argument);
        CHECK_THROWS_AS(GroupedQueryAttention<double>(0, 4, 2, rng), std::invalid_argument);
        CHECK_THROWS_AS(GroupedQueryAttention<double>(12, 4, 8, rng), std::invalid_argument);   // more K/V heads than heads
        const golden08::GoldenLayer golden(2);
        const A narrow = xt::zeros<double>({2, 5, 8});   // d is 12
        CHECK_THROWS_AS(run(golden.layer, query, narrow, narrow), std::invalid_argument);
        const A shorter = xt::zeros<double>({2, 4, 12});   // values for 4 keys, 5 keys
        CHECK_THROWS_AS(run(golden.layer, query, key, shorter), std::invalid_argument);
        const Mask padding_of_queries = xt::zeros<bool>({2, 3});   // n_k is 5
        CHECK_THROWS_AS(run(golden.layer, query, key, value, padding_of_queries), std::invalid_argument);
    };
}
