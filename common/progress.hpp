// A progress bar for training loops: step, loss, steps/s and time left. On a terminal it
// redraws one line; in a log (CI, a pipe) it prints a plain line every tenth of the run.
// Introduced in chapter 00.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace attn {

class ProgressBar {
public:
    ProgressBar(std::string what, std::size_t total_steps);
    void update(std::size_t steps_done, double loss);   // call after each step
    void finish();                                      // final line; called by the destructor too
    ~ProgressBar();
    double seconds() const;                             // since construction

private:
    std::string line(std::size_t steps_done, double loss) const;

    std::string what_;
    std::size_t total_;
    bool terminal_;
    bool finished_ = false;
    std::size_t last_done_ = 0;
    double last_loss_ = 0.0;
    std::size_t next_log_step_ = 0;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

// Wall-clock time since construction, for the "seconds" of a run's summary.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// Seconds as "42s", "3m05s".
std::string format_duration(double seconds);

}  // namespace attn
