// Chapter 06, positional encoding: self-attention does not know where a word stands. Part 1
// reads "dog bites man" and "man bites dog" with one random self-attention layer, without and
// with positions (6.3); part 2 draws the sinusoidal table (6.1), a few of its columns and the
// similarity of its codes, and checks that moving every position by delta is one rotation (6.2).
#include "chapters/04_self_attention/self_attention.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "chapters/06_positional_encoding/figures.hpp"
#include "chapters/06_positional_encoding/position_rotation.hpp"
#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"
#include "common/autodiff/ops.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <xtensor-blas/xlinalg.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

using namespace attn;
using namespace attn::ch06;

namespace {

const std::string chapter_dir = "06_positional_encoding";

double largest_difference(const Array<double>& a, const Array<double>& b) { return xt::amax(xt::abs(a - b))(); }

// ---- 1. "dog bites man" and "man bites dog": the same words, two orders.            (6.3)
struct OrderFacts { double without_positions, with_positions; };

OrderFacts compare_word_orders(Rng& rng) {
    const std::vector<std::string> words = {"dog", "bites", "man"};
    const std::size_t d = 16, n = words.size();
    // Small embeddings (about 1/sqrt(d) per entry, Xavier's size), the case (6.3) scales for.
    Array<double> table = rng.normal_matrix<double>(n, d, 1.0 / std::sqrt(static_cast<double>(d)));
    const ch03::AttentionLayer<double> layer({d, d, d, d, d}, rng);
    // Sentence 1 is words 0 1 2, sentence 2 is 2 1 0: "dog" moves from position 0 to 2.
    const std::vector<std::size_t> first = {0, 1, 2}, second = {2, 1, 0};
    const auto embed = [&](const std::vector<std::size_t>& sentence) {
        Array<double> x = xt::view(table, xt::keep(sentence), xt::all());
        x.reshape({1, n, d});
        return constant<double>(x);
    };
    const auto attend = [&](const Var<double>& x) {
        return ch04::self_attention(layer, x, ch04::full_lengths(1, n)).output.value();
    };
    // Each word's output, looked up by word: row w is the output at the word's own position.
    const auto by_word = [&](const Array<double>& out, const std::vector<std::size_t>& sentence) {
        Array<double> rows = Array<double>::from_shape({n, d});
        for (std::size_t p = 0; p < n; ++p) xt::view(rows, sentence[p], xt::all()) = xt::view(out, 0, p, xt::all());
        return rows;
    };
    const Array<double> plain_1 = by_word(attend(embed(first)), first), plain_2 = by_word(attend(embed(second)), second);
    const Array<double> placed_1 = by_word(attend(add_positions(embed(first))), first);
    const Array<double> placed_2 = by_word(attend(add_positions(embed(second))), second);

    std::printf("\n1. The same three words in two orders, one random self-attention layer (d %zu, chapter 04's (4.1)-(4.3)),\n"
                "   embeddings with entries of about 1/sqrt(d); each word's output, first 4 of its %zu numbers:\n",
                d, d);
    const auto row = [](const char* what, const Array<double>& rows, std::size_t w) {
        std::printf("   %-42s [% .4f % .4f % .4f % .4f ...]\n", what, rows(w, 0), rows(w, 1), rows(w, 2), rows(w, 3));
    };
    for (std::size_t w = 0; w < n; ++w) {
        std::printf("   \"%s\"\n", words[w].c_str());
        row("  in \"dog bites man\", no positions", plain_1, w);
        row("  in \"man bites dog\", no positions", plain_2, w);
        row("  in \"dog bites man\", with positions (6.3)", placed_1, w);
        row("  in \"man bites dog\", with positions (6.3)", placed_2, w);
    }
    const OrderFacts facts{largest_difference(plain_1, plain_2), largest_difference(placed_1, placed_2)};
    std::printf("   largest difference of a word's output between the two orders: %.1e without positions,\n"
                "   %.3f with them. Without positions, self-attention sees a bag of words; with them, even\n"
                "   \"bites\", which stays at position 1, reads differently when its neighbours swap.\n",
                facts.without_positions, facts.with_positions);
    return facts;
}

// ---- 2. The table, its columns, the similarity of its codes, and the rotation.  (6.1), (6.2)
struct TableFacts { double length_error, shift_error, rotation_error; };

TableFacts draw_the_table(const std::filesystem::path& out) {
    const std::size_t n = 64, d = 64;
    const Array<double> P = sinusoidal_encoding<double>(n, d);
    std::printf("\n2. The sinusoidal table P (6.1), n %zu positions, d %zu; figures in %s:\n", n, d, out.string().c_str());
    plot::save_and_report(encoding_heatmap(P, 8), out, "encoding");
    plot::save_and_report(encoding_curves(P, {0, 8, 16, 32}), out, "encoding_columns");
    const Array<double> similarity = xt::linalg::dot(P, xt::transpose(P));   // S[i, k] = P_i . P_k
    plot::save_and_report(similarity_heatmap(similarity, 8), out, "similarity");

    TableFacts facts{};
    // Every pair is a point of the unit circle, so every code has squared length d / 2.
    facts.length_error = xt::amax(xt::abs(xt::diagonal(similarity) - static_cast<double>(d) / 2))();
    // S[i + 1, k + 1] = S[i, k]: the similarity depends on i - k only.
    facts.shift_error = largest_difference(xt::view(similarity, xt::range(1, n), xt::range(1, n)),
                                           xt::view(similarity, xt::range(0, n - 1), xt::range(0, n - 1)));
    // P[i + delta] = P[i] R(delta) on a longer table, every i, delta from -100 to 100.
    const std::size_t far = 1000, max_shift = 100;
    const Array<double> long_table = sinusoidal_encoding<double>(far, d);
    for (std::ptrdiff_t delta = -static_cast<std::ptrdiff_t>(max_shift); delta <= static_cast<std::ptrdiff_t>(max_shift);
         ++delta) {
        const std::size_t first = delta < 0 ? static_cast<std::size_t>(-delta) : 0;
        const std::size_t last = delta < 0 ? far : far - static_cast<std::size_t>(delta);
        const Array<double> moved = xt::linalg::dot(xt::view(long_table, xt::range(first, last), xt::all()),
                                                    position_rotation<double>(delta, d));
        const Array<double> target = xt::view(long_table, xt::range(static_cast<std::ptrdiff_t>(first) + delta,
                                                                    static_cast<std::ptrdiff_t>(last) + delta), xt::all());
        facts.rotation_error = std::max(facts.rotation_error, largest_difference(moved, target));
    }
    std::printf("   largest |P_i . P_i - d/2|                    = %.1e   (each pair is a point of the unit circle)\n"
                "   largest |P_(i+1) . P_(k+1) - P_i . P_k|      = %.1e   (the similarity depends on i - k only)\n"
                "   largest |P[i + delta] - P[i] R(delta)|       = %.1e   (6.2), positions 0-%zu, delta -%zu to %zu\n",
                facts.length_error, facts.shift_error, facts.rotation_error, far - 1, max_shift, max_shift);
    return facts;
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch06",
                    "positional encoding: self-attention reads \"dog bites man\" and \"man bites dog\" alike until "
                    "positions are added; the sinusoidal table, its similarity and its rotation property");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, 0, 0);
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 06: positional encoding (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);

    const OrderFacts order = compare_word_orders(rng);
    const TableFacts table = draw_the_table(out);

    // Exact facts rather than measurements: a correct implementation lands inside whatever the seed.
    summary.metric("order_difference_without_positions", "largest change of a word's output between orders, no positions",
                   order.without_positions, 0.0, 1e-12);
    summary.metric("order_difference_with_positions", "largest change of a word's output between orders, positions",
                   order.with_positions);
    summary.metric("code_length_error", "largest |P_i . P_i - d/2|", table.length_error, 0.0, 1e-12);
    summary.metric("similarity_shift_error", "largest |P_(i+1) . P_(k+1) - P_i . P_k|", table.shift_error, 0.0, 1e-12);
    summary.metric("rotation_error", "largest |P[i + delta] - P[i] R(delta)|", table.rotation_error, 0.0, 1e-11);

    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch06", [&] { return run(argc, argv); });
}
