// Figures for every chapter (see plot.hpp): each one is a gnuplot script plus the data it
// reads, rendered to SVG and PNG when gnuplot is installed, and heatmaps also get a Unicode
// preview for the terminal. Introduced in chapter 00.
#include "common/plot.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <iostream>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <sys/wait.h>
#include <unistd.h>

namespace attn::plot {
namespace {

namespace fs = std::filesystem;

constexpr int font_size = 12;           // points; the whole figure's base font
constexpr int title_font_size = 14;
const char* const font_name = "DejaVu Sans";

// Okabe-Ito colours: distinct for readers with colour-vision deficiencies. Yellow is left
// out (invisible on white); after these eight, the colours repeat.
constexpr std::array<std::uint32_t, 8> series_colours = {
    0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000, 0x7F7F7F};

// Viridis at nine stops: perceptually uniform and readable in greyscale.
constexpr std::array<std::pair<double, std::uint32_t>, 9> viridis = {{
    {0.000, 0x440154}, {0.125, 0x472D7B}, {0.250, 0x3B528B}, {0.375, 0x2C728E},
    {0.500, 0x21918C}, {0.625, 0x28AE80}, {0.750, 0x5EC962}, {0.875, 0xADDC30},
    {1.000, 0xFDE725}}};

// The k-th colour of a figure: a series of a line plot or a class of a region plot.
std::uint32_t colour_of(std::size_t k) { return series_colours[k % series_colours.size()]; }

// ---- Text ---------------------------------------------------------------------------

// A gnuplot single-quoted string. Inside '...' only the quote needs escaping (as ''),
// backslashes stay literal, and a line break would end the command, so it becomes a space.
std::string gp_quote(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'') out += "''";
        else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
    return out + "'";
}

// A POSIX shell single-quoted word: ' becomes '\''.
std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (const char c : text) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Numbers for data files and scripts: 9 significant digits, always with a '.' whatever the
// global locale says, and "NaN" (which gnuplot skips) for masked -inf scores and the like.
std::string number(double value) {
    if (!std::isfinite(value)) return "NaN";
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(9);
    out << value;
    return out.str();
}

std::string hex_colour(std::uint32_t rgb) {
    static const char* const digits = "0123456789ABCDEF";
    std::string out = "#";
    for (int shift = 20; shift >= 0; shift -= 4) out += digits[(rgb >> shift) & 0xF];
    return out;
}

// Decodes the UTF-8 code point at text[i]; returns its length in bytes (1 for a bad byte,
// whose value is then returned as the code point so it still counts as one glyph).
std::size_t decode_utf8(const std::string& text, std::size_t i, char32_t& code_point) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                             : (lead >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size()) { code_point = lead; return 1; }
    code_point = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned char next = static_cast<unsigned char>(text[i + k]);
        if ((next >> 6) != 0x2) { code_point = lead; return 1; }
        code_point = (code_point << 6) | (next & 0x3F);
    }
    return length;
}

bool is_combining(char32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
           (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0xFE20 && c <= 0xFE2F) || c == 0x200D;
}

