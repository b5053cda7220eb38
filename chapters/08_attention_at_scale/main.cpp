// Chapter 08, attention at scale and decoding: exact attention that never holds the n x n
// matrix of scores. Part 1 reads a row of scores block by block with the online softmax
// (8.1)-(8.4); part 2 cuts attention into tiles of queries against keys (FlashAttention's
// forward) and draws the tiling; part 3 computes the gradients by recomputing each tile from
// the log-sum-exp; part 4 times naive against tiled attention, and measures their memory, up
// to n = 32,768 (--memory-budget); part 5 lets H query heads share G key/value heads (grouped-query
// attention, 08.4) and counts what that saves in a decoder's key/value cache (8.11)-(8.14). Then
// decoding, on chapter 07's translation model (trained here by chapter 07's code, or --load): part 6
// generates through the key/value cache (8.15) and by recomputing the prefix, part 7 sets greedy
// decoding against beam search (8.16); part 8, behind --kv-heads-study, trains that model again with fewer
// key/value heads in its decoder and scores it beside part 6's.
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/08_attention_at_scale/agreement.hpp"
#include "chapters/08_attention_at_scale/beam_decoding.hpp"
#include "chapters/08_attention_at_scale/cache_arithmetic.hpp"
#include "chapters/08_attention_at_scale/chapter07_translation.hpp"
#include "chapters/08_attention_at_scale/decoding_speed.hpp"
#include "chapters/08_attention_at_scale/expected_ranges.hpp"
#include "chapters/08_attention_at_scale/figures.hpp"
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "chapters/08_attention_at_scale/key_sharing.hpp"
#include "chapters/08_attention_at_scale/key_value_heads_study.hpp"
#include "chapters/08_attention_at_scale/online_softmax.hpp"
#include "chapters/08_attention_at_scale/scaling.hpp"
#include "common/cli.hpp"
#include "common/data/tokenize.hpp"
#include "common/data/toy_translation.hpp"
#include "common/memory.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>
#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch08;

