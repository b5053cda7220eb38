// The pieces every kind of figure shares (not part of the chapters' API): text measured in
// glyphs and quoted for gnuplot, the colours, name and label checks, and writing a script
// and rendering it. Used by plot_line.cpp, plot_region.cpp, plot_heatmap.cpp, plot_heatmap_grid.cpp,
// plot_preview.cpp.
#pragma once
#include "common/plot.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace attn::plot::detail {

namespace fs = std::filesystem;

inline constexpr int font_size = 12;           // points; the whole figure's base font
inline constexpr int title_font_size = 14;
inline const char* const font_name = "DejaVu Sans";

// Okabe-Ito colours: distinct for readers with colour-vision deficiencies. Yellow is left
// out (invisible on white); after these eight, the colours repeat.
inline constexpr std::array<std::uint32_t, 8> series_colours = {
    0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000, 0x7F7F7F};

// Viridis at nine stops: perceptually uniform and readable in greyscale.
inline constexpr std::array<std::pair<double, std::uint32_t>, 9> viridis = {{
    {0.000, 0x440154}, {0.125, 0x472D7B}, {0.250, 0x3B528B}, {0.375, 0x2C728E},
    {0.500, 0x21918C}, {0.625, 0x28AE80}, {0.750, 0x5EC962}, {0.875, 0xADDC30},
    {1.000, 0xFDE725}}};

// The k-th colour of a figure: a series of a line plot or a class of a region plot.
inline std::uint32_t colour_of(std::size_t k) { return series_colours[k % series_colours.size()]; }

// The colour of category c of a categorical heatmap: light grey for 0 (the background, e.g.
// "blocked"), then the series colours in order.
inline std::uint32_t category_colour(std::size_t c) { return c == 0 ? 0xD9D9D9 : colour_of(c - 1); }

// The colour of category c of this heatmap: its own when given, else category_colour(c).
inline std::uint32_t category_colour(const Heatmap& plot, std::size_t c) {
    return plot.category_colours.empty() ? category_colour(c) : plot.category_colours[c];
}


// ---- Text ---------------------------------------------------------------------------

// A gnuplot single-quoted string. Inside '...' only the quote needs escaping (as ''),
// backslashes stay literal, and a line break would end the command, so it becomes a space.
std::string gp_quote(const std::string& text);

// A POSIX shell single-quoted word: ' becomes '\''.
std::string shell_quote(const std::string& text);

// Numbers for data files and scripts: 9 significant digits, always with a '.' whatever the
// global locale says, and "NaN" (which gnuplot skips) for masked -inf scores and the like.
std::string number(double value);

std::string hex_colour(std::uint32_t rgb);

// Decodes the UTF-8 code point at text[i]; returns its length in bytes (1 for a bad byte,
// whose value is then returned as the code point so it still counts as one glyph).
std::size_t decode_utf8(const std::string& text, std::size_t i, char32_t& code_point);

bool is_combining(char32_t c);

// East Asian wide and fullwidth characters (and emoji) take two terminal columns.
bool is_wide(char32_t c);

struct Glyph {
    std::string text;   // one code point plus the combining marks that follow it
    int width;          // terminal columns: 1 or 2
};

// Splits UTF-8 text into glyphs, so "e" + U+0301 stays one glyph and "年" is one glyph
// two columns wide. Counting glyphs, not bytes, keeps padded labels aligned.
std::vector<Glyph> split_glyphs(const std::string& text);

// Text for a comment line: control characters (a line break would end it) become spaces.
std::string one_line(const std::string& text);

std::size_t display_width(const std::string& text);

// The label cut to at most `width` columns (ending in "…" when cut), padded with spaces
// to exactly `width` columns when `pad` is set.
std::string fit_label(const std::string& label, std::size_t width, bool pad);

// Rough width in pixels of text drawn at `points` by the cairo terminals (DejaVu Sans
// averages ~0.64 em per Latin character; CJK glyphs are a full em).
double text_pixels(const std::string& text, int points);

std::string shorten(const std::string& label, std::size_t max_columns);

// ---- Checks -------------------------------------------------------------------------

void check_name(const char* function, const std::string& name);

void check_count(const char* function, const char* labels, std::size_t got, std::size_t want,
                 const char* unit);

// ---- Scripts and rendering ------------------------------------------------------------

std::string terminal_line(const char* terminal, int width, int height);

// The end of every script's first line: what tells a figure of the course's from a learner's file.
inline const std::string script_signature = ", written by attn::plot (common/plot_*.cpp).";

// The top of every script: what it draws, how to re-render it, which data it reads, and the
// SVG terminal. `noenhanced` keeps _ and ^ in tokens literal instead of sub/superscripts.
std::string script_head(const std::string& what, const std::string& name,
                        const std::string& data_note, int width, int height);

// The bottom of every script: the same figure again as PNG.
std::string script_tail(const std::string& name, int width, int height,
                        const std::string& command = "replot\n");

std::string titles(const std::string& title, const std::string& xlabel, const std::string& ylabel);

// The line of gnuplot's error output worth showing: the `"NAME.gp" line N: ...` one if
// present (the lines before it only echo the command), else the first non-empty line.
std::string first_error_line(const std::string& errors);

// A figure file gnuplot finished: the PNG ends with its IEND chunk, the SVG with </svg>.
// (gnuplot exits 0 even when a full disk cut its output short.)
bool complete_png(const fs::path& path);
bool complete_svg(const fs::path& path);

// The number the next render folder of this process gets (.render<pid>_<n>); for tests.
unsigned next_render_number();

// Runs `gnuplot SCRIPT` inside `where`, its stderr captured in a temporary file (mkstemp) in
// `log_folder`.
std::pair<bool, std::string> run_gnuplot(const fs::path& where, const std::string& script, const fs::path& log_folder);

// Writes the script, then renders it when gnuplot is there: in a folder of this render's
// own (DIR/.render<pid>_<n>/), checked complete, then renamed into place, so a kill, a full
// disk or a second run writing the same folder never leaves a half-written figure under its
// final name. A killed render's folder is removed by the next render into DIR. A failed
// render removes the old SVG/PNG, so it never leaves last run's figure looking current.
Files write_and_render(const fs::path& dir, const std::string& name, const std::string& script);

// Removes the figures of other runs in `dir`: the .gp scripts that carry the plot module's header
// naming that very script (never the learner's files) and were not written by this process, with
// their .svg, .png and .dat. With `only_older_than_this_run`, only files older than this process
// (what the first figure of a run removes; plot::remove_earlier_figures removes them all), and
// never the figure named `keep` (the one being drawn).
void remove_figures(const fs::path& dir, bool only_older_than_this_run, const std::string& keep);

void check_heatmap(const char* function, const Heatmap& plot);

// The colour range: z_min/z_max where given, else the finite values' range, never empty.
std::pair<double, double> colour_range(const Heatmap& plot);

std::vector<std::string> tick_labels(const std::vector<std::string>& labels, std::size_t count);

// Throws std::invalid_argument, naming `function`, for a grid without panels, with panels of
// different shapes or a bad panel (check_heatmap), or with z_min not below z_max.
void check_grid(const char* function, const HeatmapGrid& plot);

// The one colour range of a grid's panels: colour_range's rules on all their values.
std::pair<double, double> shared_colour_range(const HeatmapGrid& plot);

}  // namespace attn::plot::detail
