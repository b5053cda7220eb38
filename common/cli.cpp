// Command-line flags (see cli.hpp). Introduced in chapter 00.
#include "common/cli.hpp"

#include "common/files.hpp"
#include "common/memory.hpp"
#include "common/output_claim.hpp"
#include "common/runtime.hpp"
#include "common/summary.hpp"
#include "common/tensor.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <regex>
#include <sstream>
#include <sys/resource.h>

namespace attn {

namespace {

std::string format_double(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

// "at least 1", "at most 9", "between 1 and 4096", or "" when any int is allowed.
std::string bounds_text(long long low, long long high) {
    const bool has_low = low > INT32_MIN, has_high = high < INT32_MAX;
    if (has_low && has_high) return "between " + std::to_string(low) + " and " + std::to_string(high);
    if (has_low) return "at least " + std::to_string(low) + " and at most " + std::to_string(high);
    if (has_high) return "at most " + std::to_string(high);
    return "between " + std::to_string(low) + " and " + std::to_string(high);
}

// `bounds` says what range is allowed, for the message about a number too large to read.
long long parse_integer(const std::string& flag, const std::string& text,
                        const std::function<std::string()>& bounds = {}) {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
        throw UsageError("--" + flag + " expects a whole number, got '" + text + "'");
    if (errno == ERANGE)
        throw UsageError("--" + flag + " is too large" + (bounds ? ": it must be " + bounds() : std::string()) +
                         ", got " + text);
    return value;
}

}  // namespace

CommandLine::CommandLine(std::string program, std::string about)
    : program_(std::move(program)), about_(std::move(about)) {}

CommandLine::Entry& CommandLine::add(const std::string& name, const std::string& help,
                                     const std::string& value_name, const std::string& default_text) {
    entries_.push_back(Entry{name, help, value_name, default_text, true, {}, false});
    return entries_.back();
}

CommandLine::Entry* CommandLine::find(const std::string& name) {
    for (Entry& entry : entries_)
        if (entry.name == name) return &entry;
    return nullptr;
}

namespace {

// Edits (insert, delete, replace a character) from a to b: Levenshtein's distance.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string CommandLine::unknown_flag_message(const std::string& name) const {
    // A flag the name shortens or extends (--mem, --budget, --out-dir) is the one meant, if only
    // one fits so; else a typo is one or two edits from it, and farther than that a guess misleads.
    const Entry* closest = nullptr;
    std::size_t containing = 0;
    for (const Entry& entry : entries_)
        if (name.size() >= 3 && (entry.name.find(name) != std::string::npos || name.find(entry.name) != std::string::npos))
            ++containing, closest = &entry;
    if (containing != 1) {
        closest = nullptr;
        std::size_t best = 3;
        for (const Entry& entry : entries_) {
            const std::size_t distance = edit_distance(name, entry.name);
            if (distance < best) best = distance, closest = &entry;
        }
    }
    return "unknown flag --" + name + (closest ? " (did you mean --" + closest->name + "?)" : "");
}

void CommandLine::flag(const std::string& name, bool* target, const std::string& help) {
    Entry& entry = add(name, help, "", "");
    entry.takes_value = false;
    entry.set = [target](const std::string&) { *target = true; };
}

void CommandLine::option(const std::string& name, int* target, const std::string& help, int min_value, int max_value) {
    add(name, help, "N", std::to_string(*target)).set = [=](const std::string& text) {
        const long long value = parse_integer(name, text, [&] { return bounds_text(min_value, max_value); });
        if (value < min_value || value > max_value)
            throw UsageError("--" + name + " must be " + bounds_text(min_value, max_value) + ", got " + text);
        *target = static_cast<int>(value);
    };
}

void CommandLine::option(const std::string& name, std::uint64_t* target, const std::string& help) {
    add(name, help, "N", std::to_string(*target)).set = [=](const std::string& text) {
        const std::string allowed = "between 0 and " + std::to_string(largest_exact_integer) +
                                    " (2^53 - 1, the largest whole number every JSON reader keeps exactly)";
        const long long value = parse_integer(name, text, [&] { return allowed; });
        if (value < 0 || value > largest_exact_integer) throw UsageError("--" + name + " must be " + allowed + ", got " + text);
        *target = static_cast<std::uint64_t>(value);
    };
}

void CommandLine::option(const std::string& name, double* target, const std::string& help) {
    add(name, help, "X", format_double(*target)).set = [=](const std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        // strtod also reads " 5" and hexadecimal ("0x10"): a number here is written in decimal.
        if (text.empty() || *end != '\0' || !std::isfinite(value) || std::isspace(static_cast<unsigned char>(text[0])) ||
            text.find_first_of("xX") != std::string::npos)
            throw UsageError("--" + name + " expects a number, got '" + text + "'");
        *target = value;
    };
}

void CommandLine::option(const std::string& name, std::string* target, const std::string& help,
                         const std::string& value_name) {
    add(name, help, value_name, *target).set = [=](const std::string& text) {
        if (text.empty()) throw UsageError("--" + name + " expects a value, got an empty string");
        *target = text;
    };
}

bool CommandLine::parse(int argc, const char* const* argv) {
    try {
        return parse_or_throw(argc, argv);
    } catch (const UsageError& error) {
        throw UsageError(error.what(), usage());
    }
}

bool CommandLine::parse_or_throw(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::cout << help();
            return false;
        }
        if (arg == "--")
            throw UsageError("'--' is not used here: give each flag its value directly (--translate=--x for a value "
                             "that starts with --)");
        if (arg.rfind("--", 0) != 0)
            throw UsageError("unexpected argument '" + arg + "' (flags start with --)");
        const std::size_t equals = arg.find('=');
        const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        if (name == "help") throw UsageError("--help takes no value");
        Entry* entry = find(name);
        if (entry == nullptr) throw UsageError(unknown_flag_message(name));
        if (entry->given) throw UsageError("--" + name + " is given twice");
        entry->given = true;
        if (!entry->takes_value) {
            if (equals != std::string::npos) throw UsageError("--" + name + " takes no value");
            entry->set("");
        } else if (equals != std::string::npos) {
            entry->set(arg.substr(equals + 1));
        } else {
            if (i + 1 >= argc) throw UsageError("--" + name + " needs a value (--" + name + " " + entry->value_name + ")");
            // `--out --quick` forgot the folder: a value that names a flag is that flag.
            const std::string next = argv[i + 1];
            const std::string next_name = next.rfind("--", 0) == 0 ? next.substr(2, next.find('=') - 2) : "";
            if (!next_name.empty() && (next_name == "help" || find(next_name) != nullptr))
                throw UsageError("--" + name + " needs a value (--" + name + " " + entry->value_name + "); '" + next +
                                 "' is a flag (--" + name + "=" + next + " if you mean it as the value)");
            entry->set(argv[++i]);
        }
    }
    return true;
}

