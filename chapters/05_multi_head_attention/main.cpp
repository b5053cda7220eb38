// Chapter 05, multi-head attention: h heads, each attending in its own d/h-dimensional
// slice of the features, at the cost of one full-width head. Part 1 follows the shapes
// through one forward pass (5.1)-(5.5) and counts the parameters; part 2 draws the weights
// of every head of a random layer over a sentence.
#include "chapters/05_multi_head_attention/figures.hpp"
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "chapters/05_multi_head_attention/merge_heads.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "common/autodiff/ops.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <unistd.h>

using namespace attn;
using namespace attn::ch05;

namespace {

const std::string chapter_dir = "05_multi_head_attention";

double largest_difference(const Array<double>& a, const Array<double>& b) { return xt::amax(xt::abs(a - b))(); }

// ---- 1. The shapes through one forward pass, and what the heads cost.              (5.1)-(5.5)
struct ShapeFacts { double round_trip, mean_difference; std::size_t heads_count, one_head_count; };

ShapeFacts follow_the_shapes(Rng& rng) {
    const std::size_t batch = 2, n = 5, d = 8, heads = 2;
    const MultiHeadAttention<double> layer(d, heads, rng);
    Array<double> x_values = rng.normal_matrix<double>(batch * n, d);
    x_values.reshape({batch, n, d});
    const Var<double> x = constant<double>(x_values);
    const Var<double> split = split_heads(x, heads);
    const MultiHeadOutput<double> result = multi_head_attention(layer, x, x, x);
    const Var<double> merged = merge_heads(split, heads);
    std::printf("\n1. One self-attention pass, batch %zu, n %zu, d %zu, heads %zu (d_h = d / heads = %zu):\n", batch, n,
                d, heads, layer.head_size());
    const auto row = [](const char* what, const Shape& shape, const char* note) {
        std::printf("   %-34s %-16s %s\n", what, shape_string(shape).c_str(), note);
    };
    row("x", x.shape(), "(batch, n, d)");
    row("split_heads(x W_q^T + b_q)   (5.1)", split.shape(), "(batch * heads, n, d_h): one (n, d_h) matrix per head");
    row("scores, weights per head", result.head_weights.shape(), "(batch, heads, n_q, n_k), scaled by 1/sqrt(d_h)");
    row("weights averaged over heads (5.5)", result.averaged_weights.shape(), "(batch, n_q, n_k)");
    row("merge_heads(heads' outputs) (5.2)", merged.shape(), "(batch, n, d): the heads side by side");
    row("output = merged W_o^T + b_o  (5.4)", result.output.shape(), "(batch, n, d)");

    Rng other(1);
    const MultiHeadAttention<double> one_head(d, 1, other);
    const ShapeFacts facts{largest_difference(merged.value(), x_values),
                           largest_difference(result.averaged_weights.value(), xt::mean(result.head_weights.value(), {1})),
                           layer.parameter_count(), one_head.parameter_count()};
    std::printf("   largest |merge(split(x)) - x| = %.1e   (the split only moves numbers)\n", facts.round_trip);
    std::printf("   parameters: %zu with %zu heads, %zu with one full-width head (4 d^2 + 4 d = %zu either way:\n"
                "   the heads share the same d x d matrices, each using a d_h-row block of them)\n",
                facts.heads_count, heads, facts.one_head_count, 4 * d * d + 4 * d);
    return facts;
}

// ---- 2. The weights of every head of a random layer over a sentence.
plot::Heatmap sentence_heads(Rng& rng, std::size_t heads) {
    const std::vector<std::string> words = {"the", "animal", "didn't", "cross", "the", "street",
                                            "because", "it", "was", "too", "tired"};
    std::map<std::string, std::int64_t> vocabulary;
    xt::xarray<std::int64_t> ids = xt::zeros<std::int64_t>({std::size_t{1}, words.size()});
    for (std::size_t i = 0; i < words.size(); ++i)
        ids(0, i) = vocabulary.emplace(words[i], static_cast<std::int64_t>(vocabulary.size())).first->second;
    const std::size_t d = 16;
    const Embedding<float> embed(vocabulary.size(), d, rng);
    MultiHeadAttention<float> layer(d, heads, rng);
    // Query and key projections with unit-variance entries per output (as in chapter 04's
    // picture), so each head's weights are neither uniform nor one-hot.
    const double unit = 1.0 / std::sqrt(static_cast<double>(d));
    auto W = xt::view(layer.in_proj_weight.value(), xt::range(0, 2 * d), xt::all());
    W = rng.normal_matrix<float>(2 * d, d, unit);
    const Var<float> X = embed(ids);
    const MultiHeadOutput<float> result = multi_head_attention(layer, X, X, X);
    return heads_heatmap(result.head_weights.value(), words, words,
                         "The " + std::to_string(heads) + " heads of a random layer (d " + std::to_string(d) +
                             ") over one sentence, no positions");
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch05",
                    "multi-head attention: the shapes through one forward pass, the parameter count, and the weights "
                    "of every head of a random layer over a sentence");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, 1, 1);   // nothing is trained yet
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 05: multi-head attention (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);

    const ShapeFacts facts = follow_the_shapes(rng);

    const std::size_t heads = 4;
    std::cout << "\n2. The weights of each of " << heads << " heads of a random layer over a sentence; figure in "
              << out.string() << ":\n";
    const plot::Heatmap map = sentence_heads(rng, heads);
    plot::save_and_report(map, out, "sentence_heads");
    std::cout << "\n" << plot::preview(map, ::isatty(STDOUT_FILENO) == 1, 110);

    // Exact facts rather than measurements: a correct implementation lands inside whatever the seed.
    summary.metric("merge_split_difference", "largest |merge(split(x)) - x|", facts.round_trip, 0.0, 0.0);
    summary.metric("averaged_weights_difference", "largest |averaged - mean of head weights|",
                   facts.mean_difference, 0.0, 1e-15);
    summary.metric("parameter_ratio", "parameters: 2 heads / one full-width head",
                   static_cast<double>(facts.heads_count) / static_cast<double>(facts.one_head_count), 1.0, 1.0);

    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch05", [&] { return run(argc, argv); });
}
