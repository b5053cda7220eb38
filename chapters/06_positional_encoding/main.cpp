// Chapter 06, positional encoding: self-attention does not know where a word stands. Part 1
// reads "dog bites man" and "man bites dog" with one random self-attention layer, without and
// with positions (6.3); part 2 draws the sinusoidal table (6.1), a few of its columns and the
// similarity of its codes, and checks that moving every position by delta is one rotation (6.2);
// part 3 trains self-attention without positions, with sinusoidal and with learned positions
// on a task that needs order (answer with the previous letter), and part 4 tests the three on
// sequences longer than any seen in training.
#include "chapters/04_self_attention/self_attention.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "chapters/06_positional_encoding/expected_ranges.hpp"
#include "chapters/06_positional_encoding/figures.hpp"
#include "chapters/06_positional_encoding/order_comparison.hpp"
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
#include <memory>
#include <string>
#include <vector>

using namespace attn;
using namespace attn::ch06;

namespace {

const std::string chapter_dir = "06_positional_encoding";

// Training steps of each position tagger (parts 3 and 4); --steps replaces them.
int tagger_steps(bool quick) { return quick ? 300 : 3000; }

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

TableFacts draw_the_table(Summary& summary, const std::filesystem::path& out) {
    const std::size_t n = 64, d = 64;
    const Array<double> P = sinusoidal_encoding<double>(n, d);
    std::printf("\n2. The sinusoidal table P (6.1), n %zu positions, d %zu; figures in %s:\n", n, d, out.string().c_str());
    summary.figure(plot::save_and_report(encoding_heatmap(P, 8), out, "encoding"));
    summary.figure(plot::save_and_report(encoding_curves(P, {0, 8, 16, 32}), out, "encoding_columns"));
    const Array<double> similarity = xt::linalg::dot(P, xt::transpose(P));   // S[i, k] = P_i . P_k
    summary.figure(plot::save_and_report(similarity_heatmap(similarity, 8), out, "similarity"));

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

// ---- 3. An order task: without positions, with sinusoidal ones, with learned ones.
struct TrainedTagger {
    Positions positions;
    std::vector<OrderScore> by_length;   // test lengths 1, 2, ..., longest_test
    double loss;
    std::unique_ptr<PositionTagger> model;
};

const std::size_t longest_test = 40;   // part 4 tests lengths task.longest + 1 .. longest_test
const std::vector<Positions> all_positions = {Positions::none, Positions::sinusoidal, Positions::learned};

std::string letters_of(const PreviousTokenTask& task, const xt::xarray<std::int64_t>& row, std::size_t n) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) text += token_name(task, row(i)) + (i + 1 < n ? " " : "");
    return text;
}

