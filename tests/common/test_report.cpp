// report.html: the page embeds the very text of summary.json and the recorded weights, inlines
// its figures, fetches nothing, and is written atomically beside summary.json.
#include "common/files.hpp"
#include "common/summary.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

namespace {

// The text of the page's data element (<script type="application/json" id="report-data">).
std::string embedded_data(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"report-data\">";
    const std::size_t start = page.find(open);
    REQUIRE(start != std::string::npos);
    const std::size_t end = page.find("</script>", start);
    REQUIRE(end != std::string::npos);
    return page.substr(start + open.size(), end - start - open.size());
}

attn::plot::Heatmap two_by_two(const std::string& title, double a, double b) {
    attn::plot::Heatmap map;
    map.title = title;
    map.xlabel = "source";
    map.ylabel = "output";
    map.values = {{a, 1 - a}, {b, 1 - b}};
    map.x_tick_labels = {"le", "chat"};
    map.y_tick_labels = {"the", "cat"};
    return map;
}

}  // namespace

TEST_CASE("report: the page embeds summary.json's text, the weights and the figures; it fetches nothing" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_report_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    attn::write_text_atomically(dir / "tiny.svg", "<svg/>");
    attn::plot::Files figure;
    figure.script = dir / "tiny.gp";
    figure.svg = dir / "tiny.svg";
    figure.rendered = true;

    attn::RunSettings settings;
    attn::Summary summary("99_test", settings);
    summary.metric("bleu", "BLEU </script> of the test set", 0.5, 0.25, 0.75);
    summary.figure(figure);
    summary.attention(two_by_two("one map", 0.25, 0.875), {"sentence 1", "cross", 1, 1, "the cat"});
    attn::plot::HeatmapGrid grid;
    grid.title = "two heads";
    grid.panels = {two_by_two("head 1", 0.5, 0.5), two_by_two("head 2", 0.125, 0.0625)};
    summary.attention(grid, {"sentence 2", "encoder self", 3});
    const std::string json = attn::read_text(summary.finish(dir, 2.0));
    const std::string page = attn::read_text(dir / "report.html");
    const std::string data = embedded_data(page);

    // One writer: summary.json's text is inside the page as it is, not rebuilt.
    CHECK(data.find("\"summary\": " + json) != std::string::npos);
    // The weights as recorded, row by row, with each map's place among examples, layers and heads.
    CHECK(data.find("\"example\": \"sentence 1\", \"kind\": \"cross\", \"layer\": 1, \"head\": 1") != std::string::npos);
    CHECK(data.find("\"weights\": [[0.25, 0.75], [0.875, 0.125]]") != std::string::npos);
    CHECK(data.find("\"kind\": \"encoder self\", \"layer\": 3, \"head\": 2") != std::string::npos);
    CHECK(data.find("\"title\": \"two heads: head 2\"") != std::string::npos);
    CHECK(data.find("\"weights\": [[0.125, 0.875], [0.0625, 0.9375]]") != std::string::npos);
    CHECK(data.find("\"queries\": [\"the\", \"cat\"], \"keys\": [\"le\", \"chat\"]") != std::string::npos);
    // A label cannot end the data element early.
    CHECK(data.find("BLEU <\\/script> of the test set") != std::string::npos);
    // The figure is inside the page ("<svg/>" in base64), the style and the script too.
    CHECK(page.find("src=\"data:image/svg+xml;base64,PHN2Zy8+\"") != std::string::npos);
    CHECK(page.find(attn::report::explorer_js) != std::string::npos);
    CHECK(page.find(attn::report::style_css) != std::string::npos);
    // Nothing to fetch: no web address of any kind, no external file.
    CHECK(page.find("http:") == std::string::npos);
    CHECK(page.find("https:") == std::string::npos);
    CHECK(page.find(" src=\"data:") != std::string::npos);
    CHECK(page.find("src=\"tiny") == std::string::npos);
    // Atomic writes: summary.json, report.html and our two files, no temporary file left behind.
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        CHECK_MESSAGE((name == "summary.json" || name == "report.html" || name == "tiny.svg"), name);
        ++files;
    }
    CHECK(files == 3);
    std::filesystem::remove_all(dir);
}

TEST_CASE("report: a grid of layers x heads is recorded panel by panel with its layer and head" *
          doctest::test_suite("common")) {
    attn::plot::HeatmapGrid grid;
    grid.title = "encoder";
    for (double a : {0.5, 0.25, 0.125, 0.0625}) grid.panels.push_back(two_by_two("panel", a, a));
    attn::report::AttentionLabel label{"sentence", "encoder self"};
    label.heads_per_layer = 2;   // rows of two heads: layers 1 and 2
    const std::vector<attn::report::AttentionRecord> records = attn::report::records_of(grid, label);
    REQUIRE(records.size() == 4);
    CHECK(records[1].label.layer == 1);
    CHECK(records[1].label.head == 2);
    CHECK(records[2].label.layer == 2);
    CHECK(records[2].label.head == 1);
    CHECK(records[3].weights(0, 0) == 0.0625);
    grid.panels[0].x_tick_labels = {"le", ""};   // sparse labels: a position stands in, marked
    grid.panels[0].y_tick_labels.clear();
    CHECK(attn::report::records_of(grid.panels[0], label)[0].keys == std::vector<std::string>{"le", "#1"});
    CHECK(attn::report::records_of(grid.panels[0], label)[0].queries == std::vector<std::string>{"#0", "#1"});
    label.heads_per_layer = 0;   // one layer: every panel a head
    CHECK(attn::report::records_of(grid, label)[3].label.head == 4);
    CHECK(attn::report::records_of(grid, label)[3].label.layer == 1);
}

TEST_CASE("report: a --mine page carries the reference run's summary; a figure not rendered says why" *
          doctest::test_suite("common")) {
    attn::report::Page page;
    page.title = "Chapter 99";
    page.summary_json = "{\"metrics\": {}}";
    page.reference_json = "{\"metrics\": {\"bleu\": {\"value\": 0.61}}}";
    attn::plot::Files missing;
    missing.script = "/nowhere/loss_curves.gp";
    missing.note = "gnuplot is not installed";
    page.figures = {missing};
    const std::string html = attn::report::page_html(page);
    CHECK(html.find("id=\"reference-data\">{\"metrics\": {\"bleu\": {\"value\": 0.61}}}</script>") != std::string::npos);
    CHECK(html.find("loss_curves: not rendered (gnuplot is not installed)") != std::string::npos);
    CHECK(html.find("<title>Chapter 99: report of a run</title>") != std::string::npos);
}
