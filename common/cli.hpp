// Command-line flags for every chapter executable: `--name value` or `--name=value`,
// `--help`, and a one-line error with exit code 2 for anything else. Introduced in chapter 00.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

// 2^53 - 1: the largest whole number a double (JavaScript's only number, Python's float) holds exactly.
constexpr long long largest_exact_integer = 9007199254740991LL;

// A mistake on the command line; the program prints it with the usage and exits with 2.
struct UsageError : std::runtime_error {
    explicit UsageError(const std::string& what, std::string usage_line = "")
        : std::runtime_error(what), usage(std::move(usage_line)) {}
    std::string usage;   // the program's usage line, filled in by CommandLine::parse
};

// A file the user pointed at is missing or malformed (a corpus, a checkpoint): the program
// prints the one-line message and exits with 2, like a usage error, having written nothing.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CommandLine {
public:
    CommandLine(std::string program, std::string about);

    // Each call binds a flag to a variable; its current value is the default shown in --help.
    void flag(const std::string& name, bool* target, const std::string& help);
    // An integer outside [min_value, max_value] is refused with a message that gives the bound.
    void option(const std::string& name, int* target, const std::string& help, int min_value = INT32_MIN,
                int max_value = INT32_MAX);
    // A whole number from 0 to largest_exact_integer (a seed): summary.json records it digit for digit.
    void option(const std::string& name, std::uint64_t* target, const std::string& help);
    void option(const std::string& name, double* target, const std::string& help);
    // value_name is what --help shows after the flag: FILE, DIR, SENTENCE, ...
    void option(const std::string& name, std::string* target, const std::string& help,
                const std::string& value_name = "TEXT");

    // Parses argv into the bound variables. Returns false if --help was asked for (the help
    // has then been printed). Throws UsageError on an unknown flag, a missing or bad value.
    bool parse(int argc, const char* const* argv);

    bool given(const std::string& name) const;   // was the flag on the command line?
    std::string usage() const;                   // "usage: ch00 [--quick] [--steps N] ..."
    std::string help() const;
    const std::string& program() const { return program_; }

private:
    struct Entry {
        std::string name, help, value_name, default_text;
        bool takes_value = true;
        std::function<void(const std::string&)> set;
        bool given = false;
    };
    Entry& add(const std::string& name, const std::string& help, const std::string& value_name,
               const std::string& default_text);
    Entry* find(const std::string& name);
    // "unknown flag --NAME", with the closest flag there is when a typo explains it.
    std::string unknown_flag_message(const std::string& name) const;
    bool parse_or_throw(int argc, const char* const* argv);

    std::string program_, about_;
    std::vector<Entry> entries_;
};

// The settings every chapter executable shares (docs/design.md, "Where runs go").
struct RunSettings {
    bool quick = false;              // CI-sized run: a few seconds
    int steps = 0;                   // training steps; 0 = the chapter's default for this mode
    std::uint64_t seed = 42;
    std::string out;                 // output folder; empty = out/NN_topic (out/mine/NN_topic for --mine)
    std::string variant = "reference";   // "reference" or "mine"
};

// The most --steps a run accepts: ten million steps are days of training on a laptop.
constexpr int max_steps = 10'000'000;
// Whose code the run uses, for the first line of a chapter's output: "reference code" or
// "your code" (a learner's build, --mine).
std::string code_name(const RunSettings& settings);

// Binds --quick, --steps, --seed and --out. `chapter_dir` is e.g. "00_foundations".
void add_standard_flags(CommandLine& cli, RunSettings& settings, const std::string& chapter_dir);

// Fills in what depends on other flags: the variant (from the program name: ch00_mine is
// the learner's build), the default output folder, and steps = quick_steps or
// default_steps unless --steps was given. Throws InputError if the output folder cannot be
// written (it is a file, or a folder we may not write in), before any work is done.
void finish_standard_flags(const CommandLine& cli, RunSettings& settings, const std::string& chapter_dir,
                           int default_steps, int quick_steps);

// The exercises of earlier chapters for which a --mine program runs the reference code, the
// learner's being still stubs ("03.2 03.3"): set once, before main, by a file the build
// generates for each chapter's --mine program (cmake/CourseChapter.cmake); empty otherwise.
// A --mine run prints them when it starts and in its summary, and records them in summary.json.
const std::string& reference_stand_ins();
bool set_reference_stand_ins(const char* ids);

// Runs a chapter's body and turns failures into exit codes: UsageError -> one line, the
// usage, exit 2; InputError -> one line, exit 2; any other exception -> "error: ..." and exit 1 (a learner's unfinished
// exercise included, with the command that checks it).
int run_program(const std::string& program, const std::function<int()>& body);

}  // namespace attn
