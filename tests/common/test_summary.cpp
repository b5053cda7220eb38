// summary.json: valid JSON text, metrics judged against their ranges, written atomically.
#include "common/files.hpp"
#include "common/plot.hpp"
#include "common/summary.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <unistd.h>

TEST_CASE("summary: JSON strings and numbers are escaped" * doctest::test_suite("common")) {
    CHECK(attn::json_string("a \"quoted\" \\ path\n") == "\"a \\\"quoted\\\" \\\\ path\\n\"");
    CHECK(attn::json_string("é年") == "\"é年\"");
    // Bytes that are not UTF-8 (a file name in Latin-1, a cut character) become U+FFFD.
    CHECK(attn::json_string("non\xffutf8") == "\"non\\ufffdutf8\"");
    CHECK(attn::json_string("cut \xe5\xb9") == "\"cut \\ufffd\\ufffd\"");
    CHECK(attn::json_number(0.5) == "0.5");
    CHECK(attn::json_number(std::nan("")) == "null");
}

TEST_CASE("summary: metrics are judged against their ranges and written to summary.json" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_summary_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    attn::RunSettings settings;
    settings.seed = 12345678901;
    attn::Summary summary("99_test", settings);
    summary.setting("task", "copy");
    summary.metric("accuracy", "accuracy", 0.97, 0.95, 1.0);
    CHECK(summary.all_in_range());
    summary.metric("bleu", "BLEU", 0.5, 0.9, 1.0);
    CHECK_FALSE(summary.all_in_range());
    summary.metric("speed", "steps per second", 12.0);   // no range: never out of it
    summary.timing("slope", "log-log time slope", 7.5);   // a timing: shown, never judged
    std::ostringstream printed;
    std::streambuf* const saved = std::cout.rdbuf(printed.rdbuf());
    const std::filesystem::path written = summary.finish(dir, 1.5);
    std::cout.rdbuf(saved);
    CHECK(printed.str().find("7.5      (a timing: shown, not judged; it moves with the machine's load)") != std::string::npos);
    CHECK(printed.str().find("12      (no reference range for these settings)") != std::string::npos);
    CHECK(printed.str().find("0.5  OUT (a correct implementation: 0.9 to 1)") != std::string::npos);
    const std::string json = attn::read_text(written);
    CHECK(json.find("\"chapter\": \"99_test\"") != std::string::npos);
    CHECK(json.find("\"task\": \"copy\"") != std::string::npos);
    CHECK(json.find("\"seed\": 12345678901,") != std::string::npos);   // every digit, not 1.23456789e+10
    CHECK(json.find("\"accuracy\": {\"value\": 0.97, \"expected_min\": 0.95, \"expected_max\": 1, \"in_range\": true}") !=
          std::string::npos);
    CHECK(json.find("\"all_in_range\": false") != std::string::npos);
    CHECK(json.find("\"speed\": {\"value\": 12, \"expected_min\": null, \"expected_max\": null, \"in_range\": null}") !=
          std::string::npos);
    // A timing says so, for the report's table ("a timing: shown, not judged").
    CHECK(json.find("\"slope\": {\"value\": 7.5, \"expected_min\": null, \"expected_max\": null, \"in_range\": null, "
                    "\"timing\": true}") != std::string::npos);
    const attn::SavedSummary back(written);
    CHECK(back.text("task") == "copy");
    CHECK(back.number("accuracy") == 0.97);
    CHECK(back.number("bleu") == 0.5);
    CHECK(back.number("seconds") == 1.5);
    CHECK_FALSE(back.has("metrics"));
    // Nothing but summary.json and the report are left: the temporary files were renamed into place.
    CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 2);
    std::filesystem::remove_all(dir);
}

