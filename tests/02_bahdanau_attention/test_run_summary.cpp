// summary.json between chapters: what chapter 01 writes, chapter 02 reads back unchanged,
// empty length buckets stay "no score" rather than 0, and each chapter has its own table of
// expected results, every range above what an untrained model scores.
#include "chapters/01_encoder_decoder/expected_ranges.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "chapters/02_bahdanau_attention/expected_ranges.hpp"
#include "common/files.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

namespace {

attn::ch01::Task task_with_buckets(std::vector<std::size_t> edges) {
    attn::ch01::Task task;
    task.name = "translation";
    task.bucket_edges = std::move(edges);
    return task;
}

}  // namespace

TEST_CASE("run summary: what write_run records, read_run reads back; an empty bucket has no scores" *
          doctest::test_suite("ch02.summary")) {
    const attn::ch01::Task task = task_with_buckets({10, 20});
    attn::ch01::RunRecord run;
    run.settings = {{"task", "translation"}, {"data", "none"}, {"variant", "reference"}, {"seed", "42"},
                    {"steps", "120"}, {"quick", "false"}, {"hidden", "16"}};
    run.steps = 120;
    run.train_seconds = 3.5;
    run.test.count = 7;
    run.test.overall = {0.6, 0.7, 0.25};
    run.test.buckets = {{"1-10", 7, {0.6, 0.7, 0.25}}, {"11-20", 0, {}}};
    attn::RunSettings run_settings;
    run_settings.steps = 120;
    attn::Summary summary("01_encoder_decoder", run_settings);
    attn::ch01::write_run(summary, run, {});
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_run_summary_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const std::filesystem::path written = summary.finish(dir, 4.0);

    CHECK(attn::ch01::has_run(written, run.settings));
    std::map<std::string, std::string> other = run.settings;
    other["hidden"] = "32";
    CHECK_FALSE(attn::ch01::has_run(written, other));
    CHECK_FALSE(attn::ch01::has_run(dir / "absent.json", run.settings));

    const attn::ch01::RunRecord back = attn::ch01::read_run(written, task);
    CHECK(back.steps == 120);
    CHECK(back.train_seconds == 3.5);
    CHECK(back.test.count == 7);
    CHECK(back.test.overall.exact_match == 0.25);
    REQUIRE(back.test.buckets.size() == 2);
    CHECK(back.test.buckets[0].label == "1-10");
    CHECK(back.test.buckets[0].count == 7);
    CHECK(back.test.buckets[0].scores.token_accuracy == 0.7);
    CHECK(back.test.buckets[1].count == 0);
    const std::string json = attn::read_text(written);
    CHECK(json.find("test_bleu_11-20") == std::string::npos);   // no made-up BLEU 0 for the empty bucket
    CHECK(json.find("\"test_count_11-20\": 0") != std::string::npos);

    // A summary lacking a bucket the reader needs is an error naming the key, not a 0.
    CHECK_THROWS_WITH_AS(attn::ch01::read_run(written, task_with_buckets({10, 20, 30})),
                         doctest::Contains("test_count_21-30"), attn::InputError);
    std::filesystem::remove_all(dir);
}

TEST_CASE("run summary: the training's CPU time is read back where recorded, 0 where not" *
          doctest::test_suite("ch02.summary")) {
    const attn::ch01::Task task = task_with_buckets({10});
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_run_summary_cpu_" + std::to_string(::getpid()));
    for (const double cpu_seconds : {0.0, 2.5}) {
        attn::ch01::RunRecord run;
        run.settings = {{"task", "translation"}, {"data", "none"}, {"variant", "reference"}, {"seed", "42"},
                        {"steps", "120"}, {"quick", "false"}};
        run.steps = 120;
        run.train_seconds = 3.5;
        run.train_cpu_seconds = cpu_seconds;
        run.test.count = 1;
        run.test.buckets = {{"1-10", 1, {1, 1, 1}}};
        attn::RunSettings run_settings;
        run_settings.steps = 120;
        attn::Summary summary("01_encoder_decoder", run_settings);
        attn::ch01::write_run(summary, run, {});
        std::filesystem::remove_all(dir);
        const std::filesystem::path written = summary.finish(dir, 4.0);
        CHECK(attn::ch01::read_run(written, task).train_cpu_seconds == cpu_seconds);
        CHECK((attn::read_text(written).find("train_cpu_seconds") != std::string::npos) == (cpu_seconds > 0));
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("expected ranges: each chapter has its own table, every range above the untrained model" *
          doctest::test_suite("ch02.summary")) {
    const attn::RangeTable &chapter01 = attn::ch01::expected_ranges(), &chapter02 = attn::ch02::expected_ranges();
    const attn::Ranges translation01 = attn::rows_for(chapter01, "translation"), translation02 = attn::rows_for(chapter02, "translation");
    REQUIRE(translation01.count("test_bleu") == 1);
    REQUIRE(translation02.count("test_bleu") == 1);
    CHECK(translation01.at("test_bleu").lo < translation02.at("test_bleu").lo);   // attention does better: not one shared table
    CHECK(translation02.count("longest_bucket_ratio") == 1);                       // a number only chapter 02 has
    CHECK(translation01.count("longest_bucket_ratio") == 0);
    for (const attn::RangeTable* table : {&chapter01, &chapter02})
        for (const attn::ExpectedRange& row : *table) {
            CAPTURE(row.metric);
            CAPTURE(row.settings);
            CHECK(row.lo > row.untrained);
            CHECK(row.lo <= row.hi);
        }
    for (const std::string settings : {"translation", "translation --quick", "dates", "dates --quick"}) {
        CAPTURE(settings);
        CHECK(attn::rows_for(chapter01, settings).count("test_bleu") == 1);
        CHECK(attn::rows_for(chapter02, settings).count("test_bleu") == 1);
    }
}