// East Asian wide and fullwidth characters (and emoji) take two terminal columns.
bool is_wide(char32_t c) {
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
           (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
           (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

struct Glyph {
    std::string text;   // one code point plus the combining marks that follow it
    int width;          // terminal columns: 1 or 2
};

// Splits UTF-8 text into glyphs, so "e" + U+0301 stays one glyph and "年" is one glyph
// two columns wide. Counting glyphs, not bytes, keeps padded labels aligned.
std::vector<Glyph> split_glyphs(const std::string& text) {
    std::vector<Glyph> glyphs;
    for (std::size_t i = 0; i < text.size();) {
        char32_t c = 0;
        const std::size_t length = decode_utf8(text, i, c);
        const std::string bytes = text.substr(i, length);
        i += length;
        if (c < 0x20) continue;  // control characters would break the layout
        if (is_combining(c) && !glyphs.empty()) glyphs.back().text += bytes;
        else glyphs.push_back({bytes, is_wide(c) ? 2 : 1});
    }
    return glyphs;
}

// Text for a comment line: control characters (a line break would end it) become spaces.
std::string one_line(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return out;
}

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (const Glyph& g : split_glyphs(text)) width += static_cast<std::size_t>(g.width);
    return width;
}

// The label cut to at most `width` columns (ending in "…" when cut), padded with spaces
// to exactly `width` columns when `pad` is set.
std::string fit_label(const std::string& label, std::size_t width, bool pad) {
    const std::vector<Glyph> glyphs = split_glyphs(label);
    const bool cut = display_width(label) > width;
    const std::size_t room = cut ? width - std::min<std::size_t>(width, 1) : width;
    std::string out;
    std::size_t used = 0;
    for (const Glyph& g : glyphs) {
        if (used + static_cast<std::size_t>(g.width) > room) break;
        out += g.text;
        used += static_cast<std::size_t>(g.width);
    }
    if (cut && width > 0) { out += "…"; ++used; }
    if (pad) out += std::string(width - std::min(width, used), ' ');
    return out;
}

// Rough width in pixels of text drawn at `points` by the cairo terminals (DejaVu Sans
// averages ~0.64 em per Latin character; CJK glyphs are a full em).
double text_pixels(const std::string& text, int points) {
    double em = 0;
    for (const Glyph& g : split_glyphs(text)) em += g.width == 2 ? 1.05 : 0.64;
    return em * points;
}

std::string shorten(const std::string& label, std::size_t max_columns) {
    return display_width(label) > max_columns ? fit_label(label, max_columns, false) : label;
}

// ---- Checks -------------------------------------------------------------------------

void check_name(const char* function, const std::string& name) {
    if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        throw std::invalid_argument(std::string(function) + ": the figure name '" + name +
                                    "' must be a non-empty file name without '/' or '\\'");
}

void check_count(const char* function, const char* labels, std::size_t got, std::size_t want,
                 const char* unit) {
    if (got != 0 && got != want)
        throw std::invalid_argument(std::string(function) + ": " + labels + " has " + std::to_string(got) +
                                    " labels but values has " + std::to_string(want) + " " + unit +
                                    "s (give one label per " + unit + ", or none)");
}

// ---- Scripts and rendering ------------------------------------------------------------

std::string terminal_line(const char* terminal, int width, int height) {
    return std::string("set terminal ") + terminal + " size " + std::to_string(width) + "," +
           std::to_string(height) + " font " + gp_quote(std::string(font_name) + "," +
           std::to_string(font_size)) + " noenhanced background '#FFFFFF'\n";
}

// The top of every script: what it draws, how to re-render it, which data it reads, and the
// SVG terminal. `noenhanced` keeps _ and ^ in tokens literal instead of sub/superscripts.
std::string script_head(const std::string& what, const std::string& name,
                        const std::string& data_note, int width, int height) {
    return "# " + one_line(what) + ", written by attn::plot (common/plot.cpp).\n"
           "# Edit freely, then re-render from this folder with:  gnuplot " + name + ".gp\n"
           "# " + data_note + "\n"
           "set encoding utf8\n" + terminal_line("svg", width, height) +
           "set output " + gp_quote(name + ".svg") + "\n";
}

// The bottom of every script: the same figure again as PNG.
std::string script_tail(const std::string& name, int width, int height,
                        const std::string& command = "replot\n") {
    return "\n# The same figure as PNG.\n" + terminal_line("pngcairo", width, height) +
           "set output " + gp_quote(name + ".png") + "\n" + command + "unset output\n";
}

std::string titles(const std::string& title, const std::string& xlabel, const std::string& ylabel) {
    std::string out;
    if (!title.empty()) out += "set title " + gp_quote(title) + " font ',"
                               + std::to_string(title_font_size) + "'\n";
    if (!xlabel.empty()) out += "set xlabel " + gp_quote(xlabel) + "\n";
    if (!ylabel.empty()) out += "set ylabel " + gp_quote(ylabel) + "\n";
    return out;
}

// The line of gnuplot's error output worth showing: the `"NAME.gp" line N: ...` one if
// present (the lines before it only echo the command), else the first non-empty line.
std::string first_error_line(const std::string& errors) {
    std::istringstream lines(errors);
    std::string line, first;
    while (std::getline(lines, line)) {
        if (line.find(".gp\" line ") != std::string::npos) return line;
        if (first.empty() && line.find_first_not_of(" \t^") != std::string::npos) first = line;
    }
    return first.empty() ? "no error message" : first;
}

bool non_empty_file(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error) && fs::file_size(path, error) > 0 && !error;
}

// Runs `gnuplot NAME.gp` inside `where`, its stderr captured in a temporary file.
std::pair<bool, std::string> run_gnuplot(const fs::path& where, const std::string& name) {
    static std::atomic<unsigned> counter{0};
    std::error_code error;
    fs::path temp = fs::temp_directory_path(error);
    if (error) temp = "/tmp";
    const fs::path log = temp / ("attn_plot_" + std::to_string(::getpid()) + "_" +
                                 std::to_string(counter++) + ".log");
    const std::string command = "cd " + shell_quote(where.string()) + " && gnuplot " +
                                shell_quote(name + ".gp") + " </dev/null >/dev/null 2>" +
                                shell_quote(log.string());
    const int status = std::system(command.c_str());
    std::string errors;
    try { errors = read_text(log); } catch (const std::runtime_error&) {}
    fs::remove(log, error);
    const bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return {ok, errors};
}

// Writes the script, then renders it when gnuplot is there. Old SVG/PNG files are removed
// first, so a failed render never leaves last run's figure looking current.
Files write_and_render(const fs::path& dir, const std::string& name, const std::string& script) {
    const fs::path where = dir.empty() ? fs::path(".") : dir;
    Files files{where / (name + ".gp"), where / (name + ".svg"), where / (name + ".png"), false, ""};
    write_text_atomically(files.script, script);
    if (!gnuplot_available()) {
        files.note = "gnuplot not found: install gnuplot-nox, then run `gnuplot " + name +
                     ".gp` in " + where.string();
        return files;
    }
    std::error_code error;
    fs::remove(files.svg, error);
    fs::remove(files.png, error);
    const auto [ok, errors] = run_gnuplot(where, name);
    files.rendered = ok && non_empty_file(files.svg) && non_empty_file(files.png);
    if (!ok) files.note = "gnuplot failed on " + files.script.string() + ": " + first_error_line(errors);
    else if (!files.rendered) files.note = "gnuplot ran but did not write " + files.png.string();
    return files;
}

// ---- Line plots -----------------------------------------------------------------------

void check_line_plot(const LinePlot& plot) {
    std::size_t total = 0;
    for (std::size_t s = 0; s < plot.series.size(); ++s) {
        const Series& series = plot.series[s];
        if (series.x.size() != series.y.size())
            throw std::invalid_argument(
                "attn::plot::save(LinePlot): series " + std::to_string(s) + " ('" + series.label +
                "') has " + std::to_string(series.x.size()) + " x values but " +
                std::to_string(series.y.size()) + " y values");
        total += series.x.size();
    }
    if (total == 0)
        throw std::invalid_argument("attn::plot::save(LinePlot): '" + plot.title +
                                    "' has no data points in any series");
    if (plot.y_min && plot.y_max && !(*plot.y_min < *plot.y_max))
        throw std::invalid_argument("attn::plot::save(LinePlot): y_min must be below y_max");
}

// One block per non-empty series, separated by two blank lines (gnuplot's `index`).
std::string line_plot_data(const LinePlot& plot) {
    std::string out = "# x y  (one block per series; blocks are separated by two blank lines)\n";
    std::size_t block = 0;
    for (const Series& series : plot.series) {
        if (series.x.empty()) continue;
        if (block++ > 0) out += "\n\n";
        out += "# series " + std::to_string(block - 1) + ": " + one_line(series.label) + "\n";
        for (std::size_t i = 0; i < series.x.size(); ++i)
            out += number(series.x[i]) + " " + number(series.y[i]) + "\n";
    }
    return out;
}

// `set xtics ('a' 0, 'b' 1, ...)`, tilted when the labels would collide.
std::string line_plot_xtics(const LinePlot& plot) {
    if (plot.x_tick_labels.empty()) return "";
    std::string list;
    double widest = 0;
    for (std::size_t i = 0; i < plot.x_tick_labels.size(); ++i) {
        if (plot.log_x && i == 0) continue;  // x = 0 has no place on a log axis
        const std::string label = shorten(plot.x_tick_labels[i], 24);
        widest = std::max(widest, text_pixels(label, font_size));
        list += std::string(list.empty() ? "" : ", ") + gp_quote(label) + " " + std::to_string(i);
    }
    const double spacing = 700.0 / static_cast<double>(plot.x_tick_labels.size());
    const std::string tilt = widest + 8 > spacing ? " rotate by 45 right" : "";
    return "set xtics (" + list + ")" + tilt + "\n";
}

// The smallest and largest positive finite x (or y) over all series; {0, 0} if none.
std::pair<double, double> positive_range(const LinePlot& plot, bool y) {
    double lo = INFINITY, hi = 0;
    for (const Series& series : plot.series)
        for (const double v : y ? series.y : series.x)
            if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
    return hi > 0 ? std::make_pair(lo, hi) : std::make_pair(0.0, 0.0);
}

// gnuplot labels only the powers of ten on a log axis; over fewer than four decades the
// 1-2-5 steps between them are worth labelling too.
std::string log_tics(const char* axis, double lo, double hi) {
    if (!(lo > 0) || !(hi > lo) || hi / lo > 1e4) return "";
    std::string list;
    const int first = static_cast<int>(std::floor(std::log10(lo)));
    const int last = static_cast<int>(std::ceil(std::log10(hi)));
    for (int e = first; e <= last; ++e)
        for (const double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, e);
            if (v >= lo / 1.05 && v <= hi * 1.05) list += std::string(list.empty() ? "" : ", ") + number(v);
        }
    return list.empty() ? "" : std::string("set ") + axis + "tics add (" + list + ")\n";
}

