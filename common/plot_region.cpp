// Decision regions (see plot.hpp): a classifier's prediction on a grid, the data on top.
// Introduced in chapter 00.
#include "common/plot_support.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace attn::plot {
namespace {

using namespace detail;

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

}  // namespace

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


}  // namespace attn::plot
