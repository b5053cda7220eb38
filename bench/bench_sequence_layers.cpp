// Self-attention vs. a GRU vs. a 1-D convolution (kernel 3): milliseconds and peak memory
// growth of one forward + backward pass (loss = sum of the outputs) at d = 64, batch 1,
// float32, n = 16, 32, ..., 2048 (layer_cost.hpp). Prints one JSON line per layer and length,
// then each layer's fitted log-log slope beside the theoretical one and the length where
// self-attention overtakes the GRU; writes the table and the figure to OUT_DIR.
// Against bench/sequence_layers_torch.py.
// Usage: bench_sequence_layers [--quick] [--up-to N] [OUT_DIR]; --quick measures n = 16 ... 1024 with
// 3 repetitions (a look at the shape, not numbers to quote); --up-to doubles n up to N instead of 2048
// (to see a crossover beyond the default range).
#include "bench/bench_harness.hpp"
#include "chapters/04_self_attention/layer_cost.hpp"
#include "common/files.hpp"
#include "common/runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

using namespace attn;

int main(int argc, char** argv) {
    bool quick = false;
    std::size_t up_to = 2048;
    std::filesystem::path out_dir = "build/bench/sequence_layers";
    int given = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") quick = true;
        else if (arg == "--up-to" && i + 1 < argc && std::atol(argv[i + 1]) >= 64) up_to = std::stoul(argv[++i]);
        else if (arg[0] != '-' && given++ == 0) out_dir = arg;
        else {
            std::cerr << "usage: bench_sequence_layers [--quick] [--up-to N >= 64] [OUT_DIR]   (default OUT_DIR: "
                         "build/bench/sequence_layers)\n";
            return 2;
        }
    }
    std::vector<std::size_t> lengths;
    for (std::size_t n = 16; n <= up_to; n *= 2) lengths.push_back(n);
    if (!tune_runtime().kept_freed_memory) std::cerr << "bench: mallopt was refused; timings include page faults\n";
    try {
        check_writable_folder(out_dir, "OUT_DIR");   // before the measurements, not after
        const std::size_t d = 64;
        const std::vector<ch04::CostPoint> points =
            quick ? ch04::measure_layer_costs({16, 64, 256, 512, 1024}, d, 3) : ch04::measure_layer_costs(lengths, d, 7);
        for (const ch04::CostPoint& p : points)
            std::cout << bench::json_line({"sequence layer fwd+bwd " + p.layer + " d" + std::to_string(d) + " n" + std::to_string(p.n), p.ms,
                                           "ms_per_call", {{"peak_mib_growth", p.peak_mib}}})
                      << std::endl;
        for (const std::string& layer : ch04::layer_names())
            std::printf("course %-15s log-log slope %.2f over the upper half of n (theory %.0f)\n", layer.c_str(),
                        ch04::fit_log_log(points, layer).slope, ch04::theoretical_slope(layer));
        if (const std::optional<double> n = ch04::attention_gru_crossover(points))
            std::printf("course self-attention costs more time than the GRU from n = %.0f on\n", *n);
        else
            std::printf("course self-attention stays cheaper than the GRU up to n = %zu\n", points.back().n);
        if (const std::optional<double> n = ch04::fitted_attention_gru_crossover(points))
            std::printf("course the fitted lines of self-attention and the GRU cross at n = %.0f\n", *n);
        const ch04::LayerCostFiles files = ch04::save_layer_costs(points, out_dir);
        std::printf("course table and figures: %s, %s, %s\n", files.table.c_str(),
                    (files.time.rendered ? files.time.png : files.time.script).c_str(),
                    (files.memory.rendered ? files.memory.png : files.memory.script).c_str());
    } catch (const std::exception& e) {
        std::cerr << "bench_sequence_layers: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