std::string line_plot_settings(const LinePlot& plot) {
    std::string out = titles(plot.title, plot.xlabel, plot.ylabel);
    out += "set border 3 lw 1.2             # axes on the left and bottom only\n"
           "set tics nomirror out\n"
           "set grid xtics ytics mxtics mytics lt 1 lc rgb '#DDDDDD' lw 1, lt 1 lc rgb '#EFEFEF' lw 1\n"
           "set autoscale fix\n"
           "set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05  # a little air around the data\n";
    out += plot.legend == "outside"
               ? "set key outside right top Left reverse samplen 2.5 spacing 1.3  # beside the data\n"
               : "set key inside " + plot.legend + " Left reverse samplen 2.5 spacing 1.3 box opaque\n";
    if (plot.log_x) out += "set logscale x\n";
    if (plot.log_y) out += "set logscale y\n";
    if (plot.log_x && plot.x_tick_labels.empty()) {
        const auto [lo, hi] = positive_range(plot, false);
        out += log_tics("x", lo, hi);
    }
    if (plot.log_y) {
        const auto [lo, hi] = positive_range(plot, true);
        out += log_tics("y", plot.y_min.value_or(lo), plot.y_max.value_or(hi));
    }
    if (plot.y_min || plot.y_max)
        out += "set yrange [" + (plot.y_min ? number(*plot.y_min) : "*") + ":" +
               (plot.y_max ? number(*plot.y_max) : "*") + "]\n";
    return out + line_plot_xtics(plot);
}

std::string line_plot_command(const LinePlot& plot, const std::string& name) {
    std::string out = "plot ";
    std::size_t block = 0, drawn = 0, colour_index = 0;
    for (std::size_t s = 0; s < plot.series.size(); ++s) {
        const Series& series = plot.series[s];
        if (!series.dashed || s == 0) colour_index = s;   // a dashed series keeps the previous colour
        if (series.x.empty()) continue;
        const std::string colour = gp_quote(hex_colour(colour_of(colour_index)));
        std::string style = series.points ? "with points pt 7 ps 0.9"
                            : series.markers ? "with linespoints lw 2 pt 7 ps 1.3" : "with lines lw 2";
        if (series.dashed) style += " dt 2";
        const std::string title = series.label.empty() ? "notitle" : "title " + gp_quote(series.label);
        out += std::string(drawn++ ? ", \\\n     " : "") + gp_quote(block == 0 ? name + ".dat" : "") +
               " index " + std::to_string(block) + " using 1:2 " + style + " lc rgb " + colour + " " + title;
        ++block;
    }
    return out + "\n";
}

// ---- Region plots ---------------------------------------------------------------------