std::vector<TrainedTagger> compare_positions(const RunSettings& run, const PreviousTokenTask& task,
                                             const std::vector<TokenBatch>& test) {
    const TaggerSizes sizes;
    Recipe recipe;
    recipe.steps = run.steps;
    std::printf("\n3. The previous-letter task: sequences of %zu-%zu letters (a-%c), and at each position the letter just\n"
                "   before it (\"^\" at position 0): \"c a b b\" -> \"^ c a b\", %zu classes. Each model is a letter embedding\n"
                "   (d %zu), then positions: none, sinusoidal (6.3), or a learned table of %zu rows added the same way\n"
                "   (sqrt(d) X + L[i]; a position i >= %zu, never seen in training, uses row %zu); then x +\n"
                "   MultiHeadAttention(x, x, x) (%zu heads, padding masked) and the same head (Linear %zu, ReLU, Linear %zu).\n"
                "   Adam lr %g, clip %g, %d steps of %zu sequences of random lengths %zu-%zu, the same batches and the\n"
                "   same initial seed for every model; tested on %zu sequences of each length 1-%zu:\n",
                task.shortest, task.longest, static_cast<char>('a' + task.letters - 1), task.classes(), sizes.d_model,
                sizes.learned_positions, sizes.learned_positions, sizes.learned_positions - 1, sizes.heads, sizes.hidden,
                task.classes(), recipe.lr, recipe.clip, recipe.steps, recipe.batch, task.shortest, task.longest,
                test.front().lengths.size(), task.longest);
    std::vector<TrainedTagger> trained;
    for (const Positions positions : all_positions) {
        Rng init(run.seed);
        auto model = std::make_unique<PositionTagger>(task, positions, sizes, init);
        const Stopwatch clock;
        const double loss = train_position_tagger(*model, task, recipe, run.seed + 1);
        std::vector<OrderScore> by_length = score_by_length(*model, test, task.longest);
        const OrderScore seen = total(by_length, 0, task.longest);
        std::printf("   %-12s %5zu parameters, trained in %5.1f s, loss %.3f; accuracy per token %.3f, per sequence %.3f\n",
                    positions_name(positions).c_str(), model->parameter_count(), clock.seconds(), loss,
                    seen.token_accuracy(), seen.sequence_accuracy());
        trained.push_back({positions, std::move(by_length), loss, std::move(model)});
    }
    // One test sequence through the three models.
    const TokenBatch& example = test[11];
    std::printf("\n   a test sequence of 12 letters   %s\n", letters_of(task, xt::view(example.tokens, 0), 12).c_str());
    std::printf("   the right answers               %s\n", letters_of(task, xt::view(example.targets, 0), 12).c_str());
    for (const TrainedTagger& t : trained) {
        const TokenBatch one = label_token_batch(task, {std::vector<std::int64_t>(example.tokens.begin(),
                                                                                   example.tokens.begin() + 12)});
        const Array<float> scores = (*t.model)(one).value();
        const xt::xarray<std::int64_t> predicted = xt::argmax(scores, 2);
        std::printf("   %-31s %s\n", (positions_name(t.positions) + " answers").c_str(),
                    letters_of(task, xt::view(predicted, 0), 12).c_str());
    }
    return trained;
}

