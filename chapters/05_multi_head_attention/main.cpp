// Chapter 05, multi-head attention: h heads, each attending in its own d/h-dimensional
// slice of the features, at the cost of one full-width head. Part 1 follows the shapes
// through one forward pass (5.1)-(5.5) and counts the parameters; part 2 draws the weights
// of every head of a random layer over a sentence; part 3 trains 1, 2, 4 and 8 heads at one
// parameter budget on a task that needs two relations at once, and shows the heads specialise.
#include "chapters/05_multi_head_attention/expected_ranges.hpp"
#include "chapters/05_multi_head_attention/figures.hpp"
#include "chapters/05_multi_head_attention/head_comparison.hpp"
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

// Training steps of each partner tagger (part 3); --steps replaces them.
int partner_steps(bool quick) { return quick ? 1000 : 6000; }

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
const std::vector<std::string> sentence = {"the", "animal", "didn't", "cross", "the", "street",
                                           "because", "it", "was", "too", "tired"};

// -> the heads' weights (1, heads, n, n) over `sentence`
Array<float> sentence_heads(Rng& rng, std::size_t heads) {
    const std::vector<std::string>& words = sentence;
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
    return multi_head_attention(layer, X, X, X).head_weights.value();
}


// ---- 3. Two relations at once: 1, 2, 4 and 8 heads at one budget on the partners task.
struct TrainedTagger { std::size_t heads; PartnerScore score; double loss; std::unique_ptr<PartnerTagger> model; };

std::vector<TrainedTagger> compare_head_counts(const RunSettings& run, const PartnersTask& task, const PartnersBatch& test) {
    const TaggerSizes sizes;
    Recipe recipe;
    recipe.steps = run.steps;
    std::printf("\n3. The partners task: sets of %zu items, each a colour, a shape and a digit 0-%zu; every colour and\n"
                "   every shape occurs on exactly two items, so each item has a colour partner and a shape partner.\n"
                "   Its label: colour partner's digit - shape partner's digit (%zu classes, -%zu to %zu). Each model is\n"
                "   the sum of three embeddings (d %zu), x + MultiHeadAttention(x, x, x) (no positions) and the same\n"
                "   head (Linear %zu, ReLU, Linear %zu); Adam lr %g, clip %g, %d steps of %zu sets, the same batches\n"
                "   and the same initial seed for every number of heads; tested on %zu sets:\n",
                task.items, task.digits - 1, task.classes(), task.digits - 1, task.digits - 1, sizes.d_model,
                sizes.hidden, task.classes(), recipe.lr, recipe.clip, recipe.steps, recipe.batch, test.digit.shape(0));
    std::vector<TrainedTagger> trained;
    for (const std::size_t heads : {1, 2, 4, 8}) {
        Rng init(run.seed);
        auto model = std::make_unique<PartnerTagger>(task, sizes.d_model, heads, sizes.hidden, init);
        const Stopwatch clock;
        const double loss = train_partner_tagger(*model, task, recipe, run.seed + 1);
        const PartnerScore score = score_partner_tagger(*model, test);
        std::printf("   %zu head%s (d_h %2zu): attention layer %zu parameters (model %zu), trained in %5.1f s, loss %.3f,"
                    " accuracy %.3f\n",
                    heads, heads == 1 ? " " : "s", sizes.d_model / heads, model->attention.parameter_count(),
                    model->parameter_count(), clock.seconds(), loss, score.accuracy);
        trained.push_back({heads, score, loss, std::move(model)});
    }
    return trained;
}

// Which partner each head looks at: its mean weight on the colour partner and on the shape
// partner, over every item of the test sets.
void show_head_roles(const std::vector<TrainedTagger>& trained) {
    std::printf("\n   mean weight of each head on an item's colour partner / on its shape partner:\n");
    for (const TrainedTagger& t : trained) {
        std::printf("   %zu head%s ", t.heads, t.heads == 1 ? " " : "s");
        for (std::size_t h = 0; h < t.heads; ++h)
            std::printf(" %.2f/%.2f", t.score.colour_weight[h], t.score.shape_weight[h]);
        std::printf("\n");
    }
    const PartnerScore& one = trained[0].score;
    const bool on_colour = one.colour_weight[0] >= one.shape_weight[0];
    const double major = on_colour ? one.colour_weight[0] : one.shape_weight[0];
    const double minor = on_colour ? one.shape_weight[0] : one.colour_weight[0];
    if (minor < 0.1)
        std::printf("   1 head:  looks at the %s partner (%.2f of its weight; %.2f on the other partner): one digit\n"
                    "            of a difference alone leaves its ten values equally likely\n",
                    on_colour ? "colour" : "shape", major, minor);
    else
        std::printf("   1 head:  mixes the partners, %.2f on the colour one and %.2f on the shape one: the head above\n"
                    "            it must tell the two digits apart from one weighted sum\n",
                    one.colour_weight[0], one.shape_weight[0]);
    const PartnerScore& two = trained[1].score;
    for (std::size_t h = 0; h < 2; ++h) {
        const bool colour = two.colour_weight[h] > two.shape_weight[h];
        std::printf("   2 heads: head %zu looks at the %s partner (%.2f of its weight; %.2f on the other partner)\n",
                    h + 1, colour ? "colour" : "shape", colour ? two.colour_weight[h] : two.shape_weight[h],
                    colour ? two.shape_weight[h] : two.colour_weight[h]);
    }
    std::printf("   specialisation of the 2 heads: %.3f (1: each head on one partner only; 0: both alike)\n",
                specialisation(two));
}