void check_region_plot(const RegionPlot& plot) {
    const char* f = "attn::plot::save(RegionPlot)";
    const std::size_t classes = plot.class_names.size();
    if (classes == 0) throw std::invalid_argument(std::string(f) + ": class_names is empty");
    if (plot.grid_class.shape(0) < 2 || plot.grid_class.shape(1) < 2)
        throw std::invalid_argument(std::string(f) + ": grid_class must be at least 2 x 2, got " +
                                    std::to_string(plot.grid_class.shape(0)) + " x " +
                                    std::to_string(plot.grid_class.shape(1)));
    if (!(plot.x_min < plot.x_max) || !(plot.y_min < plot.y_max))
        throw std::invalid_argument(std::string(f) + ": the grid needs x_min < x_max and y_min < y_max");
    if (plot.point_x.size() != plot.point_y.size() || plot.point_x.size() != plot.point_class.size())
        throw std::invalid_argument(std::string(f) + ": point_x, point_y and point_class have " +
                                    std::to_string(plot.point_x.size()) + ", " +
                                    std::to_string(plot.point_y.size()) + " and " +
                                    std::to_string(plot.point_class.size()) + " entries");
    const auto check_classes = [&](const char* what, auto begin, auto end) {
        for (auto c = begin; c != end; ++c)
            if (*c >= classes)
                throw std::invalid_argument(std::string(f) + ": " + what + " holds class " +
                                            std::to_string(*c) + " but there are " + std::to_string(classes) +
                                            " class_names");
    };
    check_classes("grid_class", plot.grid_class.begin(), plot.grid_class.end());
    check_classes("point_class", plot.point_class.begin(), plot.point_class.end());
}

// The class colour mixed with white: soft enough that the points stay visible on top.
std::uint32_t soft_colour(std::uint32_t rgb) {
    std::uint32_t out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        const double channel = static_cast<double>((rgb >> shift) & 0xFF);
        out |= static_cast<std::uint32_t>(std::lround(0.32 * channel + 0.68 * 255.0)) << shift;
    }
    return out;
}

// The k-th of n evenly spaced values from lo to hi (n >= 2).
double grid_point(double lo, double hi, std::size_t k, std::size_t n) {
    return lo + static_cast<double>(k) * (hi - lo) / static_cast<double>(n - 1);
}

// The grid as `x y class`, one block per grid row (the layout `with image` reads).
std::string region_grid_data(const RegionPlot& plot) {
    const std::size_t rows = plot.grid_class.shape(0), cols = plot.grid_class.shape(1);
    std::string out = "# x y predicted_class  (one block per grid row)\n";
    for (std::size_t i = 0; i < rows; ++i) {
        const double y = grid_point(plot.y_min, plot.y_max, i, rows);
        for (std::size_t j = 0; j < cols; ++j) {
            const double x = grid_point(plot.x_min, plot.x_max, j, cols);
            out += number(x) + " " + number(y) + " " + std::to_string(plot.grid_class(i, j)) + "\n";
        }
        out += "\n";
    }
    return out;
}

std::string region_points_data(const RegionPlot& plot) {
    std::string out = "# x y class\n";
    for (std::size_t i = 0; i < plot.point_x.size(); ++i)
        out += number(plot.point_x[i]) + " " + number(plot.point_y[i]) + " " +
               std::to_string(plot.point_class[i]) + "\n";
    return out;
}

// The axis ranges: the grid's cells (half a cell beyond the outer centres) and every point.
std::array<double, 4> region_ranges(const RegionPlot& plot) {
    const double dx = grid_point(plot.x_min, plot.x_max, 1, plot.grid_class.shape(1)) - plot.x_min;
    const double dy = grid_point(plot.y_min, plot.y_max, 1, plot.grid_class.shape(0)) - plot.y_min;
    std::array<double, 4> r = {plot.x_min - dx / 2, plot.x_max + dx / 2,   // x from, to
                               plot.y_min - dy / 2, plot.y_max + dy / 2};  // y from, to
    for (std::size_t i = 0; i < plot.point_x.size(); ++i) {
        const double x = plot.point_x[i], y = plot.point_y[i];
        if (std::isfinite(x)) r[0] = std::min(r[0], x), r[1] = std::max(r[1], x);
        if (std::isfinite(y)) r[2] = std::min(r[2], y), r[3] = std::max(r[3], y);
    }
    return r;
}

// A palette that is flat over each class: class c maps to (c + 0.5) / K of the range
// [-0.5, K - 0.5], which falls inside the c-th constant band.
std::string region_palette(std::size_t classes) {
    std::string out = "set palette defined (";
    for (std::size_t c = 0; c < classes; ++c) {
        const std::string colour = gp_quote(hex_colour(soft_colour(colour_of(c))));
        out += std::string(c ? ", " : "") + std::to_string(c) + " " + colour + ", " +
               std::to_string(c + 1) + " " + colour;
    }
    return out + ")\nset cbrange [-0.5:" + number(static_cast<double>(classes) - 0.5) + "]\nunset colorbox\n";
}

std::string region_settings(const RegionPlot& plot) {
    const std::array<double, 4> r = region_ranges(plot);
    const double aspect = (r[3] - r[2]) / (r[1] - r[0]);
    std::string out = titles(plot.title, plot.xlabel, plot.ylabel);
    out += "set xrange [" + number(r[0]) + ":" + number(r[1]) + "]\n"
           "set yrange [" + number(r[2]) + ":" + number(r[3]) + "]\n";
    if (aspect > 0.4 && aspect < 2.5) out += "set size ratio -1   # one unit is as long on both axes\n";
    out += "set tics out nomirror\nset border lw 1.2\n"
           "set grid front lt 1 lc rgb '#60FFFFFF' lw 1   # faint white lines over the regions\n"
           "set key outside right top Left reverse title 'class' spacing 1.4  # beside the data\n";
    out += "# Background: the predicted class, one soft colour per class.\n" +
           region_palette(plot.class_names.size());
    out += "# Points: their true class, in the strong version of the same colour.\narray class_colour[" +
           std::to_string(plot.class_names.size()) + "] = [";
    for (std::size_t c = 0; c < plot.class_names.size(); ++c)
        out += std::string(c ? ", " : "") + "0x" + hex_colour(colour_of(c)).substr(1);
    return out + "]\n";
}

