// Saving and loading checkpoints (see checkpoint.hpp).
#include "common/nn/checkpoint.hpp"

#include "common/crc32.hpp"
#include "common/files.hpp"
#include "common/marked_folder.hpp"
#include "common/nn/npy.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iomanip>
#include <optional>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace attn {

namespace testing {
void (*after_save_step)(int step) = nullptr;
bool without_exchange = false;
}  // namespace testing

namespace {

namespace fs = std::filesystem;

// manifest.tsv starts with this line; one line per parameter follows. Checkpoints saved before
// the crc32 column existed start with the four-column header and still load, unchecked.
const std::string manifest_header = "# name\tshape\tdtype\tfile\tcrc32\n";
const std::string manifest_header_without_checksums = "# name\tshape\tdtype\tfile\n";

// No trained model of the course comes near this; a larger value is a damaged or forged file.
constexpr double largest_plausible_weight = 1e6;

// A manifest lists one line per parameter (a few dozen bytes each); an .npy header is at most
// 64 KiB by the format. Larger files are damaged, and are refused before they are read.
constexpr std::uintmax_t largest_manifest_bytes = 1 << 20;
constexpr std::size_t largest_npy_header_bytes = 1 << 16;

// A file every checkpoint holds. Its second line names the extra files the save wrote, so that a
// later save can tell them from files a user put into the folder (which it will not delete).
const std::string save_marker = ".written-by-save-checkpoint";
const std::string save_marker_text = "This folder was written by the course's save_checkpoint (common/nn/checkpoint.cpp).\n";
const std::string extra_files_label = "extra files:";
// The extra files chapter 01's saves wrote before the marker existed.
const std::set<std::string> extra_files_before_the_marker = {"settings.txt", "source_vocab.txt", "target_vocab.txt"};

// The proof that a folder is a save's temporary: the first file a save writes into its new folder
// (DIR.writing<pid>), and into the old checkpoint just before moving it aside (DIR.old<pid>),
// holding the process id. A folder with a temporary's name is cleaned up only when it holds this
// stamp naming the same process, or nothing but the stamp's own temporary, or nothing at all;
// anything else with such a name (a copy, a renamed backup, the user's notes) stays untouched.
// The stamp is removed from the checkpoint once the save is over.
const std::string save_stamp = ".save-in-progress";

template <class T> const char* dtype_name();
template <> const char* dtype_name<float>() { return "float32"; }
template <> const char* dtype_name<double>() { return "float64"; }

void reached(int step) {
    if (testing::after_save_step != nullptr) testing::after_save_step(step);
}

std::string shape_text(const Shape& shape) {
    std::string text;
    for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? "," : "") + std::to_string(shape[d]);
    return text;
}

// A file name the manifest may give: one plain name inside the checkpoint folder.
bool is_plain_file_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\\') == std::string::npos && name.find('\0') == std::string::npos;
}