// The trained 2-head model's weights on the first test set, one panel per head.
void draw_trained_heads(const TrainedTagger& two, const PartnersBatch& test, Summary& summary,
                        const std::filesystem::path& out) {
    const PartnersBatch first = label_partners_batch(PartnersTask{}, xt::view(test.colour, xt::range(0, 1), xt::all()),
                                                     xt::view(test.shape, xt::range(0, 1), xt::all()),
                                                     xt::view(test.digit, xt::range(0, 1), xt::all()));
    std::vector<std::string> names;
    for (std::size_t i = 0; i < first.digit.shape(1); ++i) names.push_back(item_name(first, 0, i));
    const Array<float> weights = two.model->head_weights(first);
    const plot::HeatmapGrid grid = heads_grid(weights, names, names, "The trained 2-head model on a test set", 2);
    summary.figure(plot::save_and_report(grid, out, "partners_heads"));
    summary.attention(grid, {"partners: first test set", "self"});
    std::cout << "\n" << plot::preview(grid, ::isatty(STDOUT_FILENO) == 1, 110);
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch05",
                    "multi-head attention: the shapes through one forward pass, the parameter count, the weights "
                    "of every head of a random layer over a sentence, and 1, 2, 4 or 8 heads at one parameter budget "
                    "on a task that needs two relations at once");
    add_standard_flags(cli, run, chapter_dir);
    if (!parse_chapter_flags(cli, run, argc, argv, chapter_dir, expected_ranges(), partner_steps(false), partner_steps(true))) return 0;
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 05: multi-head attention (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);

    const ShapeFacts facts = follow_the_shapes(rng);

    const std::size_t heads = 4;
    std::cout << "\n2. The weights of each of " << heads << " heads of a random layer over a sentence; figure in "
              << out.string() << ":\n";
    const Array<float> weights = sentence_heads(rng, heads);
    const std::string title = "The " + std::to_string(heads) + " heads of a random layer (d 16) over one sentence, no positions";
    const plot::HeatmapGrid grid = heads_grid(weights, sentence, sentence, title, 2);
    summary.figure(plot::save_and_report(grid, out, "sentence_heads"));
    summary.attention(grid, {"a sentence, random layer", "self"});
    std::cout << "\n" << plot::preview(grid, ::isatty(STDOUT_FILENO) == 1, 110);

    // Exact facts rather than measurements: a correct implementation lands inside whatever the seed.
    summary.metric("merge_split_difference", "largest |merge(split(x)) - x|", facts.round_trip, 0.0, 0.0);
    summary.metric("averaged_weights_difference", "largest |averaged - mean of head weights|",
                   facts.mean_difference, 0.0, 1e-15);
    summary.metric("parameter_ratio", "parameters: 2 heads / one full-width head",
                   static_cast<double>(facts.heads_count) / static_cast<double>(facts.one_head_count), 1.0, 1.0);

    // Ranges hold at the chapter's own settings only.
    const Ranges partner_ranges =
        cli.given("steps") ? Ranges{} : rows_for(expected_ranges(), run.quick ? "partners --quick" : "partners");
    const PartnersTask task;
    Rng test_rng(run.seed + 1000);
    const PartnersBatch test = make_partners_batch(task, 500, test_rng);
    const std::vector<TrainedTagger> trained = compare_head_counts(run, task, test);
    show_head_roles(trained);
    const double chance = 1.0 / static_cast<double>(task.digits);   // label 0: the two digits equal
    const double even_mix = chance + (1 - chance) / 2;   // knows both digits, guesses which is whose
    std::printf("   (chance: %.2f, always answering 0; a model mixing the two partners evenly knows both digits\n"
                "   but not whose is whose, and can do no better than %.2f)\n",
                chance, even_mix);
    std::vector<std::size_t> head_counts;
    std::vector<double> accuracies;
    for (const TrainedTagger& t : trained) {
        head_counts.push_back(t.heads);
        accuracies.push_back(t.score.accuracy);
        const std::string heads = std::to_string(t.heads) + (t.heads == 1 ? " head" : " heads");   // "2 heads"
        const std::string key = heads.substr(0, heads.find(' ')) + "_" + heads.substr(heads.find(' ') + 1);
        add_metric(summary, partner_ranges, "accuracy_" + key, heads + ": test accuracy", t.score.accuracy);
        summary.setting("parameters_" + key, static_cast<double>(t.model->parameter_count()));
        summary.setting("attention_parameters_" + key, static_cast<double>(t.model->attention.parameter_count()));
    }
    add_metric(summary, partner_ranges, "specialisation_2_heads", "2 heads: specialisation on the two partners",
               specialisation(trained[1].score));
    summary.figure(plot::save_and_report(accuracy_by_heads_plot(head_counts, accuracies, chance, even_mix,
                                                                "Partners task: accuracy against heads at one parameter budget"),
                                         out, "partners_accuracy_by_heads"));
    draw_trained_heads(trained[1], test, summary, out);

    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch05", [&] { return run(argc, argv); });
}
