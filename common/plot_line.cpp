// Line plots (see plot.hpp): several series, optional log axes, tick labels, a legend.
// Introduced in chapter 00.
#include "common/plot_support.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace attn::plot {
namespace {

using namespace detail;

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

// gnuplot labels only the powers of ten on a log axis, which leaves a short range (a loss
// going from 5.8 to 3.1, say) with one label or none. Over fewer than four decades we label
// the 1-2-5 steps, or finer steps until at least four labels fall inside the data.
std::string log_tics(const char* axis, double lo, double hi) {
    if (!(lo > 0) || !(hi > lo) || hi / lo > 1e4) return "";
    const int first = static_cast<int>(std::floor(std::log10(lo)));
    const int last = static_cast<int>(std::ceil(std::log10(hi)));
    const std::vector<std::vector<double>> steps = {
        {1, 2, 5}, {1, 2, 3, 5}, {1, 1.5, 2, 3, 4, 5, 6, 7, 8}, {1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9}};
    std::vector<double> chosen;
    for (const std::vector<double>& mantissas : steps) {
        chosen.clear();
        for (int e = first; e <= last; ++e)
            for (const double m : mantissas) {
                const double v = m * std::pow(10.0, e);
                if (v >= lo / 1.05 && v <= hi * 1.05) chosen.push_back(v);
            }
        if (chosen.size() >= 4) break;
    }
    // A step that ends far inside the data (20000 under a top of 38000) leaves the end of the
    // axis unread: label the data's own end there, to one digit (30000), inside the data.
    const auto one_digit = [](double v, bool up) {
        const double unit = std::pow(10.0, std::floor(std::log10(v)));
        return (up ? std::ceil(v / unit) : std::floor(v / unit)) * unit;
    };
    if (!chosen.empty() && chosen.back() < hi / 1.5) chosen.push_back(one_digit(hi, false));
    if (!chosen.empty() && chosen.front() > lo * 1.5) chosen.insert(chosen.begin(), one_digit(lo, true));
    std::string list;
    for (const double v : chosen) list += std::string(list.empty() ? "" : ", ") + number(v);
    return list.empty() ? "" : std::string("set ") + axis + "tics add (" + list + ")\n";
}

std::string line_plot_settings(const LinePlot& plot) {
    std::string out = titles(plot.title, plot.xlabel, plot.ylabel);
    out += "set border 3 lw 1.2             # axes on the left and bottom only\n"
           "set tics nomirror out\n"
           "set grid xtics ytics mxtics mytics lt 1 lc rgb '#DDDDDD' lw 1, lt 1 lc rgb '#EFEFEF' lw 1\n"
           "set autoscale fix\n"
           "set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05  # a little air around the data\n";
    if (plot.legend == "outside")
        out += "set key outside right top Left reverse samplen 2.5 spacing 1.3  # beside the data\n";
    else if (plot.legend == "below")
        out += "set key below Left reverse samplen 2.5 spacing 1.3 maxcols 1  # under the axis label\n";
    else
        out += "set key inside " + plot.legend + " Left reverse samplen 2.5 spacing 1.3 box opaque\n";
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
        if (series.colour >= 0) colour_index = static_cast<std::size_t>(series.colour);
        const std::string colour = gp_quote(series.reference ? "#888888" : hex_colour(colour_of(colour_index)));
        // Reference points are open rings, larger than the markers, so that a model's point on
        // the same spot still shows inside its ring.
        const std::string points = series.reference ? "with points pt 6 ps 2.4 lw 1.5" : "with points pt 7 ps 1.4";
        std::string style = series.points    ? points
                            : series.markers ? "with linespoints lw 2 pt 7 ps 1.3"
                                             : "with lines lw 2";
        if ((series.dashed || series.reference) && !series.points) style += " dt 2";
        const std::string title = series.label.empty() ? "notitle" : "title " + gp_quote(series.label);
        out += std::string(drawn++ ? ", \\\n     " : "") + gp_quote(block == 0 ? name + ".dat" : "") +
               " index " + std::to_string(block) + " using 1:2 " + style + " lc rgb " + colour + " " + title;
        ++block;
    }
    return out + "\n";
}

}  // namespace

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


}  // namespace attn::plot