struct ManifestEntry {
    std::string name, dtype, file, crc32;   // crc32 empty in checkpoints saved without checksums
    Shape shape;
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

std::vector<ManifestEntry> read_manifest(const fs::path& dir) {
    const fs::path path = dir / "manifest.tsv";
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + ": no such checkpoint folder");
    if (fs::is_symlink(path))
        throw std::runtime_error(path.string() + ": it is a symbolic link; a checkpoint holds plain files");
    const std::string text = read_text(path, largest_manifest_bytes, "a checkpoint's manifest");
    const bool with_checksums = starts_with(text, manifest_header);
    if (!with_checksums && !starts_with(text, manifest_header_without_checksums))
        throw std::runtime_error(path.string() + ": not a checkpoint manifest: its first line must be the header "
                                 "'# name<TAB>shape<TAB>dtype<TAB>file<TAB>crc32'");
    const std::size_t columns = with_checksums ? 5 : 4;
    std::istringstream lines(text);
    std::vector<ManifestEntry> entries;
    std::size_t number = 0;
    const auto bad_line = [&](const std::string& what) {
        return std::runtime_error(path.string() + ":" + std::to_string(number) + ": " + what);
    };
    for (std::string line; std::getline(lines, line);) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
        if (fields.size() != columns)
            throw bad_line("expected " + std::to_string(columns) + " tab-separated fields, found " + std::to_string(fields.size()));
        ManifestEntry entry{fields[0], fields[2], fields[3], with_checksums ? fields[4] : "", {}};
        if (entry.dtype != "float32" && entry.dtype != "float64")
            throw bad_line("unknown dtype '" + entry.dtype + "' (a checkpoint holds float32 or float64)");
        if (with_checksums && (entry.crc32.size() != 8 || entry.crc32.find_first_not_of("0123456789abcdef") != std::string::npos))
            throw bad_line("bad crc32 '" + entry.crc32 + "' (eight lower-case hex digits)");
        if (!is_plain_file_name(entry.file))
            throw bad_line("the file '" + entry.file + "' is not a plain file name inside the checkpoint folder");
        std::stringstream dims(fields[1]);
        for (std::string dim; std::getline(dims, dim, ',');) {
            const std::optional<std::size_t> size = parse_size(dim);
            if (!size) throw bad_line("bad or too large shape '" + fields[1] + "'");
            entry.shape.push_back(*size);
        }
        entries.push_back(entry);
    }
    return entries;
}

std::string short_number(double value, int digits = 4) {
    std::ostringstream text;
    text << std::setprecision(digits) << value;
    return text.str();
}

// A value beyond the limit, with digits enough to tell the two apart (1000001, not 1e+06).
std::string beyond_limit(double value, double limit) {
    std::string text = short_number(value);
    for (int digits = 5; digits <= 17 && std::abs(std::stod(text)) <= limit; ++digits) text = short_number(value, digits);
    return text;
}

// The first value that is NaN, infinite or beyond largest_plausible_weight, or nullopt.
template <class T>
std::optional<T> first_implausible(const Array<T>& values) {
    for (const T v : values)
        if (!(std::abs(v) <= largest_plausible_weight)) return v;
    return std::nullopt;
}

// "DIR.writing<pid>" or "DIR.old<pid>": the temporaries of a save by process <pid>.
bool is_temporary_of(const fs::path& candidate, const fs::path& dir, pid_t& pid) {
    const std::string name = candidate.filename().string(), base = dir.filename().string();
    for (const std::string tag : {".writing", ".old"}) {
        const std::string prefix = base + tag;
        const std::size_t digits = name.size() - std::min(name.size(), prefix.size());
        if (digits >= 1 && digits <= 10 && name.compare(0, prefix.size(), prefix) == 0 &&
            name.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
            const long long value = std::stoll(name.substr(prefix.size()));   // at most 10 digits: fits
            if (value > std::numeric_limits<pid_t>::max()) return false;
            pid = static_cast<pid_t>(value);
            return true;
        }
    }
    return false;
}

// "ck/" and "ck" name the same folder; the temporaries are named after it.
fs::path folder_path(const fs::path& given) {
    const fs::path normal = given.lexically_normal();
    return normal.has_filename() || !normal.has_parent_path() ? normal : normal.parent_path();
}

// Does `folder` hold the stamp of a save by process `pid`?
bool stamped_by(const fs::path& folder, pid_t pid) {
    std::error_code error;
    if (!fs::is_regular_file(fs::symlink_status(folder / save_stamp, error))) return false;
    std::ifstream in(folder / save_stamp);
    std::string line;
    std::getline(in, line);
    return line == std::to_string(pid);
}

// Is `folder` (named like a temporary of process `pid`) provably what a save by `pid` left?
bool left_by_a_save(const fs::path& folder, pid_t pid) {
    std::error_code error;
    if (!fs::is_directory(fs::symlink_status(folder, error))) return false;
    if (stamped_by(folder, pid)) return true;
    const std::string stamp_in_writing = save_stamp + ".tmp" + std::to_string(pid);   // killed while stamping
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error))
        if (entry.path().filename() != stamp_in_writing) return false;
    return !error;
}