bool CommandLine::given(const std::string& name) const {
    for (const Entry& entry : entries_)
        if (entry.name == name) return entry.given;
    return false;
}

std::string CommandLine::usage() const {
    std::string line = "usage: " + program_;
    for (const Entry& entry : entries_)
        line += " [--" + entry.name + (entry.takes_value ? " " + entry.value_name : "") + "]";
    return line;
}

std::string CommandLine::help() const {
    std::ostringstream text;
    text << program_ << ": " << about_ << "\n\n" << usage() << "\n\nflags:\n";
    for (const Entry& entry : entries_) {
        std::string left = "  --" + entry.name + (entry.takes_value ? " " + entry.value_name : "");
        left.resize(std::max<std::size_t>(left.size() + 2, 22), ' ');
        text << left << entry.help;
        const bool says_default = entry.help.find("default") != std::string::npos;
        if (entry.takes_value && !entry.default_text.empty() && !says_default)
            text << " (default: " << entry.default_text << ")";
        text << "\n";
    }
    text << "  --help              show this help\n";
    return text.str();
}

std::string code_name(const RunSettings& settings) {
    return settings.variant == "mine" ? "your code" : "reference code";
}

void add_standard_flags(CommandLine& cli, RunSettings& settings, const std::string& chapter_dir) {
    cli.flag("quick", &settings.quick, "small, fast settings (what CI and `course demo` run)");
    cli.option("steps", &settings.steps, "training steps (default: the chapter's, smaller with --quick)", 1, max_steps);
    cli.option("seed", &settings.seed, "random seed: the same seed gives the same run");
    cli.option("out", &settings.out, "folder for plots and summary.json (default: out/" + chapter_dir + ")", "DIR");
}

