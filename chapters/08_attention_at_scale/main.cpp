// Chapter 08, attention at scale and decoding: exact attention that never holds the n x n
// matrix of scores. Part 1 reads a row of scores block by block with the online softmax
// (8.1)-(8.4); part 2 cuts attention into tiles of queries against keys (FlashAttention's
// forward) and draws the tiling; part 3 computes the gradients by recomputing each tile from
// the log-sum-exp; part 4 times naive against tiled attention, and measures their memory, up
// to n = 32,768. Parts 5-7 (grouped-query attention, the key/value cache, beam search) are
// coming: this chapter is being written (issue 29).
#include "chapters/08_attention_at_scale/figures.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/summary.hpp"

#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch08;

namespace {

const std::string chapter_dir = "08_attention_at_scale";

void coming(int part, const char* title) { std::printf("\n%d. %s: coming (this chapter is being written).\n", part, title); }

// ---- 2. The tiling picture: which tiles of causal attention are computed.
void draw_the_tiling(Summary& summary, const std::filesystem::path& out) {
    const std::size_t n = 32, block = 8;
    const plot::Heatmap map = tiling_picture(n, block, block);
    std::printf("\n2. Tiled attention: the %zu x %zu scores of causal attention in tiles of %zu x %zu. The tiles above the\n"
                "   diagonal are never computed; the tiles on it are computed and then masked; figure in %s:\n",
                n, n, block, block, out.string().c_str());
    summary.figure(plot::save_and_report(map, out, "tiling"));
    std::cout << "\n" << plot::preview(map, ::isatty(STDOUT_FILENO) == 1);
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch08",
                    "attention at scale: the online softmax, exact attention in tiles (FlashAttention's forward "
                    "and its backward by recomputation), their time and memory against n");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, /*default_steps=*/0, /*quick_steps=*/0);
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 08: attention at scale and decoding (" << code_name(run) << ", seed " << run.seed << ")\n";

    coming(1, "The online softmax: one row of scores, read block by block");
    draw_the_tiling(summary, out);
    coming(3, "The backward pass by recomputation from the log-sum-exp");
    coming(4, "Naive against tiled attention: time and peak memory against n");
    coming(5, "Grouped-query attention: fewer key/value heads");
    coming(6, "Decoding with a key/value cache");
    coming(7, "Greedy decoding against beam search");

    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch08", [&] { return run(argc, argv); });
}