std::string region_command(const RegionPlot& plot, const std::string& name) {
    // Each point is drawn twice: filled in its class colour, then a black ring around it.
    std::string out = "plot " + gp_quote(name + "_grid.dat") + " using 1:2:3 with image notitle";
    if (!plot.point_x.empty()) {
        const std::string points = gp_quote(name + "_points.dat");
        out += ", \\\n     " + points + " using 1:2:(class_colour[int($3) + 1]) with points pt 7 ps 1.5"
               " lc rgb variable notitle, \\\n     " + points +
               " using 1:2 with points pt 6 ps 1.5 lw 1 lc rgb '#000000' notitle";
    }
    for (std::size_t c = 0; c < plot.class_names.size(); ++c)
        out += ", \\\n     keyentry with points pt 7 ps 1.5 lc rgb " +
               gp_quote(hex_colour(colour_of(c))) + " title " +
               gp_quote(plot.class_names[c]);
    return out + "\n";
}

// ---- Heatmaps -------------------------------------------------------------------------

void check_heatmap(const char* function, const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    if (rows == 0 || cols == 0)
        throw std::invalid_argument(std::string(function) + ": the heatmap '" + plot.title +
                                    "' has no values (" + std::to_string(rows) + " x " +
                                    std::to_string(cols) + ")");
    check_count(function, "x_tick_labels", plot.x_tick_labels.size(), cols, "column");
    check_count(function, "y_tick_labels", plot.y_tick_labels.size(), rows, "row");
    if (plot.z_min && plot.z_max && !(*plot.z_min < *plot.z_max))
        throw std::invalid_argument(std::string(function) + ": z_min must be below z_max");
    for (const std::size_t c : plot.highlight_columns)
        if (c >= cols)
            throw std::invalid_argument(std::string(function) + ": highlight_columns holds column " +
                                        std::to_string(c) + " but the heatmap has " + std::to_string(cols) +
                                        " columns");
}

// The colour range: z_min/z_max where given, else the finite values' range, never empty.
std::pair<double, double> colour_range(const Heatmap& plot) {
    double lo = INFINITY, hi = -INFINITY;
    for (const double v : plot.values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!std::isfinite(lo)) lo = 0, hi = 1;  // nothing finite to show
    if (plot.z_min) lo = *plot.z_min;
    if (plot.z_max) hi = *plot.z_max;
    if (!(lo < hi)) {  // a constant map: centre it in a unit range
        if (plot.z_min) hi = lo + 1;
        else if (plot.z_max) lo = hi - 1;
        else lo -= 0.5, hi += 0.5;
    }
    return {lo, hi};
}

// Every length in pixels; cells are square and exactly `cell` wide.
struct HeatmapLayout {
    int cell = 0, width = 0, height = 0;
    int left = 0, right = 0, top = 0, bottom = 0;
    int tick_font = font_size, value_font = 10;
    int x_step = 1, y_step = 1;  // label every k-th index when there are no tick labels
    int x_rotation = 0;  // degrees: 0, 45 or 90
};

std::vector<std::string> tick_labels(const std::vector<std::string>& labels, std::size_t count) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(labels.empty() ? std::to_string(i) : shorten(labels[i], 16));
    return out;
}

double widest_label(const std::vector<std::string>& labels, int points) {
    double widest = 0;
    for (const std::string& label : labels) widest = std::max(widest, text_pixels(label, points));
    return widest;
}

// The smallest step of 1, 2, 5, 10, 20, ... cells that keeps index labels `room` pixels apart.
int nice_step(double room, int cell) {
    for (int scale = 1;; scale *= 10)
        for (const int m : {1, 2, 5})
            if (m * scale * cell >= room) return m * scale;
}

// Chooses the cell size, fonts and tick rotation; the margins follow from the labels.
HeatmapLayout heatmap_layout(const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const double longest = static_cast<double>(std::max(rows, cols));
    HeatmapLayout L;
    L.cell = plot.annotate ? std::clamp(static_cast<int>(640 / longest), 42, 72)
                           : std::clamp(static_cast<int>(600 / longest), 14, 56);
    L.tick_font = std::clamp(static_cast<int>(std::lround(L.cell * 0.55)), 8, font_size);
    if (plot.x_tick_labels.empty() && plot.y_tick_labels.empty())
        L.tick_font = std::max(L.tick_font, 10);  // sparse index labels have room to be larger
    L.value_font = std::clamp(L.cell / 5, 7, 11);
    const double x_text = widest_label(tick_labels(plot.x_tick_labels, cols), L.tick_font);
    const double y_text = widest_label(tick_labels(plot.y_tick_labels, rows), L.tick_font);
    L.x_step = nice_step(x_text + 12, L.cell);  // only used without labels, so never rotated
    L.y_step = nice_step(1.8 * L.tick_font, L.cell);
    L.x_rotation = plot.x_tick_labels.empty() || x_text + 6 <= L.cell ? 0 : L.cell >= 24 ? 45 : 90;
    const double x_extent = L.x_rotation == 0 ? 1.4 * L.tick_font
                          : L.x_rotation == 45 ? 0.72 * (x_text + L.tick_font) : x_text;
    const int label_room = static_cast<int>(1.8 * font_size);
    L.left = 16 + (plot.ylabel.empty() ? 0 : label_room) + static_cast<int>(y_text) + 12;
    if (L.x_rotation == 45) L.left = std::max(L.left, static_cast<int>(0.72 * x_text) + 16 - L.cell / 2);
    L.bottom = 18 + (plot.xlabel.empty() ? 0 : label_room + 8) + static_cast<int>(x_extent) + 12;
    L.top = plot.title.empty() ? 24 : 56;
    L.right = 22 + 18 + 10 + static_cast<int>(text_pixels("-0.000", font_size)) +
              (plot.colorbar_label.empty() ? 0 : label_room) + 16;
    return L;
}

