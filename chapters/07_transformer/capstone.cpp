// Part 8: chapters 01, 02 and 07 on the same data (see capstone.hpp).
#include "chapters/07_transformer/capstone.hpp"

#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "chapters/02_bahdanau_attention/budget.hpp"
#include "common/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

namespace attn::ch07 {

namespace {

const std::string chapter01_dir = "01_encoder_decoder", chapter02_dir = "02_bahdanau_attention";

// What training an earlier chapter's model here costs, said before doing it: its chapter's
// recipes are sized for about three minutes on two cores; with --quick, chapter 01's took 28 s
// of CPU time and chapter 02's 45 s (measured on the course's two-core machine).
std::string training_cost(const ch01::AppSettings& chapter) {
    return std::to_string(chapter.run.steps) + " steps, " +
           (chapter.run.quick ? "under a minute" : "about three minutes on two cores, as long as its own chapter's run");
}

// An earlier chapter's entry: its saved run, or its model trained here on its default settings.
template <class Model>
CapstoneEntry earlier_entry(const std::string& name, const std::string& chapter_dir, const ch01::Recipes& recipes,
                            const std::optional<ch01::SavedRun>& saved, const ch01::AppSettings& settings,
                            const ch01::Task& task) {
    const ch01::AppSettings chapter = default_settings(recipes, settings);
    Rng rng(settings.run.seed);
    Model model(ch01::model_sizes(chapter, task), rng);   // made even when saved: its size goes in the table
    if (saved) return {name, model.parameter_count(), *saved};
    return {name, model.parameter_count(), ch01::train_missing_run(model, chapter_dir, chapter, task, training_cost(chapter))};
}

const ch01::BucketScores& longest(const CapstoneEntry& entry) { return entry.result.run.test.buckets.back(); }

// "3400 steps, 171 s, CPU 150 s" for the legend (the CPU time where the run recorded it);
// "loaded" for a model that was not trained in its run.
std::string budget(const ch01::RunRecord& run) {
    if (run.steps == 0) return "loaded";
    char text[80];
    std::snprintf(text, sizeof text, "%d steps, %.0f s", run.steps, run.train_seconds);
    std::string label = text;
    if (run.train_cpu_seconds > 0) {
        std::snprintf(text, sizeof text, ", CPU %.0f s", run.train_cpu_seconds);
        label += text;
    }
    return label;
}

void print_scores(const std::vector<CapstoneEntry>& entries) {
    std::printf("    %-22s %10s %6s %7s %11s %7s\n", "model", "parameters", "steps", "BLEU",
                ("BLEU " + longest(entries.front()).label).c_str(), "exact");
    for (const CapstoneEntry& entry : entries) {
        const ch01::RunRecord& run = entry.result.run;
        char longest_bleu[16] = "n/a";   // no test sentence that long
        if (longest(entry).count > 0) std::snprintf(longest_bleu, sizeof longest_bleu, "%.3f", longest(entry).scores.bleu);
        std::printf("    %-22s %10zu %6d %7.3f %11s %7.3f\n", entry.name.c_str(), entry.parameters, run.steps,
                    run.test.overall.bleu, longest_bleu, run.test.overall.exact_match);
    }
}

// Wall-clock time says what the learner waited; CPU time, where the run recorded it, what a
// quiet machine would take (the course's machines are often shared).
void print_times(const std::vector<CapstoneEntry>& entries) {
    std::cout << "   time to train (wall clock; CPU time where the run recorded it):\n";
    for (const CapstoneEntry& entry : entries) {
        const ch01::RunRecord& run = entry.result.run;
        std::printf("     %-22s ", entry.name.c_str());
        if (run.steps == 0) {
            std::printf("loaded, not trained in its run\n");
            continue;
        }
        std::printf("%d steps in %.0f s (%.1f steps/s)", run.steps, run.train_seconds, run.steps / std::max(run.train_seconds, 1e-9));
        if (run.train_cpu_seconds > 0) std::printf(", %.0f s of CPU time", run.train_cpu_seconds);
        std::printf("\n");
    }
}

plot::LinePlot bleu_by_length(const std::vector<CapstoneEntry>& entries) {
    plot::LinePlot figure;
    figure.title = "Chapters 01, 02 and 07 on the same test set: BLEU by source length";
    figure.xlabel = "source length (words)";
    figure.ylabel = "BLEU on the test set";
    figure.y_min = 0.0;
    figure.y_max = 1.05;
    figure.legend = "below";   // the lines fill the corners: near 1, and falling towards 0
    for (const CapstoneEntry& entry : entries) {
        plot::Series bleu{entry.name + " (" + budget(entry.result.run) + ")", {}, {}, false, true};
        const std::vector<ch01::BucketScores>& buckets = entry.result.run.test.buckets;
        for (std::size_t k = 0; k < buckets.size(); ++k) {
            if (figure.x_tick_labels.size() <= k) figure.x_tick_labels.push_back(buckets[k].label);
            if (buckets[k].count == 0) continue;
            bleu.x.push_back(static_cast<double>(k));
            bleu.y.push_back(buckets[k].scores.bleu);
        }
        figure.series.push_back(bleu);
    }
    return figure;
}

// An earlier chapter's numbers, as settings of this run: "chapter01_test_bleu", ...
void record(Summary& summary, const std::string& prefix, const CapstoneEntry& entry) {
    const ch01::RunRecord& run = entry.result.run;
    summary.setting(prefix + "source", entry.result.origin);
    summary.setting(prefix + "parameters", static_cast<double>(entry.parameters));
    summary.setting(prefix + "steps", run.steps);
    summary.setting(prefix + "train_seconds", run.train_seconds);
    if (run.train_cpu_seconds > 0) summary.setting(prefix + "train_cpu_seconds", run.train_cpu_seconds);
    summary.setting(prefix + "test_bleu", run.test.overall.bleu);
    if (longest(entry).count > 0) summary.setting(prefix + "longest_bucket_bleu", longest(entry).scores.bleu);
    summary.setting(prefix + "test_exact_match", run.test.overall.exact_match);
}

}  // namespace

bool capstone_applies(const ch01::AppSettings& settings) { return settings.task == "translation" && settings.data.empty(); }

ch01::AppSettings default_settings(const ch01::Recipes& recipes, const ch01::AppSettings& settings) {
    ch01::AppSettings chapter;   // the default sizes and batch
    chapter.run = settings.run;  // seed, --quick, --mine, threads
    chapter.task = settings.task;
    const ch01::Recipe& recipe = ch01::recipe_for(recipes, chapter.task, false, chapter.run.quick);
    chapter.run.steps = recipe.steps;
    chapter.lr = recipe.lr;
    chapter.lr_end = recipe.lr_end;
    chapter.warmup = recipe.warmup;
    chapter.label_smoothing = recipe.label_smoothing;
    chapter.embedding = 64;   // finish_seq2seq_flags's default for word-level tasks
    chapter.measured_defaults = true;
    return chapter;
}

EarlierRuns find_earlier_runs(const ch01::AppSettings& settings, const ch01::Task& task) {
    if (!capstone_applies(settings)) return {};
    return {ch01::find_saved_run(chapter01_dir, default_settings(ch01::chapter01_recipes, settings), task),
            ch01::find_saved_run(chapter02_dir, default_settings(ch02::chapter02_recipes, settings), task)};
}

void report_capstone(const EarlierRuns& saved, const CapstoneEntry& transformer, const ch01::AppSettings& settings,
                     const ch01::Task& task, Summary& summary) {
    std::cout << "\n8. The capstone: chapters 01, 02 and 07 on the same " << task.corpus.test.size()
              << " test sentences, each trained on its own chapter's "
              << (settings.run.quick ? "--quick recipe\n   (budgets of seconds, and a smaller Transformer: not the comparison of the default runs)\n"
                                     : "default recipe\n");
    const std::vector<CapstoneEntry> entries = {
        earlier_entry<ch01::ContextSeq2Seq<float>>("01 context vector", chapter01_dir, ch01::chapter01_recipes,
                                                   saved.chapter01, settings, task),
        earlier_entry<ch02::BahdanauSeq2Seq<float>>("02 Bahdanau attention", chapter02_dir, ch02::chapter02_recipes,
                                                    saved.chapter02, settings, task),
        transformer};
    print_scores(entries);
    print_times(entries);
    std::cout << "   where the numbers come from:\n";
    for (const CapstoneEntry& entry : entries) std::printf("     %-22s %s\n", entry.name.c_str(), entry.result.origin.c_str());
    summary.figure(plot::save_and_report(bleu_by_length(entries), settings.run.out, "capstone"));
    record(summary, "chapter01_", entries[0]);
    record(summary, "chapter02_", entries[1]);
    summary.setting("parameters", static_cast<double>(transformer.parameters));
}

}  // namespace attn::ch07