namespace {

const std::string chapter_dir = "08_attention_at_scale";

unsigned long long ull(std::uint64_t x) { return static_cast<unsigned long long>(x); }

// 32768 -> "32,768"
std::string with_commas(std::uint64_t x) {
    std::string digits = std::to_string(x);
    for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
    return digits;
}

// {{0, 1}, {2, 3}} -> "{0, 1} {2, 3}"
std::string classes_text(const std::vector<std::vector<std::size_t>>& classes) {
    std::string text;
    for (const std::vector<std::size_t>& same : classes) {
        text += text.empty() ? "{" : " {";
        for (std::size_t k = 0; k < same.size(); ++k) text += (k ? ", " : "") + std::to_string(same[k]);
        text += "}";
    }
    return text;
}

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

// ---- 4. Naive against tiled attention: time and measured peak memory against n.
void naive_against_tiled(Summary& summary, const std::filesystem::path& out, bool quick, double budget_gib) {
    const std::size_t d = 64;
    std::vector<std::size_t> lengths;
    for (std::size_t n = 256; n <= (quick ? 2048u : 32768u); n *= 2) lengths.push_back(n);
    // Never more than this machine can give: a budget above it would end in the kernel's OOM killer.
    const std::optional<std::uint64_t> available = available_memory();
    double budget_mib = budget_gib * 1024;
    if (available && budget_mib > 0.8 * static_cast<double>(*available) / (1 << 20)) {
        budget_mib = 0.8 * static_cast<double>(*available) / (1 << 20);
        std::printf("\n   (--memory-budget %g GiB is more than this machine has free: using 80%% of %s)", budget_gib,
                    memory_text(*available).c_str());
    }
    std::printf("\n4. Naive (chapter 03: the n x n scores and weights in memory) against tiled attention (08.2, tiles of 256 x 256),\n"
                "   one forward pass of one head, d = %zu, float32, one thread; memory measured (the growth of peak resident\n"
                "   memory during one call, each point in a fresh process); the naive pass is not run once its memory would pass\n"
                "   the budget of %.1f GiB (--memory-budget):\n"
                "        n     naive ms   naive MiB     tiled ms   tiled MiB\n",
                d, budget_mib / 1024);
    const ScalingRun run = measure_scaling(lengths, d, budget_mib, quick ? 3 : 2, [](const ScalingPoint& p) {
        if (p.naive_ms)
            std::printf("   %6zu  %11.2f  %10.1f  %11.2f  %10.1f\n", p.n, *p.naive_ms, *p.naive_mib, p.tiled_ms, p.tiled_mib);
        else
            std::printf("   %6zu  %11s  %10s  %11.2f  %10.1f\n", p.n, "-", "-", p.tiled_ms, p.tiled_mib);
        std::fflush(stdout);
    });
    struct Fit {
        Measure what;
        const char* key;
        const char* name;
    };
    const Fit fits[] = {{Measure::naive_time, "slope_time_naive", "time, naive"},
                        {Measure::tiled_time, "slope_time_tiled", "time, tiled"},
                        {Measure::naive_memory, "slope_memory_naive", "memory, naive"},
                        {Measure::tiled_memory, "slope_memory_tiled", "memory, tiled"}};
    std::printf("   fitted slopes on log-log axes (the upper half of the lengths):");
    for (const Fit& f : fits)
        if (const std::optional<Slope> fit = fit_slope(run.points, f.what)) {
            std::printf("  %s %.2f", f.name, fit->slope);
            // Time slopes move with the machine's load; memory slopes do not, but depend on the
            // allocator and the sizes run: both are shown, never judged.
            if (f.what == Measure::naive_time || f.what == Measure::tiled_time)
                summary.timing(f.key, std::string("fitted slope of n, ") + f.name, fit->slope);
            else
                summary.metric(f.key, std::string("fitted slope of n, ") + f.name, fit->slope);
        }
    std::printf("\n   (time: n^2 for both, the same products; memory: n^2 naive, n tiled)\n");
    // The largest n both ran: how much more memory the n x n matrices take.
    for (auto p = run.points.rbegin(); p != run.points.rend(); ++p)
        if (p->naive_mib && p->tiled_mib > 0) {
            std::printf("   at n = %zu the naive pass took %.0fx the memory of the tiled one (%.1f MiB against %.1f MiB)\n", p->n,
                        *p->naive_mib / p->tiled_mib, *p->naive_mib, p->tiled_mib);
            // One key whatever the n (a machine with less memory stops the naive pass earlier): n is a setting.
            summary.metric("memory_ratio", "naive / tiled memory at the largest n both ran", *p->naive_mib / p->tiled_mib);
            summary.setting("memory_ratio_n", static_cast<double>(p->n));
            break;
        }
    if (run.naive_over_budget_at && run.predicted)
        std::printf("   the naive pass passes the %.1f GiB budget at n = %zu, predicted: its last measurement times\n"
                    "   (n / n_last)^2, counted as over from %.0f%% of the budget on (a measurement varies by a few percent\n"
                    "   between runs, and a pass a little over would take the machine's memory); not run\n",
                    budget_mib / 1024, *run.naive_over_budget_at, 100 / prediction_margin);
    else if (run.naive_over_budget_at)
        std::printf("   the naive pass passes the %.1f GiB budget at n = %zu (measured)\n", budget_mib / 1024,
                    *run.naive_over_budget_at);
    else
        std::printf("   the naive pass stays inside the %.1f GiB budget up to n = %zu\n", budget_mib / 1024, lengths.back());
    summary.setting("memory_budget_mib", budget_mib);
    if (run.naive_over_budget_at) summary.setting("naive_over_budget_at_n", static_cast<double>(*run.naive_over_budget_at));
    summary.figure(plot::save_and_report(scaling_time_plot(run.points, d), out, "time_against_n"));
    summary.figure(plot::save_and_report(scaling_memory_plot(run.points, d, budget_mib), out, "memory_against_n"));
}

// ---- 5a. Grouped-query attention: H query heads share G key/value heads.               (8.11)-(8.13)
double against_multi_head(Rng& rng) {
    std::printf("\n5. Grouped-query attention (8.11)-(8.13), exercise 08.4: H query heads share G key/value heads, query head h\n"
                "   reading key/value head h / (H / G), heads numbered from 0. G = H is chapter 05's multi-head attention, G = 1\n"
                "   is multi-query attention.\n");
    const double difference = multi_head_difference(rng);
    std::printf("   G = H = 4 against chapter 05's multi_head_attention with the same weights (in_proj_weight cut into q_proj,\n"
                "   k_proj and v_proj), a padded key and a causal mask: largest difference %.1e (output and head weights)\n",
                difference);
    return difference;
}

// ---- 5b. The key/value cache: 2 x layers x G x d_h x bytes per number, per token.          (8.14)
void count_the_cache(Summary& summary, const std::filesystem::path& out) {
    const Chapter07Model model = chapter07_default_model(out);
    const CacheShape chapter07{model.decoder_layers, model.heads, model.d_model / model.heads, sizeof(float)};
    const std::uint64_t tokens = 2 * data::toy_max_length;   // the longest source, and as many target words
    std::printf("\n   What a decoder keeps for every token it has seen, per layer and key/value head, is a key and a value\n"
                "   vector (its key/value cache): bytes = 2 x layers x G x d_h x bytes per number x tokens (8.14).\n"
                "   Chapter 07's translation model at its defaults (d_model %llu, %llu heads of d_h = %llu, %llu decoder layers,\n"
                "   float32), per cached token (a source word in a decoder layer's cross-attention cache, or a target word in\n"
                "   its self-attention cache) and for %llu tokens (a %zu-word source and %zu target words):\n"
                "        G   bytes per token   KiB for %llu tokens\n",
                ull(model.d_model), ull(model.heads), ull(chapter07.head_size), ull(chapter07.layers), ull(tokens),
                data::toy_max_length, data::toy_max_length, ull(tokens));
    for (std::uint64_t G = chapter07.heads; G >= 1; G /= 2) {
        const std::uint64_t per_token = cache_bytes_per_token(chapter07, G);
        std::printf("   %6llu   %15llu   %18g\n", ull(G), ull(per_token), double(per_token * tokens) / 1024);
        summary.setting("kv_cache_chapter07_bytes_per_token_g" + std::to_string(G), double(per_token));
    }
    const CacheShape& big = seven_billion_shape;
    const std::uint64_t context = 32768;
    std::printf("   A 7B-parameter model of the shape Llama 2 7B publishes (%llu layers, %llu query heads of d_h = %llu, 16-bit\n"
                "   numbers; Mistral 7B publishes the same shape with G = 8), at %s tokens:\n"
                "        G   KiB per token   GiB for %s tokens\n",
                ull(big.layers), ull(big.heads), ull(big.head_size), with_commas(context).c_str(), with_commas(context).c_str());
    for (const std::uint64_t G : {big.heads, std::uint64_t{8}, std::uint64_t{1}}) {
        const std::uint64_t per_token = cache_bytes_per_token(big, G);
        const double gib = double(per_token * context) / double(1ull << 30);
        std::printf("   %6llu   %13g   %21g\n", ull(G), double(per_token) / 1024, gib);
        summary.setting("kv_cache_7b_gib_g" + std::to_string(G), gib);
    }
}

// ---- 5c. Which query heads read the same keys, seen in their maps. True when the heads with
// equal maps are exactly those of one key/value head, for G = 4, 2 and 1.
bool show_which_heads_share(Summary& summary, const std::filesystem::path& out, Rng& rng) {
    const std::size_t d = 32, heads = 4, n = 8;
    // One layer with G = H, then its key/value heads averaged into fewer (Ainslie et al.'s
    // conversion); every query head gets the same query, so only the keys can set maps apart.
    GroupedQueryAttention<double> four(d, heads, 4, rng), two(d, heads, 2, rng), one(d, heads, 1, rng);
    same_query_for_every_head(four);
    pool_key_value_heads(four, two);
    pool_key_value_heads(four, one);
    // Tokens of size 3 per feature: scores large enough that the maps have something to show.
    const Var<double> x = constant<double>(Array<double>(3.0 * random_tensor(1, n, d, rng)));   // (1, n, d)
    std::printf("\n   Which heads share keys, seen in their weights: a layer of H = %zu query heads (d = %zu, d_h = %zu) and\n"
                "   G = 4, its key/value heads averaged into G = 2 and G = 1, every query head given head 0's query\n"
                "   projection, so two heads draw the same map exactly when they read the same keys; self-attention over %zu\n"
                "   random tokens. Heads with equal maps, measured, against those h / (H / G) puts together:\n",
                heads, d, d / heads, n);
    std::vector<Tensor3<double>> maps;
    std::vector<std::size_t> kv_heads;
    bool as_expected = true;
    for (const GroupedQueryAttention<double>* layer : {&four, &two, &one}) {
        const GroupedQueryOutput<double> r = grouped_query_attention(*layer, x, x, x);   // 08.4
        maps.push_back(xt::view(r.head_weights.value(), 0));                            // (H, n, n)
        kv_heads.push_back(layer->kv_heads());
        const std::vector<std::vector<std::size_t>> measured = heads_with_equal_maps(maps.back(), 1e-12);
        std::vector<std::vector<std::size_t>> expected(layer->kv_heads());
        for (std::size_t h = 0; h < heads; ++h) expected[h / layer->group_size()].push_back(h);
        as_expected = as_expected && measured == expected;
        std::printf("      G = %zu: %-22s (expected %s)\n", layer->kv_heads(), classes_text(measured).c_str(),
                    classes_text(expected).c_str());
    }
    summary.figure(plot::save_and_report(key_sharing_grid(maps, kv_heads), out, "key_sharing"));
    return as_expected;
}

// ---- 6. Generation with and without the key/value cache, on chapter 07's model.        (8.15)
double generate_both_ways(Summary& summary, const std::filesystem::path& out, CachedTranslationModel<float>& model,
                          const ch01::Task& task, bool quick) {
    const std::size_t length = quick ? 32 : 64;
    const std::vector<data::Pair> pairs(task.corpus.test.begin(),
                                        task.corpus.test.begin() + std::min<std::ptrdiff_t>(quick ? 16 : 64, task.corpus.test.size()));
    std::printf("\n   Greedy generation of %zu tokens for each of %zu test sentences side by side (past <eos> too, so that\n"
                "   every sentence reaches every length), through the cache and by chapter 07's decoder, which runs over\n"
                "   the whole prefix again at every step; both fed the same tokens, each step the fastest of 3 runs.\n"
                "   Tokens per second, the two ways, after t tokens per sentence:\n"
                "        t      cached   recomputing   ratio\n",
                length, pairs.size());
    const GenerationSpeed speed = measure_generation(model, task, pairs, length);
    for (std::size_t t = 1; t <= length; t *= 2) {
        const double cached = tokens_per_second(speed, speed.cached_seconds, t);
        const double recomputed = tokens_per_second(speed, speed.recomputed_seconds, t);
        std::printf("   %6zu  %10.0f  %12.0f  %6.1f\n", t, cached, recomputed, cached / recomputed);
    }
    std::printf("   largest difference of the two ways' scores (logits): %.1e, float rounding\n", speed.largest_difference);
    const double cached = tokens_per_second(speed, speed.cached_seconds, length);
    const double recomputed = tokens_per_second(speed, speed.recomputed_seconds, length);
    summary.setting("generation_sentences", static_cast<double>(pairs.size()));
    summary.setting("generation_length", static_cast<double>(length));
    summary.timing("cached_tokens_per_second", "tokens per second through the cache, " + std::to_string(length) + " per sentence", cached);
    summary.timing("recomputed_tokens_per_second", "tokens per second recomputing the prefix, " + std::to_string(length) +
                                                       " per sentence", recomputed);
    summary.timing("cache_speedup", "the cache's tokens per second over recomputing's, " + std::to_string(length) + " per sentence",
                   cached / recomputed);
    summary.figure(plot::save_and_report(generation_speed_plot(speed), out, "tokens_per_second"));
    return speed.largest_difference;
}

// ---- 7. Greedy decoding against beam search, on chapter 07's model.                      (8.16)
void greedy_against_beam(Summary& summary, const std::filesystem::path& out, const Chapter07Translation& chapter07,
                         std::size_t beam_size, double length_penalty, const std::string& sentence) {
    CachedTranslationModel<float>& model = *chapter07.model;
    const ch01::Task& task = chapter07.task;
    const ch01::AppSettings& settings = chapter07.chapter07.settings;
    summary.setting("beam_size", static_cast<double>(beam_size));
    if (beam_size < 2) {
        std::printf("\n7. No beam search: --beam 1 is greedy decoding\n");
    } else {
        const BeamComparison beam = compare_greedy_and_beam(model, task, beam_size, length_penalty, settings.run.quick);
        plot::LinePlot compared = ch01::scores_by_length({{"greedy", &beam.greedy}, {"beam " + std::to_string(beam_size), &beam.beam}},
                                                         "Chapter 08: greedy against beam search (first " +
                                                             std::to_string(beam.pairs.size()) + " test sentences)",
                                                         "source length (tokens)");
        compared.legend = "bottom left";   // four curves, all above the scores of the lower left corner
        summary.figure(plot::save_and_report(compared, out, "greedy_vs_beam"));
        // Ranges only for the search they were measured with: beam 4, no length penalty.
        const bool measured = beam_size == default_beam_size && length_penalty == 0;
        record_beam_comparison(summary, beam, measured ? ch01::ranges_for(expected_ranges(), settings, task) : Ranges{});
    }
    if (sentence.empty()) return;
    std::cout << "\n   Your sentence: " << sentence << "\n";
    if (beam_size < 2) std::cout << "   => " << data::detokenize(ch01::translate_sentence(model, task, sentence), task.corpus.level) << "\n";
    else translate_both_ways(model, task, sentence, beam_size, length_penalty);
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch08",
                    "attention at scale and decoding: the online softmax, exact attention in tiles (FlashAttention's forward "
                    "and its backward by recomputation), their time and memory against n; grouped-query attention and the "
                    "size of the key/value cache; on chapter 07's translation model, decoding through the cache and beam search");
    add_standard_flags(cli, run, chapter_dir);
    // What a laptop with 16 GiB can spare for one attention call, besides its system and browser.
    double budget_gib = 8;
    cli.option("memory-budget", &budget_gib, "GiB part 4's naive attention may use; it is not run at the n that would pass it");
    std::string load, sentence;
    cli.option("load", &load, "parts 6-7: decode the model a run of ./course run 07 --save DIR wrote, instead of training one "
                              "(chapter 07's defaults, or --quick's with --quick)", "DIR");
    int beam_size = static_cast<int>(default_beam_size);
    cli.option("beam", &beam_size, "part 7's beam size, greedy against beam search on the test set (1 skips it)", 1, 64);
    cli.option("translate", &sentence, "part 7: translate this sentence greedily and by beam search", "SENTENCE");
    double length_penalty = 0;
    cli.option("length-penalty", &length_penalty, "part 7: beam search compares log-probability / length^ALPHA (8.17); 0, the "
                                                   "default, compares the totals themselves");
    bool kv_heads_study = false;
    cli.flag("kv-heads-study", &kv_heads_study, "part 8: also train chapter 07's model with fewer key/value heads in its decoder "
                                                "(G = 2 and 1 at its defaults) and score them beside part 6's (two more trainings)");
    if (!parse_chapter_flags(cli, run, argc, argv, chapter_dir, expected_ranges(), /*default_steps=*/0, /*quick_steps=*/0))
        return 0;
    // Past 10, T^alpha leaves every sentence's total behind (1e308 made it infinite, and every
    // hypothesis scored -0): the penalty would only reward length.
    if (!(length_penalty >= 0 && length_penalty <= 10)) {
        char given[32];
        std::snprintf(given, sizeof given, "%.15g", length_penalty);   // 10.0000001, not "10"
        throw UsageError(std::string("--length-penalty must be between 0 and 10 (1 divides by the length), got ") + given,
                         cli.usage());
    }
    if (cli.given("length-penalty") && beam_size < 2)
        throw UsageError("--length-penalty weighs beam search's hypotheses, and --beam 1 turns beam search off: drop one of them",
                         cli.usage());
    if (kv_heads_study && !load.empty())
        throw UsageError("--kv-heads-study compares trainings at part 6's budget, which --load skips: drop one of them", cli.usage());
    // The smallest n's naive pass takes about a MiB, measured before any budget can be judged;
    // below a tenth of a GiB the budget could not be honoured, nor printed as more than 0.0.
    if (!(budget_gib >= 0.1)) {
        char given[32];
        std::snprintf(given, sizeof given, "%.15g", budget_gib);
        throw UsageError(std::string("--memory-budget must be at least 0.1 (GiB), got ") + given, cli.usage());
    }
    // Chapter 07's settings for its model, from its own command line: the same checks, so that
    // a bad --load or --translate is refused now, before any work.
    std::vector<std::string> chapter07_arguments = {"--seed", std::to_string(run.seed), "--out", run.out};
    if (run.quick) chapter07_arguments.push_back("--quick");
    if (cli.given("steps")) chapter07_arguments.insert(chapter07_arguments.end(), {"--steps", std::to_string(run.steps)});
    if (!load.empty()) chapter07_arguments.insert(chapter07_arguments.end(), {"--load", load});
    if (cli.given("translate")) chapter07_arguments.insert(chapter07_arguments.end(), {"--translate", sentence});
    // Its model too, loaded now if --load names one: a checkpoint that does not fit is refused before any work.
    Chapter07Translation chapter07 = load_or_make_chapter07_translation(chapter07_settings(chapter07_arguments));
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 08: attention at scale and decoding (" << code_name(run) << ", seed " << run.seed << ")\n";