TEST_CASE("summary: a run into an old folder leaves only its own figures, and the learner's files" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_earlier_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    // An earlier run's figure (its script carries the plot module's header, naming the script), a
    // figure of this run, and a learner's own scripts and pictures.
    attn::plot::LinePlot plot;
    plot.title = "loss";
    plot.series = {{"train", {0, 1}, {2, 1}, false}};
    attn::plot::save(plot, dir, "this_run");
    const std::string old_header = "# A line plot, written by attn::plot (common/plot_*.cpp).\n"
                                   "# Edit freely, then re-render from this folder with:  gnuplot old_curve.gp\n";
    attn::write_text_atomically(dir / "old_curve.gp", old_header + "plot x\n");
    // The learner's copy of an earlier figure, header and all, under a name of their own; and a
    // copy whose every mention of the old name was replaced (its header names it).
    attn::write_text_atomically(dir / "my_version.gp", old_header + "plot x**2\n");
    attn::write_text_atomically(dir / "my_version.png", "the learner's picture");
    std::string renamed = old_header + "plot 'old_curve.dat'\n";
    for (std::size_t at; (at = renamed.find("old_curve")) != std::string::npos;) renamed.replace(at, 9, "renamed");
    attn::write_text_atomically(dir / "renamed.gp", renamed);
    attn::write_text_atomically(dir / "renamed.png", "the learner's other picture");
    // The record of the figures runs drew in this folder (the earlier run drew old_curve).
    attn::write_text_atomically(dir / ".figures-drawn-by-attn", "old_curve\nthis_run\n");
    attn::write_text_atomically(dir / "old_curve.png", "an old picture");
    attn::write_text_atomically(dir / "old_curve.dat", "0 1\n");
    attn::write_text_atomically(dir / "mine.gp", "# my own plot\nplot sin(x)\n");
    attn::write_text_atomically(dir / "mine.png", "my picture");
    attn::write_text_atomically(dir / "report.html", "the last run's page");
    attn::RunSettings settings;
    attn::Summary summary("99_test", settings);
    summary.metric("accuracy", "accuracy", 0.97, 0.95, 1.0);
    summary.finish(dir, 1.0);
    for (const char* gone : {"old_curve.gp", "old_curve.png", "old_curve.dat"}) CHECK_FALSE(std::filesystem::exists(dir / gone));
    for (const char* kept : {"this_run.gp", "this_run.dat", "mine.gp", "mine.png", "my_version.gp", "my_version.png",
                             "renamed.gp", "renamed.png"})
        CHECK(std::filesystem::exists(dir / kept));
    CHECK(attn::read_text(dir / "report.html").find("the last run's page") == std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("plot: a run's first figure removes the earlier runs' figures, so a run cut short leaves no mixture" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_first_figure_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const auto header = [](const std::string& name) {
        return "# A line plot, written by attn::plot (common/plot_*.cpp).\n"
               "# Edit freely, then re-render from this folder with:  gnuplot " + name + ".gp\n";
    };
    // An earlier run's figures (written an hour ago, and in the folder's record), one of them
    // named like this run's figure.
    attn::write_text_atomically(dir / ".figures-drawn-by-attn", "attention_old\ncurve\n");
    const auto an_hour_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
    for (const std::string name : {"attention_old", "curve"})
        for (const std::string extension : {".gp", ".png", ".dat", "_grid.dat"}) {   // _grid.dat: named in the script
            const std::filesystem::path file = dir / (name + extension);
            attn::write_text_atomically(file, extension == ".gp" ? header(name) + "plot '" + name + "_grid.dat'\n" : "earlier run");
            std::filesystem::last_write_time(file, an_hour_ago);
        }
    attn::plot::LinePlot plot;
    plot.title = "loss";
    plot.series = {{"train", {0, 1}, {2, 1}, false}};
    attn::plot::save(plot, dir, "curve");   // this run's first figure; no summary is written (a run cut short)
    for (const char* gone : {"attention_old.gp", "attention_old.png", "attention_old.dat", "attention_old_grid.dat"})
        CHECK_FALSE(std::filesystem::exists(dir / gone));
    CHECK(attn::read_text(dir / "curve.dat") != "earlier run");   // this run's own figure stays whole
    CHECK(attn::read_text(dir / "curve.gp").find("curve_grid.dat") == std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("summary: reading a missing or null key throws an error naming the file and the key" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_summary_missing_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    attn::RunSettings settings;
    attn::Summary summary("99_test", settings);
    summary.setting("loss", std::nan(""));   // recorded as null
    summary.setting("name", "abc");
    summary.metric("bleu", "BLEU", std::nan(""));
    const std::filesystem::path written = summary.finish(dir, 1.0);
    const attn::SavedSummary back(written);
    CHECK_FALSE(back.has("loss"));
    CHECK_FALSE(back.has("absent"));
    CHECK_THROWS_WITH_AS(back.number("absent"), doctest::Contains("no \"absent\""), attn::InputError);
    CHECK_THROWS_WITH_AS(back.number("absent"), doctest::Contains(written.string().c_str()), attn::InputError);
    CHECK_THROWS_WITH_AS(back.number("loss"), doctest::Contains("\"loss\" is null"), attn::InputError);
    CHECK_THROWS_WITH_AS(back.number("bleu"), doctest::Contains("\"bleu\" is null"), attn::InputError);
    CHECK_THROWS_WITH_AS(back.number("name"), doctest::Contains("not a number"), attn::InputError);
    CHECK_THROWS_AS(attn::SavedSummary(dir / "no_such.json"), attn::InputError);
    std::filesystem::remove_all(dir);
}

TEST_CASE("summary: a range table is looked up by settings and printed as markdown" * doctest::test_suite("common")) {
    const attn::RangeTable table = {{"bleu", "copy", 0.8, 1.0, 0.01}, {"bleu", "copy --quick", 0.3, 0.6, 0.02}};
    const attn::Ranges quick = attn::rows_for(table, "copy --quick");
    REQUIRE(quick.size() == 1);
    CHECK(quick.at("bleu").lo == 0.3);
    CHECK(attn::rows_for(table, "other").empty());
    const std::string markdown = attn::ranges_markdown(table);
    CHECK(markdown.find("| metric | settings | range | untrained model |") == 0);
    CHECK(markdown.find("| bleu | copy --quick | 0.3 to 0.6 | 0.02 |") != std::string::npos);
}

TEST_CASE("files: a file that cannot be written gives an error naming it" * doctest::test_suite("common")) {
    CHECK_THROWS_WITH_AS(attn::read_text("/no/such/file.txt"), doctest::Contains("/no/such/file.txt"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::write_text_atomically("/proc/attn_cannot_write/x.json", "{}"),
                         doctest::Contains("/proc/attn_cannot_write"), std::runtime_error);
}

TEST_CASE("summary: a --mine run's page sets the reference run's numbers beside its own only at the same settings" *
          doctest::test_suite("common")) {
    const std::filesystem::path reference_dir = attn::course_root() / "out" / "99_test";
    const std::filesystem::path mine_dir = std::filesystem::temp_directory_path() / ("attn_test_like_" + std::to_string(::getpid()));
    const auto run = [](const std::string& variant, int steps, bool quick, const std::filesystem::path& dir) {
        attn::RunSettings settings;
        settings.variant = variant;
        settings.steps = steps;
        settings.quick = quick;
        attn::Summary summary("99_test", settings);
        summary.setting("final_loss", variant == "mine" ? 0.5 : 0.25);   // a result, not a setting: may differ
        summary.metric("accuracy", "accuracy", 0.97, 0.95, 1.0);
        summary.finish(dir, 1.0);
        return attn::read_text(dir / "report.html");
    };
    std::filesystem::remove_all(reference_dir);
    const std::string alone = run("mine", 300, true, mine_dir);   // no reference run: the page says how to add one
    CHECK(alone.find("No reference run in out/99_test/ to set beside these numbers") != std::string::npos);
    run("reference", 3000, false, reference_dir);
    const std::string other = run("mine", 300, true, mine_dir);
    CHECK(other.find("No reference run") == std::string::npos);
    CHECK(other.find("had other settings (steps 3000 against 300 here, quick false against true here)") != std::string::npos);
    CHECK(other.find("<script type=\"application/json\" id=\"reference-data\"></script>") != std::string::npos);
    run("reference", 300, true, reference_dir);
    const std::string same = run("mine", 300, true, mine_dir);
    CHECK(same.find("had other settings") == std::string::npos);
    CHECK(same.find("with the same settings") != std::string::npos);
    CHECK(same.find("<script type=\"application/json\" id=\"reference-data\"></script>") == std::string::npos);
    std::filesystem::remove_all(reference_dir);
    std::filesystem::remove_all(mine_dir);
}
