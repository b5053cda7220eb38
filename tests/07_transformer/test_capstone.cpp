// Part 10, the capstone: chapters 01 and 02 are compared at the settings their own programs run
// with by default, whatever flags chapter 07 was given, so that their saved runs are found; the
// capstone applies to the toy translation only.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/02_bahdanau_attention/budget.hpp"
#include "chapters/07_transformer/capstone.hpp"
#include "chapters/07_transformer/recipes.hpp"
#include "chapters/07_transformer/transformer_flags.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace attn;

namespace {

// The settings a chapter's program ends up with for these flags, parsed as its main() does
// (`transformer`: with chapter 07's flags too). A program named "..._mine" runs the learner's code.
ch01::AppSettings parsed(const std::string& program, const std::string& chapter_dir, const ch01::Recipes& recipes,
                         std::vector<std::string> flags, bool transformer) {
    ch01::AppSettings settings;
    ch07::TransformerFlags transformer_flags;
    CommandLine cli(program, "test");
    ch01::add_seq2seq_flags(cli, settings, chapter_dir, recipes);
    if (transformer) ch07::add_transformer_flags(cli, settings, transformer_flags);
    flags.insert(flags.begin(), program);
    std::vector<const char*> argv;
    for (const std::string& flag : flags) argv.push_back(flag.c_str());
    REQUIRE(cli.parse(static_cast<int>(argv.size()), argv.data()));
    ch01::finish_seq2seq_flags(cli, settings, chapter_dir, recipes);
    if (transformer) ch07::finish_transformer_flags(cli, settings, transformer_flags);
    return settings;
}

}  // namespace

TEST_CASE("capstone: chapters 01 and 02 at the settings of their own default runs, whatever chapter 07's flags" *
          doctest::test_suite("ch07.capstone")) {
    ch01::Task task;
    task.name = "translation";
    for (const std::string variant : {"", "_mine"})
        for (const bool quick : {false, true}) {
            CAPTURE(variant);
            CAPTURE(quick);
            std::vector<std::string> common = {"--seed", "7"};
            if (quick) common.push_back("--quick");
            std::vector<std::string> ours = common;   // flags that change chapter 07's run, not the others'
            for (const char* flag : {"--lr", "0.001", "--steps", "50", "--batch", "32", "--embedding", "128", "--warmup", "10"})
                ours.push_back(flag);
            const ch01::AppSettings ch07 = parsed("ch07" + variant, "07_transformer", ch07::chapter07_recipes, ours, true);
            const ch01::AppSettings ch01 = parsed("ch01" + variant, "01_encoder_decoder", ch01::chapter01_recipes, common, false);
            const ch01::AppSettings ch02 = parsed("ch02" + variant, "02_bahdanau_attention", ch02::chapter02_recipes, common, false);
            // decisive_settings is what a saved summary.json is matched on.
            CHECK(ch01::decisive_settings(ch07::default_settings(ch01::chapter01_recipes, ch07), task) ==
                  ch01::decisive_settings(ch01, task));
            CHECK(ch01::decisive_settings(ch07::default_settings(ch02::chapter02_recipes, ch07), task) ==
                  ch01::decisive_settings(ch02, task));
            CHECK(ch07::default_settings(ch01::chapter01_recipes, ch07).run.variant == (variant.empty() ? "reference" : "mine"));
        }
}

TEST_CASE("capstone: only on the toy translation" * doctest::test_suite("ch07.capstone")) {
    ch01::AppSettings settings;
    CHECK(ch07::capstone_applies(settings));
    settings.task = "dates";
    CHECK_FALSE(ch07::capstone_applies(settings));
    settings.task = "translation";
    settings.data = "corpus.tsv";
    CHECK_FALSE(ch07::capstone_applies(settings));
}