// Widens the canvas for a long title and heightens it so the colour bar (at least 120 px)
// and the y label fit beside a short map; the extra space is shared on both sides.
void fit_canvas(const Heatmap& plot, HeatmapLayout& L) {
    const int plot_w = L.cell * static_cast<int>(plot.values.shape(1));
    const int plot_h = L.cell * static_cast<int>(plot.values.shape(0));
    L.width = L.left + plot_w + L.right;
    // text_pixels underestimates cairo's title font by about a fifth; err on the roomy side.
    const int title_w = std::max(360, static_cast<int>(1.25 * text_pixels(plot.title, title_font_size)) + 60);
    if (L.width < title_w) {
        const int extra = title_w - L.width;
        L.left += extra / 2;
        L.right += extra - extra / 2;
        L.width = title_w;
    }
    const int tall = std::max({plot_h, 120, static_cast<int>(text_pixels(plot.ylabel, font_size)) + 10});
    const int spill = (tall - plot_h) / 2 + 8;
    L.top = std::max(L.top, spill + (plot.title.empty() ? 0 : 32));
    L.bottom = std::max(L.bottom, spill);
    L.height = L.top + plot_h + L.bottom;
}

std::string tics_list(const std::vector<std::string>& labels) {
    std::string out = "(";
    for (std::size_t i = 0; i < labels.size(); ++i)
        out += std::string(i ? ", " : "") + gp_quote(labels[i]) + " " + std::to_string(i);
    return out + ")";
}

// Row and column labels; without labels, every k-th index so numbers do not collide.
std::string heatmap_tics(const Heatmap& plot, const HeatmapLayout& L) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const std::string font = " font '," + std::to_string(L.tick_font) + "'";
    const std::string rotation =
        L.x_rotation == 0 ? "" : " rotate by " + std::to_string(L.x_rotation) + " right";
    std::string out = "set tics scale 0                 # labels name the cells; no tick marks needed\n";
    const auto tics = [](const std::vector<std::string>& labels, std::size_t count, int step) {
        return labels.empty() ? "0, " + std::to_string(step) + ", " + std::to_string(count - 1)
                              : tics_list(tick_labels(labels, count));
    };
    out += "set xtics " + tics(plot.x_tick_labels, cols, L.x_step) + rotation + font + "\n";
    out += "set ytics " + tics(plot.y_tick_labels, rows, L.y_step) + font + "\n";
    return out;
}

std::string screen(int pixels, int total) { return "screen " + number(static_cast<double>(pixels) / total); }

// Margins fixed in pixels, so each cell is exactly L.cell pixels square.
std::string heatmap_frame(const Heatmap& plot, const HeatmapLayout& L) {
    const int rows = static_cast<int>(plot.values.shape(0)), cols = static_cast<int>(plot.values.shape(1));
    const int plot_w = L.cell * cols, plot_h = L.cell * rows;
    const int bar_h = std::max(plot_h, 120);
    std::string out = "# Each cell is " + std::to_string(L.cell) + " pixels square: margins set exactly.\n"
                      "set lmargin at " + screen(L.left, L.width) + "\n"
                      "set rmargin at " + screen(L.left + plot_w, L.width) + "\n"
                      "set bmargin at " + screen(L.bottom, L.height) + "\n"
                      "set tmargin at " + screen(L.bottom + plot_h, L.height) + "\n";
    out += "set xrange [-0.5:" + number(cols - 0.5) + "]\n";
    out += "set yrange [" + number(rows - 0.5) + ":-0.5]     # reversed: row 0 is at the top\n";
    out += "set colorbox user origin " + screen(L.left + plot_w + 22, L.width) + ", " +
           screen(L.bottom + plot_h / 2 - bar_h / 2, L.height) + " size " + screen(18, L.width) + ", " +
           screen(bar_h, L.height) + "\n";
    return out;
}

// Thin white lines between the cells of small maps (on large ones they would drown the colours).
std::string heatmap_separators(const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    if (std::max(rows, cols) > 24) return "";
    return "# Cell borders: grid lines on the (invisible) x2/y2 tics between the cells.\n"
           "set link x2\nset link y2\n"
           "set x2tics -0.5, 1, " + number(cols - 0.5) + " format '' scale 0\n"
           "set y2tics -0.5, 1, " + number(rows - 0.5) + " format '' scale 0\n"
           "set grid front noxtics noytics x2tics y2tics lt 1 lc rgb '#FFFFFF' lw 1.5\n";
}

std::string heatmap_palette(const Heatmap& plot, double lo, double hi) {
    std::string out = "# Viridis: perceptually uniform, dark = low, yellow = high.\nset palette defined (";
    for (std::size_t k = 0; k < viridis.size(); ++k)
        out += std::string(k ? ", " : "") + number(viridis[k].first) + " " +
               gp_quote(hex_colour(viridis[k].second));
    out += ")\nset cbrange [" + number(lo) + ":" + number(hi) + "]\n";
    if (!plot.colorbar_label.empty()) out += "set cblabel " + gp_quote(plot.colorbar_label) + "\n";
    out += "set cbtics scale 0.5 out nomirror\n";
    if (plot.annotate)
        out += "# Values in the cells: white text on dark cells, black on light ones.\nthreshold = " +
               number(lo + 0.55 * (hi - lo)) + "\n";
    for (std::size_t k = 0; k < plot.highlight_columns.size(); ++k) {
        const double c = static_cast<double>(plot.highlight_columns[k]);
        out += "set object " + std::to_string(k + 1) + " rectangle from " + number(c - 0.5) + ", -0.5 to " +
               number(c + 0.5) + ", " + number(static_cast<double>(plot.values.shape(0)) - 0.5) +
               " front fillstyle empty border lc rgb '#FF2D55' lw 3  # highlighted column\n";
    }
    return out;
}