// Removes a save's temporary folder with its stamp last: a kill midway leaves a folder that
// still holds the stamp, or nothing, and so is still provably a save's (the next save removes it).
void remove_stamped_folder(const fs::path& folder, int step = 0) {
    remove_marked_folder(folder, save_stamp, [step] {
        if (step != 0) reached(step);
    });
}

void stamp(const fs::path& folder) { write_text_atomically(folder / save_stamp, std::to_string(::getpid()) + "\n"); }

// Removes the stamp a save left in checkpoint `dir` (its own, or a killed save's).
void remove_stale_stamp(const fs::path& dir, bool own) {
    // A save killed while it wrote the stamp or the marker into the checkpoint left their
    // temporaries (.save-in-progress.tmp<pid>): those of dead processes are a save's, not the user's.
    if (!own) {
        remove_killed_temporaries_of(dir / save_stamp);
        remove_killed_temporaries_of(dir / save_marker);
    }
    std::error_code error;
    const fs::path file = dir / save_stamp;
    if (!fs::is_regular_file(fs::symlink_status(file, error))) return;
    std::ifstream in(file);
    long pid = 0;
    in >> pid;
    if (own ? pid == ::getpid() : !process_alive(pid)) fs::remove(file, error);
}

std::string marker_text(const std::map<std::string, std::string>& extra_files) {
    std::string text = save_marker_text + extra_files_label;
    for (const auto& entry : extra_files) text += "\t" + entry.first;
    return text + "\n";
}

// The names of what checkpoint folder `dir` holds that no save wrote: anything but the marker,
// manifest.tsv, the files the manifest lists and the extra files the marker names.
std::vector<std::string> foreign_entries(const fs::path& dir) {
    std::set<std::string> ours = {save_marker, save_stamp, "manifest.tsv"};
    for (const ManifestEntry& entry : read_manifest(dir)) ours.insert(entry.file);
    if (fs::exists(fs::symlink_status(dir / save_marker))) {
        std::istringstream lines(read_text(dir / save_marker, largest_manifest_bytes, "a checkpoint's marker"));
        for (std::string line; std::getline(lines, line);) {
            if (!starts_with(line, extra_files_label)) continue;
            std::istringstream names(line.substr(extra_files_label.size()));
            for (std::string name; std::getline(names, name, '\t');)
                if (!name.empty()) ours.insert(name);
        }
    } else {
        ours.insert(extra_files_before_the_marker.begin(), extra_files_before_the_marker.end());
    }
    std::vector<std::string> foreign;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!ours.count(name) || !fs::is_regular_file(entry.symlink_status())) foreign.push_back(name);
    }
    std::sort(foreign.begin(), foreign.end());
    return foreign;
}

// Marks a checkpoint folder saved before folders carried the marker, so that it can be told
// apart from the user's folders while a save moves it aside.
void mark_as_saved(const fs::path& dir) {
    if (!fs::exists(fs::symlink_status(dir / save_marker))) write_text_atomically(dir / save_marker, save_marker_text);
}

// Removes what killed saves to `dir` left behind, and only that (left_by_a_save); a save
// still running (its process alive) is left alone. A save killed between the two renames of the fallback swap left `dir`
// missing and the old checkpoint as DIR.old<pid>: that one is put back.
void clean_stale_temporaries(const fs::path& dir) {
    const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    std::error_code error;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
        pid_t pid = 0;
        if (is_temporary_of(it->path(), dir, pid) && !process_alive(pid) && left_by_a_save(it->path(), pid))
            stale.push_back(it->path());
    }
    for (const fs::path& path : stale) {
        const bool old_copy = path.filename().string().find(".old") != std::string::npos;
        if (old_copy && !fs::exists(fs::symlink_status(dir, error)) && is_checkpoint_folder(path)) {
            fs::rename(path, dir, error);
            remove_stale_stamp(dir, false);
        } else {
            remove_stamped_folder(path);
        }
    }
    if (fs::is_directory(fs::symlink_status(dir, error))) remove_stale_stamp(dir, false);
}

