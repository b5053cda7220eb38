// The report of a run: report.html, one self-contained page written beside summary.json by
// Summary::finish (summary.hpp). Under the chapter's title it shows an explorer of the
// attention weights the run recorded (hover or focus an output token to see the source tokens
// it attends to; switch example, kind, layer and head), the summary table (each metric beside
// its range, and beside the reference run's value in a --mine run), and every figure the run
// saved (inlined, so the page needs nothing else). The page's style and script are
// common/report/report.css and explorer.js, compiled into the program (report_assets.cpp
// is generated from them at build time). Introduced in chapter 00; used by every chapter.
#pragma once
#include "common/plot.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace attn::report {

// What a recorded attention map shows, for the explorer's selectors:
//   {"test sentence 1", "cross"}, {"test sentence 1", "encoder self", 2}, ...
struct AttentionLabel {
    std::string example;              // the input it is for: "test sentence 1" (the example picker)
    std::string kind = "attention";   // "cross", "encoder self", "decoder self", "self", ...
    std::size_t layer = 1;            // counted from 1
    std::size_t head = 1;             // counted from 1; a grid's panel k is head k + 1 instead
    std::string reference;            // the reference output, when the example has one
    // For a grid of several layers, one row of heads per layer (chapter 07's): its panel k is
    // head k % heads_per_layer + 1 of layer `layer + k / heads_per_layer`. 0: one layer.
    std::size_t heads_per_layer = 0;

    AttentionLabel() = default;
    AttentionLabel(std::string example, std::string kind = "attention", std::size_t layer = 1, std::size_t head = 1,
                   std::string reference = "")
        : example(std::move(example)), kind(std::move(kind)), layer(layer), head(head), reference(std::move(reference)) {}
};

// One map: rows are queries (the y tick labels: output tokens), columns are keys (the x tick
// labels: source tokens); weights(i, j) is how much query i attends to key j.
struct AttentionRecord {
    AttentionLabel label;
    std::string title;
    std::string query_axis, key_axis;            // the map's ylabel and xlabel
    std::vector<std::string> queries, keys;      // one per row / column (positions if unlabelled)
    Matrix<double> weights;
};

// The records of one map, and of every panel of a grid (panel k as head k + 1, or as the
// label's heads_per_layer says).
std::vector<AttentionRecord> records_of(const plot::Heatmap& map, const AttentionLabel& label);
std::vector<AttentionRecord> records_of(const plot::HeatmapGrid& grid, const AttentionLabel& label);

struct Page {
    std::string title;                           // "Chapter 02: Bahdanau attention"
    std::string summary_json;                    // the text written to summary.json, embedded as it is
    std::map<std::string, std::string> labels;   // metric key -> its label in the table
    std::string reference_json;                  // the reference run's summary.json, or empty
    std::string reference_note;                  // why it is not shown (a run with other settings), or empty
    std::vector<plot::Files> figures;
    std::vector<AttentionRecord> attention;
};

// The whole page: inline style, script and figures (SVG, else PNG, as data: URIs), the data
// as JSON in <script type="application/json">. Nothing in it is fetched from anywhere.
std::string page_html(const Page& page);

// The lesson's title for a chapter folder ("02_bahdanau_attention"): the first "# " heading
// of the chapter's lesson (its README.md), or the folder's name if there is no lesson.
std::string chapter_title(const std::string& chapter_dir);

// The style and the script of the page (generated from common/report/ at build time).
extern const char* const style_css;
extern const char* const explorer_js;

}  // namespace attn::report
