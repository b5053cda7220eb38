// The progress bar (see progress.hpp). Introduced in chapter 00.
#include "common/progress.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace attn {

std::string format_duration(double seconds) {
    const long total = std::lround(seconds);
    char text[32];
    if (total < 60) std::snprintf(text, sizeof text, "%lds", total);
    else std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
    return text;
}

ProgressBar::ProgressBar(std::string what, std::size_t total_steps)
    : what_(std::move(what)), total_(total_steps), terminal_(::isatty(STDOUT_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {
    next_log_step_ = std::max<std::size_t>(1, total_ / 10);
}

ProgressBar::~ProgressBar() { finish(); }

double ProgressBar::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string ProgressBar::line(std::size_t steps_done, double loss) const {
    const double elapsed = seconds();
    const double rate = elapsed > 0 ? static_cast<double>(steps_done) / elapsed : 0.0;
    const double left = rate > 0 ? static_cast<double>(total_ - steps_done) / rate : 0.0;
    std::ostringstream text;
    text << what_ << " ";
    if (terminal_) {
        constexpr int width = 24;
        const int filled = total_ ? static_cast<int>(width * steps_done / total_) : width;
        text << "[" << std::string(filled, '#') << std::string(width - filled, '.') << "] ";
    }
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "%zu/%zu  loss %.4f  %.1f steps/s  %s %s", steps_done, total_, loss,
                  rate, steps_done < total_ ? "ETA" : "took", format_duration(steps_done < total_ ? left : elapsed).c_str());
    text << numbers;
    return text.str();
}

void ProgressBar::update(std::size_t steps_done, double loss) {
    last_done_ = steps_done;
    last_loss_ = loss;
    const auto now = std::chrono::steady_clock::now();
    if (terminal_) {
        // Redraw at most 10 times a second: printing every step would slow small models down.
        if (now - last_draw_ < std::chrono::milliseconds(100) && steps_done < total_) return;
        last_draw_ = now;
        std::cout << "\r\033[2K" << line(steps_done, loss) << std::flush;
    } else if (steps_done >= next_log_step_ && steps_done < total_) {
        std::cout << line(steps_done, loss) << "\n";
        next_log_step_ += std::max<std::size_t>(1, total_ / 10);
    }
}

void ProgressBar::finish() {
    if (finished_) return;
    finished_ = true;
    if (last_done_ == 0) {   // stopped before the first step (an error): nothing to report
        if (terminal_) std::cout << "\r\033[2K" << std::flush;
        return;
    }
    if (terminal_) std::cout << "\r\033[2K";
    std::cout << line(last_done_, last_loss_) << "\n" << std::flush;
}

}  // namespace attn