// Puts `fresh` in the place of `dir` in one step; afterwards `fresh` names the old folder.
// Returns false if the file system cannot exchange (then `fresh` and `dir` are untouched).
bool exchange(const fs::path& fresh, const fs::path& dir) {
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0) return true;
    if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) return false;
    throw std::runtime_error(dir.string() + ": cannot put the new checkpoint in place: " + std::strerror(errno));
}

void sync_folder_and_files(const fs::path& dir) {
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) sync_to_disk(entry.path());
    sync_to_disk(dir);
}

}  // namespace

bool is_checkpoint_folder(const fs::path& dir) {
    std::error_code error;
    if (!fs::is_directory(dir, error) || !fs::is_regular_file(dir / "manifest.tsv", error)) return false;
    try {
        const std::string text = read_text(dir / "manifest.tsv", largest_manifest_bytes, "a checkpoint's manifest");
        return starts_with(text, manifest_header) || starts_with(text, manifest_header_without_checksums);
    } catch (const std::runtime_error&) {
        return false;
    }
}

void check_checkpoint_target(const fs::path& given, const std::string& flag) {
    const std::string name = flag + " " + given.string();
    const fs::path dir = folder_path(given);
    const fs::path last = dir.filename();
    if (last.empty() || last == "." || last == "..")
        throw std::runtime_error(name + ": name a checkpoint folder, like checkpoints/ch01 (not '.' or '..')");
    std::error_code error;
    const fs::file_status status = fs::symlink_status(dir, error);
    if (fs::exists(status)) {
        const bool empty_folder = fs::is_directory(status) && fs::is_empty(dir, error);
        if (fs::is_symlink(status))
            throw std::runtime_error(name + ": it is a symbolic link; a save replaces the folder it names, so name a real "
                                            "folder (or a new name) instead");
        if (!fs::is_directory(status))
            throw std::runtime_error(name + (fs::is_regular_file(status) ? ": it is a file" : ": it is not a folder (a FIFO, a socket or a device)") +
                                     ", not a checkpoint folder; choose another name");
        if (!empty_folder && !is_checkpoint_folder(dir))
            throw std::runtime_error(name + ": the folder exists and is not a checkpoint (it has no manifest.tsv), so it "
                                            "will not be replaced; choose a new folder name");
        if (!empty_folder) {
            clean_stale_temporaries(dir);   // what killed saves left is theirs, not "what no save wrote"
            std::vector<std::string> foreign;
            try {
                foreign = foreign_entries(dir);
            } catch (const std::runtime_error& problem) {
                throw std::runtime_error(name + ": the folder is not a readable checkpoint (" + problem.what() +
                                         "), so it will not be replaced; choose a new folder name");
            }
            if (!foreign.empty()) {
                std::string list;
                for (std::size_t i = 0; i < foreign.size() && i < 3; ++i) list += (i ? ", " : "") + foreign[i];
                if (foreign.size() > 3) list += " and " + std::to_string(foreign.size() - 3) + " more";
                throw std::runtime_error(name + ": the checkpoint folder also holds what no save wrote (" + list +
                                         "), and a save replaces the whole folder; move those out, or choose a new folder name");
            }
        }
    }
    check_writable_folder(dir.parent_path(), flag, given);
}