    Rng rng(run.seed);
    const double online_difference = read_a_row_in_blocks();
    const ForwardFacts forward = tile_the_scores(summary, out, run.quick, rng);
    const GradientAgreement gradients = recompute_for_gradients(run.quick, rng);
    naive_against_tiled(summary, out, run.quick, budget_gib);
    const double grouped_difference = against_multi_head(rng);
    count_the_cache(summary, out);
    const bool heads_share_as_expected = show_which_heads_share(summary, out, rng);

    // ---- 6-7. Decoding, on chapter 07's translation model.
    train_unless_loaded(chapter07, "\n6. The key/value cache (8.15), exercise 08.5, on chapter 07's translation model:");
    const double cache_difference = generate_both_ways(summary, out, *chapter07.model, chapter07.task, run.quick);
    greedy_against_beam(summary, out, chapter07, static_cast<std::size_t>(beam_size), length_penalty, sentence);
    if (load.empty())
        std::printf("\n   This run took %.0f s, %.0f s of them training chapter 07's model (%.0f s of CPU time).\n",
                    clock.seconds(), chapter07.train_seconds, chapter07.train_cpu_seconds);
    else
        std::printf("\n   This run took %.0f s; chapter 07's model was loaded from %s, not trained.\n", clock.seconds(),
                    load.c_str());
    // ---- 8. Chapter 07's model with fewer key/value heads, behind a flag: two more trainings.
    if (kv_heads_study) {
        const Stopwatch study;
        study_key_value_heads(chapter07, summary, ch01::ranges_for(expected_ranges(), chapter07.chapter07.settings, chapter07.task));
        std::printf("   The study took %.0f s more.\n", study.seconds());
    } else {
        mention_key_value_heads_study();
    }

