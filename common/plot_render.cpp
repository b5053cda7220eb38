// Rendering a figure's script with gnuplot (see plot_support.hpp): into a folder of the
// render's own, checked to be complete, then renamed into place. Introduced in chapter 00.
#include "common/plot_support.hpp"

#include "common/files.hpp"
#include "common/marked_folder.hpp"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace attn::plot::detail {

namespace {

// Each render works in DIR/.render<pid>_<n>/, whose first file is this marker: a folder of
// that name is removed by a later run only when its process is gone and it holds the marker
// (or nothing), so a folder of the learner's with such a name is never touched.
const std::string render_marker = ".written-by-attn-plot";
const std::string render_prefix = ".render";

bool ends_with(const std::string& text, const std::string& end) {
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string read_or_empty(const fs::path& path) {
    try {
        return read_text(path);
    } catch (const std::runtime_error&) {
        return "";
    }
}

// ".render<pid>_<n>" -> pid, or 0 when the name is not a render folder's.
pid_t render_folder_pid(const std::string& name) {
    if (name.compare(0, render_prefix.size(), render_prefix) != 0) return 0;
    const std::size_t underscore = name.find('_', render_prefix.size());
    const std::string pid = name.substr(render_prefix.size(), underscore - render_prefix.size());
    if (underscore == std::string::npos || pid.empty() || pid.size() > 10 ||
        pid.find_first_not_of("0123456789") != std::string::npos ||
        name.size() == underscore + 1 || name.find_first_not_of("0123456789", underscore + 1) != std::string::npos)
        return 0;
    const long long value = std::stoll(pid);
    return value > 0 && value <= std::numeric_limits<pid_t>::max() ? static_cast<pid_t>(value) : 0;
}

// True when `folder` holds exactly one entry, a file named `name`.
bool only_entry_is(const fs::path& folder, const std::string& name) {
    std::error_code error;
    std::size_t entries = 0;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (++entries > 1 || it->path().filename() != name || !fs::is_regular_file(it->symlink_status(error))) return false;
    return !error && entries == 1;
}

// Removes the render folders of runs that were killed (their process gone) in `where`.
void remove_stale_render_folders(const fs::path& where) {
    std::error_code error;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(where, error), end; !error && it != end; it.increment(error)) {
        const pid_t pid = render_folder_pid(it->path().filename().string());
        if (pid == 0 || process_alive(pid) || !fs::is_directory(fs::symlink_status(it->path(), error))) continue;
        if (fs::is_regular_file(fs::symlink_status(it->path() / render_marker, error)) || fs::is_empty(it->path(), error))
            stale.push_back(it->path());
        else if (only_entry_is(it->path(), render_marker + ".tmp" + std::to_string(pid)))   // killed while marking it
            stale.push_back(it->path());
    }
    for (const fs::path& folder : stale) remove_marked_folder(folder, render_marker);   // the marker last: a kill here leaves it marked
}

// Numbers this process's render folders (.render<pid>_<n>).
std::atomic<unsigned> renders{0};

// When this process started, near enough (static initialisation): a file older than this was
// written by an earlier run.
const fs::file_time_type process_start = fs::file_time_type::clock::now();

// The folders this process has drawn into: the earlier runs' figures there go before the first
// figure of this one, so that a run cut short (a full disk) leaves no mixture of two runs.
std::set<fs::path>& folders_drawn_into() {
    static std::set<fs::path> folders;
    return folders;
}

// The record, in each folder, of the figures the course's runs drew there, one name a line: a
// figure is removed as an earlier run's only when it is listed, so no script of the learner's is
// ever taken for one (not even a copy whose every mention of the name was replaced).
const std::string figure_record = ".figures-drawn-by-attn";

std::set<std::string> recorded_figures(const fs::path& dir) {
    std::istringstream lines(read_or_empty(dir / figure_record));
    std::set<std::string> names;
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) names.insert(line);
    return names;
}

void write_record(const fs::path& dir, const std::set<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += name + "\n";
    write_text_atomically(dir / figure_record, text);
}

// The scripts this process wrote (write_and_render), so that remove_earlier_figures keeps them.
std::mutex written_lock;
std::set<fs::path>& written_scripts() {
    static std::set<fs::path> scripts;
    return scripts;
}

fs::path identity(const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return error ? path.lexically_normal() : canonical;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

}  // namespace

unsigned next_render_number() { return renders.load(); }