void check_checkpoint_source(const fs::path& given, const std::string& flag) {
    const fs::path dir = folder_path(given);
    std::error_code error;
    if (!fs::exists(fs::symlink_status(dir, error))) clean_stale_temporaries(dir);   // a save killed mid-swap
    const std::string name = flag + " " + given.string();
    if (!fs::exists(dir, error))
        throw std::runtime_error(name + ": no such folder; name a folder written by --save");
    if (!fs::is_directory(dir, error))
        throw std::runtime_error(name + (fs::is_regular_file(dir, error) ? ": it is a file" : ": it is a FIFO, a socket or a device") +
                                 ", not a checkpoint folder");
    // A folder this user may not enter reads as one without a manifest: say what it is.
    if (::access(dir.c_str(), R_OK | X_OK) != 0)
        throw std::runtime_error(name + ": cannot read the folder (" + std::strerror(errno) + "); give a folder you may read");
    if (!is_checkpoint_folder(dir)) {
        if (fs::is_regular_file(dir / "manifest.tsv", error)) {   // say what is wrong with its manifest
            try {
                read_manifest(dir);
            } catch (const std::runtime_error& problem) {
                throw std::runtime_error(name + ": the checkpoint cannot be used: " + problem.what());
            }
        }
        throw std::runtime_error(name + ": not a checkpoint (it has no manifest.tsv of a save); name a folder written by --save");
    }
}

template <class T>
void save_checkpoint(const Module<T>& model, const fs::path& given, const std::map<std::string, std::string>& extra_files) {
    const fs::path dir = folder_path(given);
    clean_stale_temporaries(dir);
    check_checkpoint_target(dir, "checkpoint");
    const fs::path fresh = dir.string() + ".writing" + std::to_string(::getpid());
    const fs::path old = dir.string() + ".old" + std::to_string(::getpid());
    std::error_code error;
    if (fs::exists(fs::symlink_status(fresh, error))) {   // named after this process, and not by it
        if (!left_by_a_save(fresh, ::getpid()))
            throw std::runtime_error(fresh.string() + ": a folder of the name this save writes to is in the way, and no "
                                     "save wrote it; move or rename it, then save again");
        remove_stamped_folder(fresh);   // a killed save by an earlier process of the same number
    }
    ensure_directory(dir.parent_path());
    if (!fs::create_directory(fresh))
        throw std::runtime_error(fresh.string() + ": cannot create the save's folder");
    try {
        stamp(fresh);                                                            // first: the folder is ours
        write_text_atomically(fresh / save_marker, marker_text(extra_files));
        reached(1);
        std::string manifest = manifest_header;
        for (const auto& [name, var] : model.named_parameters()) {
            write_npy(fresh / (name + ".npy"), var.value());
            const std::string checksum = crc32_hex(read_text(fresh / (name + ".npy")));   // of what reached the file
            manifest += name + "\t" + shape_text(var.shape()) + "\t" + dtype_name<T>() + "\t" + name + ".npy\t" + checksum + "\n";
        }
        reached(2);
        for (const auto& [name, text] : extra_files) {
            if (!is_plain_file_name(name) || name == "manifest.tsv")
                throw std::invalid_argument("save_checkpoint: bad extra file name '" + name + "'");
            write_text_atomically(fresh / name, text);
        }
        reached(3);
        write_text_atomically(fresh / "manifest.tsv", manifest);   // last: a folder with it is complete
        reached(4);
        sync_folder_and_files(fresh);
        reached(5);
    } catch (...) {
        remove_stamped_folder(fresh);   // leave no half-written folder behind
        throw;
    }
    const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    if (!fs::exists(fs::symlink_status(dir))) {
        fs::rename(fresh, dir);
        reached(6);
    } else {
        mark_as_saved(dir);
        stamp(dir);                          // the old checkpoint is about to carry a temporary's name
        if (!testing::without_exchange && exchange(fresh, dir)) {   // one atomic step: `dir` is never missing
            reached(6);
            remove_stamped_folder(fresh, 9); // now the old checkpoint
        } else {                             // fallback: two renames; a kill between them is undone by the next save or load
            fs::rename(dir, old);
            reached(8);
            fs::rename(fresh, dir);
            reached(6);
            remove_stamped_folder(old);
        }
    }
    remove_stale_stamp(dir, true);
    sync_to_disk(parent);
    reached(7);
}

