// Chapter 08, attention at scale and decoding: exact attention that never holds the n x n
// matrix of scores. Part 1 reads a row of scores block by block with the online softmax
// (8.1)-(8.4); part 2 cuts attention into tiles of queries against keys (FlashAttention's
// forward) and draws the tiling; part 3 computes the gradients by recomputing each tile from
// the log-sum-exp; part 4 times naive against tiled attention, and measures their memory, up
// to n = 32,768. Parts 5-7 (grouped-query attention, the key/value cache, beam search) are
// coming: this chapter is being written (issue 29).
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/08_attention_at_scale/agreement.hpp"
#include "chapters/08_attention_at_scale/figures.hpp"
#include "chapters/08_attention_at_scale/online_softmax.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch08;

namespace {

const std::string chapter_dir = "08_attention_at_scale";

void coming(int part, const char* title) { std::printf("\n%d. %s: coming (this chapter is being written).\n", part, title); }

// ---- 1. One row of scores read two at a time: the running maximum, sum and rescale.  (8.1)-(8.4)
double read_a_row_in_blocks() {
    const Matrix<double> row = {{1.0, 3.0, 2.0, 5.0, 0.0, 4.0}};
    const std::size_t block = 2;
    std::printf("\n1. The online softmax (8.2)-(8.3) of the scores [1, 3, 2, 5, 0, 4], read %zu at a time: the maximum m so\n"
                "   far, the sum l of exp(s - m) so far, and exp(m_before - m), what the earlier sum is multiplied by:\n",
                block);
    for (const OnlineTrace<double>& step : trace_online_softmax(row, block))
        std::printf("   scores %zu-%zu   m = %g   l = %.6f   rescale = %.6f%s\n", step.first, step.last - 1, step.max, step.sum,
                    step.rescale, step.rescale == 0 ? "   (the first block: nothing before)"
                                  : step.rescale == 1 ? "   (the maximum did not grow)" : "");
    // The same row through chapter 00's softmax, which saw it whole.
    const double difference = xt::amax(xt::abs(online_softmax(row, block) - ch00::softmax(row)))();
    std::printf("   exp(s - m) / l after the last block against chapter 00's softmax of the whole row: largest difference %.1e\n",
                difference);
    return difference;
}

// ---- 2. Tiles of queries against tiles of keys; the tiling picture.                    (8.4)-(8.6)
struct ForwardFacts {
    double plain, causal, padded;   // largest |O_tiled - O_chapter03| for each mask
};

ForwardFacts tile_the_scores(Summary& summary, const std::filesystem::path& out, bool quick, Rng& rng) {
    const std::size_t batch = 2, n = quick ? 300 : 1000, d = 64;
    const Blocks blocks{64, 48};   // neither divides n: the last tiles are short
    const Tensor3<double> Q = random_tensor(batch, n, d, rng), K = random_tensor(batch, n, d, rng);
    const Tensor3<double> V = random_tensor(batch, n, d, rng);
    const IndexVector lengths = {static_cast<std::int64_t>(n), static_cast<std::int64_t>(n * 2 / 3)};
    std::printf("\n2. Tiled attention (8.4)-(8.6), %zu sequences of n = %zu, d = %zu, float64, in tiles of %zu queries x %zu keys:\n"
                "   %zu scores at a time instead of n x n = %zu; the output against chapter 03's attention, which holds them all:\n",
                batch, n, d, blocks.queries, blocks.keys, blocks.queries * blocks.keys, n * n);
    const ForwardFacts facts{forward_difference(Q, K, V, {}, blocks), forward_difference(Q, K, V, {true, {}}, blocks),
                             forward_difference(Q, K, V, {true, lengths}, blocks)};
    std::printf("   largest difference: %.1e with no mask, %.1e causal, %.1e causal with valid lengths %zu and %zu\n",
                facts.plain, facts.causal, facts.padded, n, n * 2 / 3);

    const std::size_t picture_n = 32, picture_block = 8;
    const plot::Heatmap map = tiling_picture(picture_n, picture_block, picture_block);
    std::printf("   The %zu x %zu scores of causal attention in tiles of %zu x %zu: the tiles above the diagonal are never\n"
                "   computed, those on it are computed and then masked; figure in %s:\n",
                picture_n, picture_n, picture_block, picture_block, out.string().c_str());
    summary.figure(plot::save_and_report(map, out, "tiling"));
    std::cout << "\n" << plot::preview(map, ::isatty(STDOUT_FILENO) == 1);
    return facts;
}

// ---- 3. The backward pass, each tile recomputed from the log-sum-exp.                  (8.7)-(8.10)
GradientAgreement recompute_for_gradients(bool quick, Rng& rng) {
    const std::size_t batch = 2, n = quick ? 100 : 300, d = 16;
    const Blocks blocks{32, 24};
    const Tensor3<double> Q = random_tensor(batch, n, d, rng), K = random_tensor(batch, n, d, rng);
    const Tensor3<double> V = random_tensor(batch, n, d, rng), dO = random_tensor(batch, n, d, rng);
    const GradientAgreement g = gradient_difference(Q, K, V, dO, {true, {}}, blocks);
    std::printf("\n3. The backward pass (8.7)-(8.10), causal, %zu sequences of n = %zu, d = %zu, tiles of %zu x %zu: each tile's\n"
                "   probabilities rebuilt as exp(S - L) from the forward pass's log-sum-exp, nothing of size n x n kept.\n"
                "   Against the autodiff through chapter 03's attention, relative error: dQ %.1e, dK %.1e, dV %.1e\n",
                batch, n, d, blocks.queries, blocks.keys, g.dQ, g.dK, g.dV);
    return g;
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch08",
                    "attention at scale: the online softmax, exact attention in tiles (FlashAttention's forward "
                    "and its backward by recomputation), their time and memory against n");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, /*default_steps=*/0, /*quick_steps=*/0);
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 08: attention at scale and decoding (" << code_name(run) << ", seed " << run.seed << ")\n";

    Rng rng(run.seed);
    const double online_difference = read_a_row_in_blocks();
    const ForwardFacts forward = tile_the_scores(summary, out, run.quick, rng);
    const GradientAgreement gradients = recompute_for_gradients(run.quick, rng);
    coming(4, "Naive against tiled attention: time and peak memory against n");
    coming(5, "Grouped-query attention: fewer key/value heads");
    coming(6, "Decoding with a key/value cache");
    coming(7, "Greedy decoding against beam search");

    // Exact facts, not measurements: a correct implementation lands inside whatever the seed.
    summary.metric("online_softmax_difference", "online softmax vs chapter 00's, largest difference", online_difference,
                   0.0, 1e-15);
    summary.metric("tiled_forward_difference", "tiled vs chapter 03's attention, largest difference",
                   std::max({forward.plain, forward.causal, forward.padded}), 0.0, 1e-12);
    summary.metric("tiled_gradient_error", "tiled dQ, dK, dV vs the autodiff's, largest relative error",
                   std::max({gradients.dQ, gradients.dK, gradients.dV}), 0.0, 1e-10);
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch08", [&] { return run(argc, argv); });
}
