// summary.json: valid JSON text, metrics judged against their ranges, written atomically.
#include "common/files.hpp"
#include "common/summary.hpp"

#include <doctest/doctest.h>

#include <filesystem>

TEST_CASE("summary: JSON strings and numbers are escaped" * doctest::test_suite("common")) {
    CHECK(attn::json_string("a \"quoted\" \\ path\n") == "\"a \\\"quoted\\\" \\\\ path\\n\"");
    CHECK(attn::json_string("é年") == "\"é年\"");
    CHECK(attn::json_number(0.5) == "0.5");
    CHECK(attn::json_number(std::nan("")) == "null");
}

TEST_CASE("summary: metrics are judged against their ranges and written to summary.json" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attn_test_summary";
    std::filesystem::remove_all(dir);
    attn::RunSettings settings;
    attn::Summary summary("99_test", settings);
    summary.setting("task", "copy");
    summary.metric("accuracy", "accuracy", 0.97, 0.95, 1.0);
    CHECK(summary.all_in_range());
    summary.metric("bleu", "BLEU", 0.5, 0.9, 1.0);
    CHECK_FALSE(summary.all_in_range());
    summary.metric("speed", "steps per second", 12.0);   // no range: never out of it
    const std::filesystem::path written = summary.finish(dir, 1.5);
    const std::string json = attn::read_text(written);
    CHECK(json.find("\"chapter\": \"99_test\"") != std::string::npos);
    CHECK(json.find("\"task\": \"copy\"") != std::string::npos);
    CHECK(json.find("\"accuracy\": {\"value\": 0.97, \"expected_min\": 0.95, \"expected_max\": 1, \"in_range\": true}") !=
          std::string::npos);
    CHECK(json.find("\"all_in_range\": false") != std::string::npos);
    CHECK(json.find("\"speed\": {\"value\": 12, \"expected_min\": null, \"expected_max\": null, \"in_range\": null}") !=
          std::string::npos);
    const std::map<std::string, std::string> back = attn::read_summary(written);
    CHECK(back.at("task") == "copy");
    CHECK(back.at("accuracy") == "0.97");
    CHECK(back.at("bleu") == "0.5");
    CHECK(back.at("seconds") == "1.5");
    CHECK(back.count("metrics") == 0);
    // Nothing but summary.json is left: the temporary file was renamed into place.
    CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("files: a file that cannot be written gives an error naming it" * doctest::test_suite("common")) {
    CHECK_THROWS_WITH_AS(attn::read_text("/no/such/file.txt"), doctest::Contains("/no/such/file.txt"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::write_text_atomically("/proc/attn_cannot_write/x.json", "{}"),
                         doctest::Contains("/proc/attn_cannot_write"), std::runtime_error);
}