template <class T>
void load_checkpoint(Module<T>& model, const fs::path& given) {
    const fs::path dir = folder_path(given);
    if (!fs::exists(fs::symlink_status(dir))) clean_stale_temporaries(dir);   // a save killed mid-swap: put the old one back
    const std::vector<ManifestEntry> entries = read_manifest(dir);
    std::vector<std::string> problems;
    bool mismatch = false;   // names or shapes differ: probably saved with other settings
    std::map<std::string, Array<T>> loaded;
    std::map<std::string, Var<T>> wanted;
    for (const auto& [name, var] : model.named_parameters()) wanted.emplace(name, var);
    std::set<std::string> listed;
    for (const ManifestEntry& entry : entries) {
        if (!listed.insert(entry.name).second) {
            problems.push_back(entry.name + " is listed twice in manifest.tsv");
            continue;
        }
        const auto found = wanted.find(entry.name);
        if (found == wanted.end()) {
            problems.push_back("unexpected " + entry.name);
            mismatch = true;
            continue;
        }
        if (entry.shape != found->second.shape()) {
            problems.push_back(entry.name + " has shape " + shape_string(entry.shape) + " in the checkpoint but " +
                               shape_string(found->second.shape()) + " in the model");
            mismatch = true;
            continue;
        }
        if (fs::is_symlink(dir / entry.file)) {
            problems.push_back(entry.file + " is a symbolic link; a checkpoint holds plain files");
            continue;
        }
        if (entry.dtype != dtype_name<T>()) {
            problems.push_back(entry.name + " is " + entry.dtype + " in the checkpoint but " + dtype_name<T>() + " in the model");
            mismatch = true;
            continue;
        }
        try {
            // Its size is known from the shape: a larger file is refused before it is read.
            std::size_t count = 1;
            for (const std::size_t size : entry.shape) count *= size;
            const std::string bytes = read_text(dir / entry.file, count * sizeof(T) + largest_npy_header_bytes, "a parameter file");
            if (!entry.crc32.empty() && crc32_hex(bytes) != entry.crc32) {
                problems.push_back(entry.file + " is damaged: its bytes do not match the checksum in manifest.tsv");
                continue;
            }
            Array<T> values = read_npy<T>(dir / entry.file);
            const std::optional<T> implausible = first_implausible(values);
            if (Shape(values.shape().begin(), values.shape().end()) != entry.shape)
                problems.push_back(entry.file + " does not have the shape the manifest gives");
            else if (implausible && !std::isfinite(*implausible))
                problems.push_back(entry.name + " holds NaN or infinite values (saved from a diverged training?)");
            else if (implausible)
                problems.push_back(entry.name + " holds " + beyond_limit(*implausible, largest_plausible_weight) + ", beyond any trained weight (limit " +
                                   short_number(largest_plausible_weight) + "): the file is damaged or was not written by a training run");
            else loaded.emplace(entry.name, std::move(values));
        } catch (const std::runtime_error& error) {
            problems.push_back(error.what());
        }
    }
    for (const auto& [name, var] : wanted)
        if (loaded.count(name) == 0 && std::none_of(entries.begin(), entries.end(), [&](const ManifestEntry& e) { return e.name == name; }))
            problems.push_back("missing " + name), mismatch = true;
    if (!problems.empty()) {
        std::string message = dir.string() + (mismatch ? ": the checkpoint does not match this model: "
                                                       : ": the checkpoint cannot be used: ");
        for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
        throw std::runtime_error(message + (mismatch ? " (was it saved with other settings?)" : ""));
    }
    for (auto& [name, values] : loaded) wanted.at(name).value() = std::move(values);
}

// ---- instantiations: do not edit ----
template void save_checkpoint(const Module<float>&, const std::filesystem::path&, const std::map<std::string, std::string>&);
template void save_checkpoint(const Module<double>&, const std::filesystem::path&, const std::map<std::string, std::string>&);
template void load_checkpoint(Module<float>&, const std::filesystem::path&);
template void load_checkpoint(Module<double>&, const std::filesystem::path&);

}  // namespace attn