std::string first_error_line(const std::string& errors) {
    std::istringstream lines(errors);
    std::string line, first;
    while (std::getline(lines, line)) {
        if (line.find(".gp\" line ") != std::string::npos) return line;
        if (first.empty() && line.find_first_not_of(" \t^") != std::string::npos) first = line;
    }
    return first.empty() ? "no error message" : first;
}

bool complete_png(const fs::path& path) {
    // The 8-byte signature first, the empty IEND chunk (length, type, CRC) last.
    static const std::string signature("\x89PNG\r\n\x1a\n", 8), iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    const std::string bytes = read_or_empty(path);
    return bytes.compare(0, signature.size(), signature) == 0 && bytes.size() > signature.size() + iend.size() &&
           ends_with(bytes, iend);
}

bool complete_svg(const fs::path& path) {
    std::string text = read_or_empty(path);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    return text.find("<svg") != std::string::npos && ends_with(text, "</svg>");
}

std::pair<bool, std::string> run_gnuplot(const fs::path& where, const std::string& script, const fs::path& log_folder) {
    std::error_code error;
    // mkstemp: a name no other user can guess and plant a link at. In the render's own folder,
    // a killed render's log goes with the folder.
    const fs::path absolute_folder = fs::absolute(log_folder, error);   // the command runs in `where`
    std::string log = ((error ? log_folder : absolute_folder) / "gnuplot_errors_XXXXXX").string();
    const int fd = ::mkstemp(log.data());
    if (fd < 0) log = "/dev/null";
    else ::close(fd);
    // "./" before a relative folder: one named like "-w" is not an option of cd.
    const std::string folder = where.is_relative() ? "./" + where.string() : where.string();
    const std::string command = "cd " + shell_quote(folder) + " && gnuplot " +
                                shell_quote(script) + " </dev/null >/dev/null 2>" + shell_quote(log);
    const int status = std::system(command.c_str());
    std::string errors;
    if (fd >= 0) {
        errors = read_or_empty(log);
        fs::remove(log, error);
    }
    // std::system ignores Ctrl-C (SIGINT) and SIGQUIT in this process while gnuplot runs; the
    // shell and gnuplot die of it. Die of it too, as the learner asked: the render's folder is
    // left as a kill leaves it, for the next render to remove.
    for (const int sig : {SIGINT, SIGQUIT})
        if (status != -1 && ((WIFSIGNALED(status) && WTERMSIG(status) == sig) ||
                             (WIFEXITED(status) && WEXITSTATUS(status) == 128 + sig)))
            std::raise(sig);
    const bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return {ok, errors};
}

Files write_and_render(const fs::path& dir, const std::string& name, const std::string& script) {
    const fs::path where = dir.empty() ? fs::path(".") : dir;
    Files files{where / (name + ".gp"), where / (name + ".svg"), where / (name + ".png"), false, ""};
    bool first_here = false;
    {
        const std::lock_guard<std::mutex> hold(written_lock);
        first_here = folders_drawn_into().insert(identity(where)).second;
    }
    // Not this figure (its data is written already; the render replaces the rest), and only
    // files older than this process: another run drawing into the same folder now keeps its own.
    if (first_here) remove_figures(where, true, name);
    write_text_atomically(files.script, script);
    {
        const std::lock_guard<std::mutex> hold(written_lock);
        written_scripts().insert(identity(files.script));
        std::set<std::string> names = recorded_figures(where);
        if (names.insert(name).second) write_record(where, names);
    }
    if (!gnuplot_available()) {
        files.note = "gnuplot not found: install gnuplot-nox, then run `gnuplot " + name +
                     ".gp` in " + where.string();
        return files;
    }
    remove_stale_render_folders(where);
    // gnuplot writes into a folder of this render's own; the figures are renamed into place
    // only when complete, so neither a kill, a full disk nor a second run writing the same
    // folder leaves a half-written figure under its final name.
    // The folder is new: a folder of the same name (the user's) is never written into or removed.
    std::string own;
    std::error_code error;
    for (int attempt = 0; attempt < 100; ++attempt) {
        own = render_prefix + std::to_string(::getpid()) + "_" + std::to_string(renders++);
        if (fs::create_directory(where / own, error) || error) break;
    }
    const fs::path own_dir = where / own, own_svg = own_dir / (name + ".svg"), own_png = own_dir / (name + ".png");
    std::string own_script = script;
    replace_all(own_script, "set output " + gp_quote(name + ".svg"), "set output " + gp_quote(own + "/" + name + ".svg"));
    replace_all(own_script, "set output " + gp_quote(name + ".png"), "set output " + gp_quote(own + "/" + name + ".png"));
    bool ok = false;
    std::string errors;
    try {
        if (error || !fs::is_directory(own_dir))
            throw std::runtime_error(own_dir.string() + ": cannot create the render's folder" + (error ? ": " + error.message() : ""));
        write_text_atomically(own_dir / render_marker, "A figure being rendered by the course (common/plot_render.cpp).\n");
        write_text_atomically(own_dir / (name + ".gp"), own_script);
        std::tie(ok, errors) = run_gnuplot(where, own + "/" + name + ".gp", own_dir);   // relative: the data files are in `where`
        replace_all(errors, own + "/" + name + ".gp", name + ".gp");
    } catch (const std::runtime_error& failure) {   // no room even for the script: the render fails
        errors = failure.what();
    }
    files.rendered = ok && complete_svg(own_svg) && complete_png(own_png);
    if (files.rendered) {
        fs::rename(own_svg, files.svg, error);
        if (!error) fs::rename(own_png, files.png, error);
        files.rendered = !error;
    }
    if (!files.rendered) {   // a failed render never leaves last run's figure looking current
        fs::remove(files.svg, error);
        fs::remove(files.png, error);
    }
    remove_marked_folder(own_dir, render_marker);   // the marker last, so a kill here leaves a folder the next render takes
    if (!ok) files.note = "gnuplot failed on " + files.script.string() + ": " + first_error_line(errors);
    else if (!files.rendered) files.note = "gnuplot did not write a complete " + files.png.string() + " (is the disk full?)";
    return files;
}