void finish_standard_flags(const CommandLine& cli, RunSettings& settings, const std::string& chapter_dir,
                           int default_steps, int quick_steps) {
    const std::string& program = cli.program();
    const bool mine = program.size() >= 5 && program.compare(program.size() - 5, 5, "_mine") == 0;
    settings.variant = mine ? "mine" : "reference";
    if (settings.out.empty()) settings.out = default_out_dir(chapter_dir, mine).string();   // from the course's folder
    if (!cli.given("steps")) settings.steps = settings.quick ? quick_steps : default_steps;
    try {
        check_writable_folder(settings.out, "--out");   // now, not after minutes of training
        namespace fs = std::filesystem;
        std::error_code error;
        // The folder itself or any folder above it: figures inside a checkpoint keep later saves from replacing it.
        for (fs::path at = fs::weakly_canonical(fs::absolute(settings.out), error); !at.empty(); at = at.parent_path()) {
            if (fs::exists(at / ".written-by-save-checkpoint", error))
                throw std::runtime_error("--out " + settings.out + ": " +
                                         (at == fs::weakly_canonical(fs::absolute(settings.out), error)
                                              ? std::string("it is a checkpoint folder (written by --save)")
                                              : "it lies inside the checkpoint folder " + at.string() + " (written by --save)") +
                                         "; figures there would keep later saves from replacing it, so choose another folder");
            if (at == at.parent_path()) break;
        }
        claim_output_folder(settings.out, "--out");   // a second run into it now is refused before any work
    } catch (const std::runtime_error& error) {
        throw InputError(error.what());
    }
    if (mine && !reference_stand_ins().empty())
        std::cout << "note: your exercises " << reference_stand_ins() << " of earlier chapters are still stubs; this run "
                  << "uses the reference code for them (./course progress shows what is left)\n";
}

namespace {
// The address space a run needs at least: measured, ch00 --quick ran under `ulimit -v 320000`.
constexpr rlim_t smallest_address_space = rlim_t{384} << 20;

// Whether everything the program printed reached its standard output. A full disk or a closed
// pipe shows only here, when the buffers are written out.
bool standard_output_written() {
    std::cout.flush();
    const bool stream_ok = !std::cout.fail();
    return std::fflush(stdout) == 0 && !std::ferror(stdout) && stream_ok;
}
}  // namespace

namespace {
std::string& stand_ins() {
    static std::string ids;
    return ids;
}
}  // namespace

const std::string& reference_stand_ins() { return stand_ins(); }

bool set_reference_stand_ins(const char* ids) {
    stand_ins() = ids;
    return true;
}

int run_program(const std::string& program, const std::function<int()>& body) {
    // Under a smaller address-space limit OpenBLAS cannot reserve its 128 MiB work buffer and
    // retries for ever, even at exit (`ulimit -v 250000`: a run hung at full CPU). So the program
    // says so and ends at once, without the exit handlers that would call into OpenBLAS.
    rlimit address_space{};
    if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY &&
        address_space.rlim_cur < smallest_address_space) {
        std::cerr << program << ": the address-space limit (ulimit -v) is " << memory_text(address_space.rlim_cur)
                  << ", and any run of the course needs at least " << memory_text(smallest_address_space)
                  << " (its linear-algebra library alone reserves 128 MiB); raise the limit" << std::endl;
        std::_Exit(2);
    }
    tune_runtime();
    try {
        const int status = body();
        if (!standard_output_written()) {
            std::cerr << program << ": cannot write to the standard output: " << std::strerror(errno)
                      << " (a full disk or a closed pipe?)\n";
            return 1;
        }
        return status;
    } catch (const UsageError& error) {
        std::cerr << program << ": " << error.what() << "\n";
        if (!error.usage.empty()) std::cerr << error.usage << "\n";
        return 2;
    } catch (const InputError& error) {
        std::cerr << program << ": " << error.what() << "\n";
        return 2;
    } catch (const NotImplemented& error) {
        // "not implemented yet: exercise 00.1 in exercises/..." -> point at the check command.
        static const std::regex chapter_of(R"(exercise ([0-9]{2})\.)");
        std::smatch match;
        const std::string message = error.what();
        std::cerr << program << ": " << message;
        if (std::regex_search(message, match, chapter_of)) std::cerr << " (check it with ./course check " << match[1] << ")";
        std::cerr << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        // The estimates (common/memory.hpp) refuse what cannot fit before the work starts; this
        // is what they missed, such as a limit set with `ulimit -v`.
        std::cerr << program << ": out of memory: the run needed more than this system lets it have (a limit set with "
                  << "`ulimit -v`, or other programs); run with smaller settings, or free memory\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << program << ": error: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace attn