// The plot command. For SVG, `pixels` draws every cell as its own rectangle: an embedded
// bitmap would be smoothed (blurred) when a browser scales it up.
std::string heatmap_command(const Heatmap& plot, const std::string& name, const HeatmapLayout& L,
                            bool pixels) {
    const std::string data = gp_quote(name + ".dat");
    // `with image` needs a grid of at least 2 x 2; a single row or column is drawn as boxes.
    const bool image = plot.values.shape(0) >= 2 && plot.values.shape(1) >= 2;
    const std::string style = image ? std::string("using 1:2:3 with image") + (pixels ? " pixels" : "")
                                    : "using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette";
    std::string out = "plot " + data + " " + style + " notitle";
    if (!plot.annotate) return out + "\n";
    const std::string font = " font '," + std::to_string(L.value_font) + "' notitle";
    const std::string value = "sprintf('%.2f', $3)";
    const std::string next = ", \\\n     '' using 1:2:";
    return out + next + "($3 < threshold ? " + value + " : '') with labels tc rgb '#FFFFFF'" + font +
           next + "($3 >= threshold ? " + value + " : '') with labels tc rgb '#000000'" + font + "\n";
}

std::string heatmap_data(const Heatmap& plot) {
    std::string out = "# column row value  (one block per row; row 0 is drawn at the top)\n";
    for (std::size_t i = 0; i < plot.values.shape(0); ++i) {
        for (std::size_t j = 0; j < plot.values.shape(1); ++j)
            out += std::to_string(j) + " " + std::to_string(i) + " " + number(plot.values(i, j)) + "\n";
        out += "\n";
    }
    return out;
}

// ---- Terminal preview -------------------------------------------------------------------

// The xterm 256-colour cube index nearest to an RGB colour.
int xterm_colour(std::uint32_t rgb) {
    static constexpr std::array<int, 6> levels = {0, 95, 135, 175, 215, 255};
    int index = 16;
    for (int shift = 16, weight = 36; shift >= 0; shift -= 8, weight /= 6) {
        const int channel = static_cast<int>((rgb >> shift) & 0xFF);
        int best = 0;
        for (int k = 1; k < 6; ++k)
            if (std::abs(levels[k] - channel) < std::abs(levels[best] - channel)) best = k;
        index += best * weight;
    }
    return index;
}

std::uint32_t viridis_at(double t) {
    std::size_t k = 1;
    while (k + 1 < viridis.size() && viridis[k].first < t) ++k;
    const auto& [t0, below] = viridis[k - 1];
    const auto& [t1, above] = viridis[k];
    const double f = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
    std::uint32_t out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        const double a = (below >> shift) & 0xFF, b = (above >> shift) & 0xFF;
        out |= static_cast<std::uint32_t>(std::lround(a + f * (b - a))) << shift;
    }
    return out;
}

constexpr std::array<const char*, 5> shades = {" ", "░", "▒", "▓", "█"};

// One two-column cell. With colour, foreground and background are the same viridis colour:
// a solid block on screen, while a copied text still keeps the shading characters.
std::string preview_cell(double value, double lo, double hi, bool colour) {
    if (!std::isfinite(value)) return "··";
    const double t = std::clamp((value - lo) / (hi - lo), 0.0, 1.0);
    const std::string shade = shades[std::min<std::size_t>(4, static_cast<std::size_t>(t * 5))];
    if (!colour) return shade + shade;
    const std::string code = std::to_string(xterm_colour(viridis_at(t)));
    return "\x1b[38;5;" + code + "m\x1b[48;5;" + code + "m" + shade + shade;
}

// Column labels written downwards, one glyph per two-column cell, at most 6 lines.
std::vector<std::string> preview_column_labels(const std::vector<std::string>& labels, std::size_t shown) {
    if (labels.empty()) return {};
    std::vector<std::vector<Glyph>> columns;
    std::size_t depth = 0;
    for (std::size_t j = 0; j < shown; ++j) {
        columns.push_back(split_glyphs(fit_label(labels[j], 6, false)));
        depth = std::max(depth, columns.back().size());
    }
    std::vector<std::string> lines(depth);
    for (std::size_t k = 0; k < depth; ++k)
        for (const std::vector<Glyph>& column : columns)
            lines[k] += k < column.size() ? column[k].text + (column[k].width == 2 ? "" : " ") : "  ";
    return lines;
}

// Without labels: the column index under every 5th column.
std::string preview_column_ruler(std::size_t shown) {
    std::string line;
    for (std::size_t j = 0; j < shown; j += 5) {
        const std::string index = std::to_string(j);
        line += index + std::string(std::max<std::size_t>(10, index.size() + 1) - index.size(), ' ');
    }
    return line;
}

std::string short_number(double value) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(3);
    out << value;
    return out.str();
}