void remove_figures(const fs::path& dir, bool only_older_than_this_run, const std::string& keep) {
    std::error_code error;
    std::vector<fs::path> earlier;
    std::set<std::string> recorded;
    {
        const std::lock_guard<std::mutex> hold(written_lock);
        recorded = recorded_figures(dir);
    }
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        const fs::path script = it->path();
        if (script.extension() != ".gp" || !fs::is_regular_file(fs::symlink_status(script, error))) continue;
        if ((!keep.empty() && script.stem() == keep) || !recorded.count(script.stem().string())) continue;
        {
            const std::lock_guard<std::mutex> hold(written_lock);
            if (written_scripts().count(identity(script))) continue;
        }
        // A figure of ours: the signature on the script's first line, and on its second the script's
        // own name (so a learner's copy under another name, header and all, is the learner's).
        std::ifstream in(script);
        std::string head, second;
        std::getline(in >> std::ws, head);
        std::getline(in, second);
        const std::string own_name = "gnuplot " + script.filename().string();
        const bool named_here = second.size() >= own_name.size() &&
                                second.compare(second.size() - own_name.size(), own_name.size(), own_name) == 0;
        if (head.find(script_signature) != std::string::npos && named_here) earlier.push_back(script);
    }
    for (const fs::path& script : earlier) {
        // The figure's files: NAME.svg, .png, .dat, the data files its script reads that are named
        // after it (NAME_grid.dat), and the script last, as it marks the figure.
        std::vector<fs::path> files;
        for (const char* extension : {".svg", ".png", ".dat"}) files.push_back(fs::path(script).replace_extension(extension));
        const std::string stem = script.stem().string(), text = read_or_empty(script);
        static const std::regex data_file(R"('([A-Za-z0-9_.-]+\.dat)')");
        for (std::sregex_iterator it(text.begin(), text.end(), data_file), end; it != end; ++it)
            if ((*it)[1].str().compare(0, stem.size() + 1, stem + "_") == 0) files.push_back(dir / (*it)[1].str());
        files.push_back(script);
        for (const fs::path& file : files) {
            if (only_older_than_this_run) {
                const fs::file_time_type written = fs::last_write_time(file, error);
                if (error || written >= process_start) continue;
            }
            fs::remove(file, error);
        }
    }
    if (earlier.empty()) return;
    const std::lock_guard<std::mutex> hold(written_lock);
    std::set<std::string> names = recorded_figures(dir);
    for (const fs::path& script : earlier)
        if (!fs::exists(script, error)) names.erase(script.stem().string());
    try {
        write_record(dir, names);
    } catch (const std::runtime_error&) {   // a full disk: the record keeps names of figures now gone, which is harmless
    }
}

}  // namespace attn::plot::detail

namespace attn::plot {

void remove_earlier_figures(const std::filesystem::path& dir) { detail::remove_figures(dir, false, ""); }

}  // namespace attn::plot
