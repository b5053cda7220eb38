// Tests for common/plot.hpp: every figure leaves an editable gnuplot script and its data, renders
// to SVG and PNG when gnuplot is installed, rejects inconsistent inputs, and heatmaps preview
// in the terminal with their labels intact. Introduced in chapter 00.
#include "common/files.hpp"
#include "common/plot.hpp"
#include "common/plot_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using attn::Matrix;

namespace {

// A fresh folder under the system's temp folder, removed with everything in it at the end.
struct TempDir {
    fs::path path;
    TempDir() {
        static std::atomic<unsigned> counter{0};
        path = fs::temp_directory_path() /
               ("attn_test_plot_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// Code points of a line once the ANSI colour escapes are removed.
std::size_t visible_code_points(const std::string& line) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b') {
            while (i < line.size() && line[i] != 'm') ++i;
            continue;
        }
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++count;
    }
    return count;
}

// When gnuplot is installed the figure must be there; otherwise the note must say why.
void check_rendered(const attn::plot::Files& files) {
    if (!attn::plot::gnuplot_available()) {
        CHECK_FALSE(files.rendered);
        CHECK(files.note.find("gnuplot") != std::string::npos);
        return;
    }
    INFO("note: " << files.note);
    CHECK(files.rendered);
    REQUIRE(fs::exists(files.svg));
    REQUIRE(fs::exists(files.png));
    CHECK(fs::file_size(files.svg) > 0);
    CHECK(slurp(files.svg).find("<svg") != std::string::npos);
    CHECK(slurp(files.png).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
}

attn::plot::Heatmap small_heatmap() {
    attn::plot::Heatmap map;
    map.title = "Weights under test";
    map.xlabel = "key";
    map.ylabel = "query";
    map.values = Matrix<double>{{0.125, 0.375, 0.5}, {0.75, 0.0625, 0.1875}};
    map.x_tick_labels = {"a_b", "it's", "年"};
    map.y_tick_labels = {"first", "second"};
    map.colorbar_label = "weight";
    map.annotate = true;
    map.highlight_columns = {1};
    return map;
}

// The standard output of a shell command.
std::string output_of(const std::string& command) {
    std::string out;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[512];
        while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
        ::pclose(pipe);
    }
    return out;
}

}  // namespace

TEST_CASE("plot: a heatmap writes its script and data" * doctest::test_suite("common")) {
    const TempDir dir;
    const attn::plot::Heatmap map = small_heatmap();
    const attn::plot::Files files = attn::plot::save(map, dir.path, "weights");
    REQUIRE(fs::exists(files.script));
    REQUIRE(fs::exists(dir.path / "weights.dat"));
    const std::string script = slurp(files.script);
    const std::string data = slurp(dir.path / "weights.dat");

    SUBCASE("the data file holds every value, with a # header") {
        CHECK(data.rfind("#", 0) == 0);
        for (const char* value : {"0.125", "0.375", "0.5", "0.75", "0.0625", "0.1875"})
            CHECK_MESSAGE(data.find(value) != std::string::npos, value);
    }
    SUBCASE("the script reads the data by its relative name and writes relative outputs") {
        CHECK(script.find("'weights.dat'") != std::string::npos);
        CHECK(script.find("set output 'weights.svg'") != std::string::npos);
        CHECK(script.find("set output 'weights.png'") != std::string::npos);
        CHECK(script.find(dir.path.string()) == std::string::npos);
    }
    SUBCASE("the script shows the title and every tick label, quotes escaped") {
        CHECK(script.find("Weights under test") != std::string::npos);
        CHECK(script.find("'a_b'") != std::string::npos);
        CHECK(script.find("'it''s'") != std::string::npos);  // gnuplot writes ' as '' inside '...'
        CHECK(script.find("'年'") != std::string::npos);
        CHECK(script.find("'first'") != std::string::npos);
        CHECK(script.find("'second'") != std::string::npos);
        CHECK(script.find("'weight'") != std::string::npos);
    }
    SUBCASE("row 0 is drawn at the top (the y axis runs from 1.5 down to -0.5)") {
        CHECK(script.find("set yrange [1.5:-0.5]") != std::string::npos);
    }
    SUBCASE("the figure is rendered when gnuplot is installed") { check_rendered(files); }
}