    // Exact facts, not measurements: a correct implementation lands inside whatever the seed.
    summary.metric("online_softmax_difference", "online softmax vs chapter 00's, largest difference", online_difference,
                   0.0, 1e-15);
    summary.metric("tiled_forward_difference", "tiled vs chapter 03's attention, largest difference",
                   std::max({forward.plain, forward.causal, forward.padded}), 0.0, 1e-12);
    summary.metric("tiled_gradient_error", "tiled dQ, dK, dV vs the autodiff's, largest relative error",
                   std::max({gradients.dQ, gradients.dK, gradients.dV}), 0.0, 1e-10);
    summary.metric("grouped_query_difference", "grouped-query (G = H) vs chapter 05's multi-head, largest difference",
                   grouped_difference, 0.0, 1e-12);
    summary.metric("heads_share_as_expected", "query heads with equal maps are those of one key/value head (1 = yes)",
                   heads_share_as_expected ? 1.0 : 0.0, 1.0, 1.0);
    // float32 scores of size ~10 added in another order: rounding, far below a mistake's O(1).
    summary.metric("cache_difference", "cached vs recomputed decoding, largest difference of the scores", cache_difference,
                   0.0, 1e-3);
    summary.setting("loaded", load.empty() ? std::string("no") : load);
    if (load.empty())   // a loaded model's steps are not in its checkpoint
        summary.setting("chapter07_steps", static_cast<double>(chapter07.chapter07.settings.run.steps));
    if (load.empty()) summary.timing("train_cpu_seconds", "CPU seconds training chapter 07's model", chapter07.train_cpu_seconds);
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch08", [&] { return run(argc, argv); });
}