std::string preview_scale(const Heatmap& plot, double lo, double hi, bool colour, std::size_t shown) {
    std::string ramp;
    for (std::size_t k = 0; k < shades.size(); ++k)
        ramp += preview_cell(lo + (hi - lo) * (static_cast<double>(k) + 0.5) / 5.0, lo, hi, colour);
    std::string line =
        "scale: " + short_number(lo) + " [" + ramp + (colour ? "\x1b[0m" : "") + "] " + short_number(hi);
    if (!plot.colorbar_label.empty()) line += "  (" + plot.colorbar_label + ")";
    if (std::any_of(plot.values.begin(), plot.values.end(), [](double v) { return !std::isfinite(v); }))
        line += "  ·· = not a number";
    if (shown < plot.values.shape(1))
        line += "  [columns 0-" + std::to_string(shown - 1) + " of " + std::to_string(plot.values.shape(1)) +
                " shown]";
    return line;
}

}  // namespace

// ---- Public functions ------------------------------------------------------------------

bool gnuplot_available() {
    static const bool available = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
    return available;
}

Files save(const LinePlot& plot, const std::filesystem::path& dir, const std::string& name) {
    check_name("attn::plot::save(LinePlot)", name);
    check_line_plot(plot);
    ensure_directory(dir);
    write_text_atomically(dir / (name + ".dat"), line_plot_data(plot));
    const std::string data_note = "Data: " + name + ".dat (columns x y; one block per series)";
    const std::string script = script_head("Line plot '" + plot.title + "'", name, data_note, 900, 600) +
                               line_plot_settings(plot) + line_plot_command(plot, name) +
                               script_tail(name, 900, 600);
    return write_and_render(dir, name, script);
}

Files save(const RegionPlot& plot, const std::filesystem::path& dir, const std::string& name) {
    check_name("attn::plot::save(RegionPlot)", name);
    check_region_plot(plot);
    ensure_directory(dir);
    write_text_atomically(dir / (name + "_grid.dat"), region_grid_data(plot));
    write_text_atomically(dir / (name + "_points.dat"), region_points_data(plot));
    const std::string data_note = "Data: " + name + "_grid.dat (x y predicted_class), " + name +
                                  "_points.dat (x y class)";
    const std::string what = "Decision regions '" + plot.title + "'";
    const std::string script = script_head(what, name, data_note, 1000, 720) + region_settings(plot) +
                               region_command(plot, name) + script_tail(name, 1000, 720);
    return write_and_render(dir, name, script);
}

Files save(const Heatmap& plot, const std::filesystem::path& dir, const std::string& name) {
    check_name("attn::plot::save(Heatmap)", name);
    check_heatmap("attn::plot::save(Heatmap)", plot);
    ensure_directory(dir);
    write_text_atomically(dir / (name + ".dat"), heatmap_data(plot));
    HeatmapLayout layout = heatmap_layout(plot);
    fit_canvas(plot, layout);
    const auto [lo, hi] = colour_range(plot);
    const std::string data_note = "Data: " + name + ".dat (columns: column row value)";
    const std::string script =
        script_head("Heatmap '" + plot.title + "'", name, data_note, layout.width, layout.height) +
        titles(plot.title, plot.xlabel, plot.ylabel) + heatmap_frame(plot, layout) +
        heatmap_tics(plot, layout) + heatmap_separators(plot) + heatmap_palette(plot, lo, hi) +
        heatmap_command(plot, name, layout, true) +
        script_tail(name, layout.width, layout.height, heatmap_command(plot, name, layout, false));
    return write_and_render(dir, name, script);
}

// Rows first (label, then one two-column cell per value), then the column labels, then the
// scale. Row labels take at most 12 columns; columns that do not fit in max_width are dropped.
namespace {
template <class Figure>
Files save_and_tell(const Figure& figure, const std::filesystem::path& dir, const std::string& name) {
    const Files files = save(figure, dir, name);
    if (files.rendered) std::cout << "  wrote " << files.png.string() << " (and .svg)\n";
    else std::cout << "  wrote " << files.script.string() << " (" << files.note << ")\n";
    return files;
}
}  // namespace

Files save_and_report(const LinePlot& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }
Files save_and_report(const RegionPlot& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }
Files save_and_report(const Heatmap& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }

std::string preview(const Heatmap& plot, bool colour, std::size_t max_width) {
    check_heatmap("attn::plot::preview", plot);
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const auto [lo, hi] = colour_range(plot);
    const std::vector<std::string> row_labels = tick_labels(plot.y_tick_labels, rows);
    std::size_t label_w = 1;
    for (const std::string& label : row_labels) label_w = std::max(label_w, display_width(label));
    label_w = std::min({label_w, std::size_t{12}, std::max<std::size_t>(1, max_width / 3)});
    const std::size_t room = max_width > label_w + 1 ? max_width - label_w - 1 : 0;
    // Two columns per cell; when they do not all fit, keep two more for the " …" marker.
    const std::size_t shown =
        2 * cols <= room ? cols : std::max<std::size_t>(1, room > 2 ? (room - 2) / 2 : 0);
    std::string out = plot.title.empty() ? "" : fit_label(plot.title, max_width, false) + "\n";
    for (std::size_t i = 0; i < rows; ++i) {
        out += fit_label(row_labels[i], label_w, true) + " ";
        for (std::size_t j = 0; j < shown; ++j) out += preview_cell(plot.values(i, j), lo, hi, colour);
        out += std::string(colour ? "\x1b[0m" : "") + (shown < cols ? " …" : "") + "\n";
    }
    const std::string indent(label_w + 1, ' ');
    const auto trimmed = [](std::string line) { return line.erase(line.find_last_not_of(' ') + 1); };
    if (plot.x_tick_labels.empty()) out += trimmed(indent + preview_column_ruler(shown)) + "\n";
    for (const std::string& line : preview_column_labels(plot.x_tick_labels, shown))
        out += trimmed(indent + line) + "\n";
    return out + preview_scale(plot, lo, hi, colour, shown) + "\n";
}

}  // namespace attn::plot