TEST_CASE("plot: a heatmap's tiles get borders at any size" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::Heatmap map;
    map.values = xt::zeros<double>({40, 30});   // too large for the borders of every cell
    SUBCASE("no tiles: no borders on a large map") {
        CHECK(slurp(attn::plot::save(map, dir.path, "plain").script).find("x2tics") == std::string::npos);
    }
    SUBCASE("tiles of 8 rows x 6 columns: lines every 8 rows and every 6 columns, from the top left corner") {
        map.tile_rows = 8;
        map.tile_columns = 6;
        const std::string script = slurp(attn::plot::save(map, dir.path, "tiled").script);
        CHECK(script.find("set x2tics -0.5, 6, 29.5") != std::string::npos);
        CHECK(script.find("set y2tics -0.5, 8, 39.5") != std::string::npos);
    }
}

TEST_CASE("plot: two processes rendering one figure in one folder both succeed" * doctest::test_suite("common")) {
    if (!attn::plot::gnuplot_available()) return;
    const TempDir dir;
    const attn::plot::Heatmap map = small_heatmap();
    std::vector<pid_t> children;
    for (int child = 0; child < 2; ++child) {
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {   // each renders the same figure 4 times; exit code 1 if one was not rendered
            bool all = true;
            for (int k = 0; k < 4; ++k) all = attn::plot::save(map, dir.path, "shared").rendered && all;
            ::_exit(all ? 0 : 1);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    CHECK(slurp(dir.path / "shared.png").rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    for (const fs::directory_entry& entry : fs::directory_iterator(dir.path))   // no render's own files left
        CHECK(entry.path().filename().string().find(".render") == std::string::npos);
}

TEST_CASE("plot: a figure cut short (a full disk) is not complete" * doctest::test_suite("common")) {
    if (!attn::plot::gnuplot_available()) return;
    const TempDir dir;
    const attn::plot::Files files = attn::plot::save(small_heatmap(), dir.path, "whole");
    REQUIRE(files.rendered);
    CHECK(attn::plot::detail::complete_png(files.png));
    CHECK(attn::plot::detail::complete_svg(files.svg));
    const std::string png = slurp(files.png), svg = slurp(files.svg);
    attn::write_text_atomically(dir.path / "cut.png", png.substr(0, png.size() / 2));
    attn::write_text_atomically(dir.path / "cut.svg", svg.substr(0, svg.size() / 2));
    attn::write_text_atomically(dir.path / "no_end.png", png.substr(0, png.size() - 1));
    attn::write_text_atomically(dir.path / "no_start.png", png.substr(1));
    CHECK_FALSE(attn::plot::detail::complete_png(dir.path / "cut.png"));
    CHECK_FALSE(attn::plot::detail::complete_png(dir.path / "no_end.png"));
    CHECK_FALSE(attn::plot::detail::complete_png(dir.path / "no_start.png"));
    CHECK_FALSE(attn::plot::detail::complete_png(dir.path / "missing.png"));
    CHECK_FALSE(attn::plot::detail::complete_svg(dir.path / "cut.svg"));
}

TEST_CASE("plot: a render removes what killed renders left, and nothing of the learner's" * doctest::test_suite("common")) {
    if (!attn::plot::gnuplot_available()) return;
    const TempDir dir;
    // Process ids far above any pid_max: dead. A killed render's folder holds the marker.
    const fs::path killed = dir.path / ".render2147483646_3", empty = dir.path / ".render2147483645_0";
    const fs::path learners = dir.path / ".render2147483644_1", running = dir.path / (".render" + std::to_string(::getpid()) + "_999");
    const fs::path marking = dir.path / ".render2147483643_2";   // killed while writing its marker
    for (const fs::path& folder : {killed, empty, learners, running, marking}) fs::create_directories(folder);
    attn::write_text_atomically(marking / ".written-by-attn-plot.tmp2147483643", "marker\n");
    attn::write_text_atomically(killed / ".written-by-attn-plot", "marker\n");
    attn::write_text_atomically(killed / "attention.png", "\x89PNG half");
    attn::write_text_atomically(learners / "notes.txt", "mine\n");
    attn::write_text_atomically(running / ".written-by-attn-plot", "marker\n");
    // Folders of the learner's named like this process's next render folders: used by no render.
    const std::string own = ".render" + std::to_string(::getpid()) + "_";
    const unsigned next = attn::plot::detail::next_render_number();
    for (const unsigned n : {next, next + 1}) {
        fs::create_directories(dir.path / (own + std::to_string(n)));
        attn::write_text_atomically(dir.path / (own + std::to_string(n)) / "notes.txt", "mine\n");
    }
    REQUIRE(attn::plot::save(small_heatmap(), dir.path, "next").rendered);
    for (const unsigned n : {next, next + 1}) CHECK(slurp(dir.path / (own + std::to_string(n)) / "notes.txt") == "mine\n");
    CHECK_FALSE(fs::exists(killed));
    CHECK_FALSE(fs::exists(empty));
    CHECK_FALSE(fs::exists(marking));
    CHECK(slurp(learners / "notes.txt") == "mine\n");
    CHECK(fs::exists(running));   // a render still running (here: this very process) is left alone
}

TEST_CASE("plot: a line plot writes one data block per series" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::LinePlot plot;
    plot.title = "Loss";
    plot.xlabel = "epoch";
    plot.ylabel = "loss";
    plot.log_y = true;
    plot.series = {{"train", {0, 1, 2}, {4, 2, 1}, false}, {"validation", {0, 1, 2}, {5, 3.5, 2.25}, true}};
    const attn::plot::Files files = attn::plot::save(plot, dir.path, "loss");
    REQUIRE(fs::exists(dir.path / "loss.dat"));
    const std::string script = slurp(files.script);
    const std::string data = slurp(dir.path / "loss.dat");

    SUBCASE("the data holds both series") {
        CHECK(data.find("3.5") != std::string::npos);
        CHECK(data.find("2.25") != std::string::npos);
        CHECK(script.find("index 1") != std::string::npos);
    }
    SUBCASE("the script names the series and uses a log y axis") {
        CHECK(script.find("'train'") != std::string::npos);
        CHECK(script.find("'validation'") != std::string::npos);
        CHECK(script.find("set logscale y") != std::string::npos);
    }
    SUBCASE("the figure is rendered when gnuplot is installed") { check_rendered(files); }
}

TEST_CASE("plot: a line plot with Chinese text renders it" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::LinePlot plot;
    plot.title = "缩放点积注意力：训练损失";
    plot.xlabel = "训练步数";
    plot.ylabel = "损失";
    plot.series = {{"训练集", {0, 1, 2}, {4, 2, 1}, false}, {"验证集", {0, 1, 2}, {5, 3.5, 2.25}, true}};
    const attn::plot::Files files = attn::plot::save(plot, dir.path, "loss_zh");
    const std::string script = slurp(files.script);

    SUBCASE("the script holds every Chinese text intact, as UTF-8") {
        CHECK(script.find("set encoding utf8") != std::string::npos);
        for (const std::string& text : {plot.title, plot.xlabel, plot.ylabel, plot.series[0].label, plot.series[1].label})
            CHECK_MESSAGE(script.find("'" + text + "'") != std::string::npos, text);
    }
    SUBCASE("the figure is rendered when gnuplot is installed") { check_rendered(files); }
    SUBCASE("gnuplot warns about nothing, and an installed font has every glyph") {
        if (!attn::plot::gnuplot_available()) return;
        // gnuplot's cairo terminals find glyphs the base font lacks through fontconfig; a
        // character no installed font has is drawn as a box, silently. So: no warning from
        // gnuplot, and fontconfig must know a font with all the characters of the figure.
        const fs::path err = dir.path / "gnuplot.err";
        const int status = std::system(("cd '" + dir.path.string() + "' && gnuplot loss_zh.gp 2> gnuplot.err").c_str());
        CHECK(status == 0);
        CHECK_MESSAGE(slurp(err).empty(), slurp(err));
        std::string charset;
        char hex[16];
        for (const std::string& text : {plot.title, plot.xlabel, plot.ylabel, plot.series[0].label}) {
            for (std::size_t i = 0; i < text.size();) {
                char32_t c = 0;
                i += attn::plot::detail::decode_utf8(text, i, c);
                if (!attn::plot::detail::is_wide(c)) continue;   // the Latin ones are DejaVu's
                std::snprintf(hex, sizeof hex, " %x", static_cast<unsigned>(c));
                charset += hex;
            }
        }
        REQUIRE(!charset.empty());
        const std::string fonts = output_of("fc-list ':charset=" + charset.substr(1) + "' family 2>/dev/null");
        CHECK_MESSAGE(!fonts.empty(), "no installed font has every character of the figure (" << charset
                      << "): install fonts-noto-cjk (./course setup installs it)");
    }
}

TEST_CASE("plot: reference points are grey open rings, a reference line is grey and dashed" *
          doctest::test_suite("common")) {
    // A bound per category drawn as a line would suggest values between the categories and
    // hide a model's marker under it; rings leave the marker visible inside.
    const TempDir dir;
    attn::plot::LinePlot plot;
    attn::plot::Series model{"model", {0, 1}, {1.0, 0.5}};
    model.markers = true;
    attn::plot::Series bound{"bound", {0, 1}, {1.0, 0.9}};
    bound.reference = true;
    bound.points = true;
    attn::plot::Series theory{"theory", {0, 1}, {0.8, 0.8}};
    theory.reference = true;
    plot.series = {model, bound, theory};
    const std::string script = slurp(attn::plot::save(plot, dir.path, "bound").script);
    const auto line_of = [&](const std::string& title) {
        for (const std::string& line : lines_of(script))
            if (line.find("title '" + title + "'") != std::string::npos) return line;
        return std::string();
    };
    const std::string rings = line_of("bound"), dashed = line_of("theory");
    REQUIRE(!rings.empty());
    REQUIRE(!dashed.empty());
    CHECK(rings.find("with points pt 6") != std::string::npos);
    CHECK(rings.find("dt 2") == std::string::npos);
    CHECK(rings.find("#888888") != std::string::npos);
    CHECK(dashed.find("with lines") != std::string::npos);
    CHECK(dashed.find("dt 2") != std::string::npos);
}

TEST_CASE("plot: a log axis over a short range still gets at least four labelled ticks" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::LinePlot plot;
    plot.title = "Loss";
    plot.log_y = true;
    // A quick run's loss: 5.8 down to 3.1, less than one decade. gnuplot alone would label
    // only a power of ten (none falls inside), and the 1-2-5 steps give only 5.
    plot.series = {{"train", {0, 1, 2, 3}, {5.8, 4.6, 3.7, 3.1}, false}};
    const std::string script = slurp(attn::plot::save(plot, dir.path, "short").script);
    const std::size_t at = script.find("set ytics add (");
    REQUIRE(at != std::string::npos);
    const std::string list = script.substr(at, script.find(')', at) - at);
    CHECK(std::count(list.begin(), list.end(), ',') >= 3);   // four ticks or more
    CHECK(list.find("(3, 4, 5, 6") != std::string::npos);

    plot.series = {{"train", {0, 1, 2}, {5.85, 0.5, 0.04}, false}};   // two decades: 1-2-5 steps are enough
    const std::string wide = slurp(attn::plot::save(plot, dir.path, "wide").script);
    CHECK(wide.find("set ytics add (0.05, 0.1, 0.2, 0.5, 1, 2, 5)") != std::string::npos);

    // Tokens per second from 1000 to 38,500: the 1-2-5 steps stop at 20000, far below the top,
    // which gets a label of its own at one digit, 30000.
    plot.series = {{"cached", {1, 2, 3}, {38500, 20000, 1000}, false}};
    const std::string top = slurp(attn::plot::save(plot, dir.path, "top").script);
    CHECK(top.find("set ytics add (1000, 2000, 5000, 10000, 20000, 30000)") != std::string::npos);
}

namespace {

// Three 2 x 3 panels in rows of two: panel 3 sits below panel 1 and has its x labels.
attn::plot::HeatmapGrid small_grid() {
    attn::plot::HeatmapGrid grid;
    grid.title = "Heads under test";
    grid.columns = 2;
    grid.colorbar_label = "weight";
    for (int k = 0; k < 3; ++k) {
        attn::plot::Heatmap panel;
        panel.title = "head " + std::to_string(k + 1);
        panel.values = Matrix<double>{{0.125, 0.25, 0.375}, {0.5, 0.625, 0.75}} + 0.0625 * k;
        panel.x_tick_labels = {"a_b", "it's", "年"};
        panel.y_tick_labels = {"first", "second"};
        grid.panels.push_back(panel);
    }
    return grid;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t count = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
}

}  // namespace

TEST_CASE("plot: a heatmap grid draws its panels on one colour scale" * doctest::test_suite("common")) {
    const TempDir dir;
    const attn::plot::Files files = attn::plot::save(small_grid(), dir.path, "heads");
    REQUIRE(fs::exists(files.script));
    REQUIRE(fs::exists(dir.path / "heads.dat"));
    const std::string script = slurp(files.script);
    const std::string data = slurp(dir.path / "heads.dat");

    SUBCASE("the data holds one block per panel, each value once") {
        CHECK(occurrences(data, "\n\n\n") == 3);   // a block ends with its row's blank line and one more
        // panel 3 = panel 1 + 2 * 0.0625: its first value 0.25 also appears in panel 1 and 2
        for (const char* value : {"0.1875", "0.3125", "0.4375", "0.5625", "0.6875", "0.8125", "0.875"})
            CHECK_MESSAGE(data.find(value) != std::string::npos, value);
    }
    SUBCASE("each panel is plotted from its own block under its own title, twice (SVG and PNG)") {
        CHECK(occurrences(script, "\nset multiplot") == 2);
        CHECK(occurrences(script, "unset multiplot") == 2);
        for (const char* panel : {"'heads.dat' index 0 ", "'heads.dat' index 1 ", "'heads.dat' index 2 ",
                                  "set title 'head 1'", "set title 'head 2'", "set title 'head 3'"})
            CHECK_MESSAGE(occurrences(script, panel) == 2, panel);
        CHECK(script.find("Heads under test") != std::string::npos);
    }
    SUBCASE("one colour range spans every panel, and one colour bar is drawn") {
        // smallest value 0.125 (panel 1), largest 0.75 + 2 * 0.0625 = 0.875 (panel 3)
        CHECK(script.find("set cbrange [0.125:0.875]") != std::string::npos);
        CHECK(occurrences(script, "set colorbox user") == 2);
        CHECK(occurrences(script, "unset colorbox") == 4);
        CHECK(script.find("set cblabel 'weight'") != std::string::npos);
    }
    SUBCASE("shared tick labels are drawn once: y in the first column, x below the bottom panels") {
        // per pass: panel 2 has no y labels, panel 1 (panel 3 below it) has no x labels
        CHECK(occurrences(script, "unset ytics") == 2);
        CHECK(occurrences(script, "unset xtics") == 2);
        CHECK(occurrences(script, "'it''s' 1") == 4);   // panels 2 and 3, twice each
        CHECK(occurrences(script, "'second' 1") == 4);  // panels 1 and 3
    }
    SUBCASE("the figure is rendered when gnuplot is installed") { check_rendered(files); }
}

TEST_CASE("plot: a heatmap grid rejects panels of different shapes, and no panels" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::HeatmapGrid grid = small_grid();
    grid.panels[1].values = Matrix<double>{{0.5, 0.5}, {0.5, 0.5}};
    grid.panels[1].x_tick_labels = {"x", "y"};
    CHECK_THROWS_AS(attn::plot::save(grid, dir.path, "heads"), std::invalid_argument);
    grid.panels.clear();
    CHECK_THROWS_AS(attn::plot::save(grid, dir.path, "heads"), std::invalid_argument);
    attn::plot::HeatmapGrid labels = small_grid();
    labels.panels[2].y_tick_labels = {"only one"};
    CHECK_THROWS_AS(attn::plot::save(labels, dir.path, "heads"), std::invalid_argument);
}

TEST_CASE("plot: the preview of a grid draws the panels one below the other on one scale" *
          doctest::test_suite("common")) {
    const attn::plot::HeatmapGrid grid = small_grid();
    const std::string text = attn::plot::preview(grid, false);
    const std::vector<std::string> lines = lines_of(text);
    // grid title; per panel its title and 2 rows, a blank line between panels; under the last
    // panel the column numbers and their legend ("it's" is too long to write downwards); scale
    REQUIRE(lines.size() == 1 + 3 * 3 + 2 + 2 + 1);

    SUBCASE("each panel comes under its own title, in order") {
        CHECK(lines[0] == "Heads under test");
        CHECK(lines[1] == "head 1");
        CHECK(lines[4].empty());
        CHECK(lines[5] == "head 2");
        CHECK(lines[9] == "head 3");
        CHECK(lines[2].rfind("first", 0) == 0);
        CHECK(lines[3].rfind("second", 0) == 0);
    }
    SUBCASE("one colour range for every panel: the same value gets the same shade in each") {
        // range [0.125, 0.875]: panel 1's second row 0.5 0.625 0.75 sits at 1/2, 2/3, 5/6 of it
        // (on its own range [0.125, 0.75] it would be 3/5, 4/5, 1: ▓▓████); panel 3's second
        // row 0.625 0.75 0.875 at 2/3, 5/6, 1
        CHECK(lines[3].substr(lines[3].size() - std::string("▒▒▓▓██").size()) == "▒▒▓▓██");
        CHECK(lines[11].substr(lines[11].size() - std::string("▓▓████").size()) == "▓▓████");
        CHECK(lines.back().rfind("scale: 0.125 [", 0) == 0);
        CHECK(lines.back().find("] 0.875  (weight)") != std::string::npos);
        CHECK(occurrences(text, "scale:") == 1);
    }
    SUBCASE("shared column labels are listed once, under the last panel, each column once") {
        CHECK(occurrences(text, "0 a_b · 1 it's · 2 年") == 1);
        CHECK(lines[lines.size() - 2].find("0 a_b · 1 it's · 2 年") != std::string::npos);
        CHECK(text.find(" 3 ") == std::string::npos);
    }
    SUBCASE("no cell between the panels: nothing reads as a value that is not a number") {
        CHECK(text.find("··") == std::string::npos);
        CHECK(text.find("not a number") == std::string::npos);
        for (std::size_t i : {2, 3, 6, 7, 10, 11}) CHECK(visible_code_points(lines[i]) == 7 + 2 * 3);
    }
    SUBCASE("a panel whose column labels differ from the next one's gets its own") {
        attn::plot::HeatmapGrid own = grid;
        own.panels[0].x_tick_labels = {"x", "y", "z"};
        const std::vector<std::string> own_lines = lines_of(attn::plot::preview(own, false));
        REQUIRE(own_lines.size() == lines.size() + 1);
        CHECK(own_lines[4].find("x y z") != std::string::npos);
    }
    SUBCASE("colour codes only with colour; a grid that cannot be drawn is refused") {
        CHECK(text.find('\x1b') == std::string::npos);
        CHECK(attn::plot::preview(grid, true).find("\x1b[48;5;") != std::string::npos);
        attn::plot::HeatmapGrid empty = grid;
        empty.panels.clear();
        CHECK_THROWS_AS(attn::plot::preview(empty, false), std::invalid_argument);
    }
}

TEST_CASE("plot: a region plot writes the grid, the points and the class names" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::RegionPlot plot;
    plot.title = "Regions";
    plot.class_names = {"left", "right"};
    plot.grid_class = Matrix<std::size_t>{{0, 1, 1}, {0, 0, 1}};
    plot.x_min = -1, plot.x_max = 1, plot.y_min = -1, plot.y_max = 1;
    plot.point_x = {-0.5, 0.5};
    plot.point_y = {0.25, -0.75};
    plot.point_class = {0, 1};
    const attn::plot::Files files = attn::plot::save(plot, dir.path, "regions");
    REQUIRE(fs::exists(dir.path / "regions_grid.dat"));
    REQUIRE(fs::exists(dir.path / "regions_points.dat"));

    SUBCASE("the points file holds the points and their classes") {
        const std::string points = slurp(dir.path / "regions_points.dat");
        CHECK(points.find("-0.5 0.25 0") != std::string::npos);
        CHECK(points.find("0.5 -0.75 1") != std::string::npos);
    }
    SUBCASE("the grid file holds one line per grid cell") {
        // 2 x 3 cells, a # header, and a blank line after each of the 2 grid rows
        CHECK(lines_of(slurp(dir.path / "regions_grid.dat")).size() == 6 + 1 + 2);
    }
    SUBCASE("the legend names every class") {
        const std::string script = slurp(files.script);
        CHECK(script.find("'left'") != std::string::npos);
        CHECK(script.find("'right'") != std::string::npos);
    }
    SUBCASE("the figure is rendered when gnuplot is installed") { check_rendered(files); }
}

TEST_CASE("plot: inconsistent inputs throw std::invalid_argument" * doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::LinePlot line;
    line.series = {{"short y", {0, 1, 2}, {1, 2}, false}};
    attn::plot::RegionPlot region;
    region.class_names = {"only class"};
    region.grid_class = Matrix<std::size_t>{{0, 0}, {0, 0}};
    attn::plot::Heatmap map = small_heatmap();

    SUBCASE("a series whose x and y differ in length") {
        CHECK_THROWS_AS(attn::plot::save(line, dir.path, "line"), std::invalid_argument);
    }
    SUBCASE("point arrays of different lengths") {
        region.point_x = {0.1, 0.2};
        region.point_y = {0.1};
        region.point_class = {0, 0};
        CHECK_THROWS_AS(attn::plot::save(region, dir.path, "region"), std::invalid_argument);
    }
    SUBCASE("a class index with no name") {
        region.point_x = {0.1};
        region.point_y = {0.1};
        region.point_class = {1};
        CHECK_THROWS_AS(attn::plot::save(region, dir.path, "region"), std::invalid_argument);
    }
    SUBCASE("tick labels that do not match the columns") {
        map.x_tick_labels = {"a", "b"};
        CHECK_THROWS_AS(attn::plot::save(map, dir.path, "map"), std::invalid_argument);
        CHECK_THROWS_AS(attn::plot::preview(map, false), std::invalid_argument);
    }
    SUBCASE("a highlighted column that does not exist") {
        map.highlight_columns = {3};
        CHECK_THROWS_AS(attn::plot::save(map, dir.path, "map"), std::invalid_argument);
    }
    SUBCASE("the message names the function") {
        try {
            attn::plot::save(line, dir.path, "line");
            FAIL("no exception");
        } catch (const std::invalid_argument& error) {
            CHECK(std::string(error.what()).find("save(LinePlot)") != std::string::npos);
        }
    }
}

TEST_CASE("plot: preview draws one line per row with its label, then columns and scale" *
          doctest::test_suite("common")) {
    attn::plot::Heatmap map = small_heatmap();
    map.y_tick_labels = {"年", "second"};
    const std::vector<std::string> plain = lines_of(attn::plot::preview(map, false));
    const std::vector<std::string> coloured = lines_of(attn::plot::preview(map, true));
    // title + 2 rows + the column numbers and their legend ("it's" is 4 glyphs: too long to
    // write downwards) + scale
    REQUIRE(plain.size() == 1 + 2 + 2 + 1);

    SUBCASE("each row starts with its label; the Unicode label stays intact") {
        CHECK(plain[1].rfind("年", 0) == 0);
        CHECK(plain[2].rfind("second", 0) == 0);
    }
    SUBCASE("long column labels are numbered and listed in full, short ones written downwards") {
        CHECK(plain[3].find('0') != std::string::npos);
        CHECK(plain[4].find("0 a_b · 1 it's · 2 年") != std::string::npos);
        attn::plot::Heatmap short_labels = map;
        short_labels.x_tick_labels = {"ab", "c", "年"};
        const std::vector<std::string> downwards = lines_of(attn::plot::preview(short_labels, false));
        REQUIRE(downwards.size() == 1 + 2 + 2 + 1);   // "ab" is two glyphs: two lines of labels
        CHECK(downwards[3].find("a c 年") != std::string::npos);
        CHECK(downwards[4].find('b') != std::string::npos);
    }
    SUBCASE("the last line is the scale, from the smallest to the largest value") {
        CHECK(plain.back().find("0.0625") != std::string::npos);
        CHECK(plain.back().find("0.75") != std::string::npos);
        CHECK(plain.back().find("weight") != std::string::npos);
    }
    SUBCASE("the largest value gets the darkest shade, and no colour codes without colour") {
        CHECK(plain[2].find("██") != std::string::npos);  // 0.75 is in row 1
        CHECK(attn::plot::preview(map, false).find('\x1b') == std::string::npos);
    }
    SUBCASE("colour adds ANSI backgrounds, reset at the end of each row") {
        REQUIRE(coloured.size() == plain.size());
        CHECK(coloured[1].find("\x1b[48;5;") != std::string::npos);
        CHECK(coloured[1].size() >= 4);
        CHECK(coloured[1].substr(coloured[1].size() - 4) == "\x1b[0m");
    }
    SUBCASE("a narrow width drops columns and says so") {
        attn::plot::Heatmap wide;
        wide.values = Matrix<double>::from_shape({3, 60});
        for (std::size_t k = 0; k < wide.values.size(); ++k) wide.values.flat(k) = std::sin(0.1 * k);
        const std::vector<std::string> lines = lines_of(attn::plot::preview(wide, true, 40));
        for (std::size_t i = 0; i < 3; ++i) CHECK(visible_code_points(lines[i]) <= 40);
        CHECK(lines.back().find("of 60 shown") != std::string::npos);
    }
}

TEST_CASE("plot: a categorical heatmap names each colour in a key instead of a colour bar" *
          doctest::test_suite("common")) {
    const TempDir dir;
    attn::plot::Heatmap map;
    map.title = "Mask under test";
    map.values = Matrix<double>{{1, 0, 0}, {1, 1, 0}};
    map.categories = {"blocked (true)", "may attend (false)"};

    SUBCASE("the script has one key entry per category and no colour bar") {
        const attn::plot::Files files = attn::plot::save(map, dir.path, "mask");
        const std::string script = slurp(files.script);
        CHECK(script.find("unset colorbox") != std::string::npos);
        CHECK(script.find("title 'blocked (true)'") != std::string::npos);
        CHECK(script.find("title 'may attend (false)'") != std::string::npos);
        CHECK(script.find("set cbrange [-0.5:1.5]") != std::string::npos);   // value c sits in the middle of band c
        check_rendered(files);
    }
    SUBCASE("the preview shades each category differently and ends with the key") {
        const std::vector<std::string> lines = lines_of(attn::plot::preview(map, false));
        REQUIRE(lines.size() == 1 + 2 + 1 + 1);   // title, 2 rows, column numbers, key
        CHECK(lines[1].find("██░░░░") != std::string::npos);   // 1 0 0
        CHECK(lines[2].find("████░░") != std::string::npos);   // 1 1 0
        CHECK(lines.back() == "key: ░░ blocked (true)   ██ may attend (false)");
        CHECK(lines_of(attn::plot::preview(map, true)).back().find("\x1b[48;5;") != std::string::npos);
    }
    SUBCASE("a value that names no category is refused, by save and preview alike") {
        map.values(0, 0) = 2;
        CHECK_THROWS_AS(attn::plot::save(map, dir.path, "mask"), std::invalid_argument);
        CHECK_THROWS_AS(attn::plot::preview(map, false), std::invalid_argument);
        map.values(0, 0) = 0.5;
        CHECK_THROWS_AS(attn::plot::preview(map, false), std::invalid_argument);
    }
    SUBCASE("categories may bring their own colours, one each") {
        map.category_colours = {0x1A2B3C, 0xE69F00};
        const std::string script = slurp(attn::plot::save(map, dir.path, "mask").script);
        CHECK(script.find("fc rgb '#1A2B3C' title 'blocked (true)'") != std::string::npos);
        CHECK(script.find("fc rgb '#E69F00' title 'may attend (false)'") != std::string::npos);
        map.category_colours.pop_back();
        CHECK_THROWS_AS(attn::plot::save(map, dir.path, "mask"), std::invalid_argument);
    }
}