// ---- 4. Longer than anything seen in training.
void show_extrapolation(const PreviousTokenTask& task, const std::vector<TrainedTagger>& trained, double chance,
                        Summary& summary, const std::filesystem::path& out) {
    std::printf("\n4. The same models on sequences longer than any seen in training (lengths %zu-%zu; the learned table\n"
                "   has no row for positions %zu-%zu, which all use row %zu):\n"
                "   %-12s  accuracy per token (per sequence)         at the unseen positions\n"
                "   %-12s  lengths 1-%zu      lengths %zu-%zu            %zu-%zu only\n",
                task.longest + 1, longest_test, task.longest, longest_test - 1, task.longest - 1, "", "", task.longest,
                task.longest + 1, longest_test, task.longest, longest_test - 1);
    for (const TrainedTagger& t : trained) {
        const OrderScore seen = total(t.by_length, 0, task.longest), beyond = total(t.by_length, task.longest, longest_test);
        std::printf("   %-12s  %.3f (%.3f)      %.3f (%.3f)            %.3f\n", positions_name(t.positions).c_str(),
                    seen.token_accuracy(), seen.sequence_accuracy(), beyond.token_accuracy(), beyond.sequence_accuracy(),
                    beyond.unseen_accuracy());
    }
    std::printf("\n   per-token accuracy by length:\n   %-12s", "length");
    for (std::size_t n = 26; n <= longest_test; n += 2) std::printf(" %5zu", n);
    std::printf("\n");
    std::vector<std::size_t> lengths;
    for (std::size_t n = 1; n <= longest_test; ++n) lengths.push_back(n);
    std::vector<ModelAccuracy> lines;
    for (const TrainedTagger& t : trained) {
        ModelAccuracy line{positions_name(t.positions), {}};
        for (const OrderScore& score : t.by_length) line.accuracy.push_back(score.token_accuracy());
        std::printf("   %-12s", line.model.c_str());
        for (std::size_t n = 26; n <= longest_test; n += 2) std::printf(" %5.3f", line.accuracy[n - 1]);
        std::printf("\n");
        lines.push_back(std::move(line));
    }
    summary.figure(plot::save_and_report(accuracy_by_length_plot(lengths, lines, task.longest, chance,
                                                                 "Previous letter: accuracy by length (trained on lengths 1-" +
                                                                     std::to_string(task.longest) + ")"),
                                         out, "accuracy_by_length"));
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch06",
                    "positional encoding: self-attention reads \"dog bites man\" and \"man bites dog\" alike until "
                    "positions are added; the sinusoidal table, its similarity and its rotation property; "
                    "self-attention without, with sinusoidal and with learned positions on an order task, on the "
                    "training lengths and beyond");
    add_standard_flags(cli, run, chapter_dir);
    if (!parse_chapter_flags(cli, run, argc, argv, chapter_dir, expected_ranges(), tagger_steps(false), tagger_steps(true))) return 0;
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 06: positional encoding (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);

    const OrderFacts order = compare_word_orders(rng);
    const TableFacts table = draw_the_table(summary, out);

    // Exact facts rather than measurements: a correct implementation lands inside whatever the seed.
    summary.metric("order_difference_without_positions", "largest change of a word's output between orders, no positions",
                   order.without_positions, 0.0, 1e-12);
    // Its size depends on the random layer (0.057 to 0.53 over seeds 1, 2, 3 and 42), so the
    // range is a floor: with positions added, the order must change the outputs.
    summary.metric("order_difference_with_positions", "largest change of a word's output between orders, positions",
                   order.with_positions, 0.01, 10.0);
    summary.metric("code_length_error", "largest |P_i . P_i - d/2|", table.length_error, 0.0, 1e-12);
    summary.metric("similarity_shift_error", "largest |P_(i+1) . P_(k+1) - P_i . P_k|", table.shift_error, 0.0, 1e-12);
    summary.metric("rotation_error", "largest |P[i + delta] - P[i] R(delta)|", table.rotation_error, 0.0, 1e-11);

    // Ranges hold at the chapter's own settings only.
    const Ranges order_ranges =
        cli.given("steps") ? Ranges{} : rows_for(expected_ranges(), run.quick ? "previous letter --quick" : "previous letter");
    const PreviousTokenTask task;
    Rng test_rng(run.seed + 1000);
    const std::vector<TokenBatch> test = make_test_sets(task, 50, 1, longest_test, test_rng);
    const std::vector<TrainedTagger> trained = compare_positions(run, task, test);
    const double chance = 1.0 / static_cast<double>(task.letters);
    std::printf("   (chance: %.3f per token, one of the %zu letters picked at random; without positions a model can\n"
                "   still do better on short sequences, where few letters are candidates)\n",
                chance, task.letters);
    show_extrapolation(task, trained, chance, summary, out);
    // "1-30", "31-40", "30-39": the training lengths, the longer test lengths, the unseen positions.
    const std::string seen_lengths = std::to_string(task.shortest) + "-" + std::to_string(task.longest);
    const std::string longer_lengths = std::to_string(task.longest + 1) + "-" + std::to_string(longest_test);
    const std::string unseen_positions = std::to_string(task.longest) + "-" + std::to_string(longest_test - 1);
    // Short enough for tick labels; the x label says what they mean.
    const std::vector<std::string> measures{"per token, " + seen_lengths, "per sequence, " + seen_lengths,
                                            "per token, pos. " + unseen_positions};
    std::vector<ModelAccuracy> by_measure;
    for (const TrainedTagger& t : trained) {
        const OrderScore seen = total(t.by_length, 0, task.longest), beyond = total(t.by_length, task.longest, longest_test);
        const std::string name = positions_name(t.positions);
        const std::string key = t.positions == Positions::none ? "none" : name;
        by_measure.push_back({name, {seen.token_accuracy(), seen.sequence_accuracy(), beyond.unseen_accuracy()}});
        add_metric(summary, order_ranges, "token_accuracy_" + key, name + ": accuracy per token, lengths " + seen_lengths,
                   seen.token_accuracy());
        add_metric(summary, order_ranges, "sequence_accuracy_" + key, name + ": accuracy per sequence, lengths " + seen_lengths,
                   seen.sequence_accuracy());
        add_metric(summary, order_ranges, "longer_token_accuracy_" + key, name + ": accuracy per token, lengths " + longer_lengths,
                   beyond.token_accuracy());
        add_metric(summary, order_ranges, "unseen_position_accuracy_" + key,
                   name + ": accuracy per token, positions " + unseen_positions, beyond.unseen_accuracy());
        summary.setting("parameters_" + key, static_cast<double>(t.model->parameter_count()));
    }
    summary.figure(plot::save_and_report(accuracy_by_measure_plot(measures, by_measure, chance,
                                                                "Previous letter: test accuracy of the three models"),
                                         out, "accuracy_by_positions"));

    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch06", [&] { return run(argc, argv); });
}
