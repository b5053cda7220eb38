// Saving and loading checkpoints (see checkpoint.hpp).
#include "common/nn/checkpoint.hpp"

#include "common/files.hpp"
#include "common/nn/npy.hpp"

#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace attn {

namespace {

template <class T> const char* dtype_name();
template <> const char* dtype_name<float>() { return "float32"; }
template <> const char* dtype_name<double>() { return "float64"; }

std::string shape_text(const Shape& shape) {
    std::string text;
    for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? "," : "") + std::to_string(shape[d]);
    return text;
}

struct ManifestEntry {
    std::string name, dtype, file;
    Shape shape;
};

std::vector<ManifestEntry> read_manifest(const std::filesystem::path& dir) {
    const std::filesystem::path path = dir / "manifest.tsv";
    if (!std::filesystem::is_directory(dir)) throw std::runtime_error(dir.string() + ": no such checkpoint folder");
    std::istringstream lines(read_text(path));
    std::vector<ManifestEntry> entries;
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
        if (fields.size() != 4)
            throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": expected 4 tab-separated fields, found " +
                                     std::to_string(fields.size()));
        ManifestEntry entry{fields[0], fields[2], fields[3], {}};
        std::stringstream dims(fields[1]);
        for (std::string dim; std::getline(dims, dim, ',');) {
            if (dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos)
                throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": bad shape '" + fields[1] + "'");
            entry.shape.push_back(std::stoul(dim));
        }
        entries.push_back(entry);
    }
    return entries;
}

}  // namespace

template <class T>
void save_checkpoint(const Module<T>& model, const std::filesystem::path& dir,
                     const std::map<std::string, std::string>& extra_files) {
    const std::filesystem::path fresh = dir.string() + ".writing" + std::to_string(::getpid());
    const std::filesystem::path old = dir.string() + ".old" + std::to_string(::getpid());
    std::filesystem::remove_all(fresh);
    try {
        ensure_directory(fresh);
        std::string manifest = "# name\tshape\tdtype\tfile\n";
        for (const auto& [name, var] : model.named_parameters()) {
            write_npy(fresh / (name + ".npy"), var.value());
            manifest += name + "\t" + shape_text(var.shape()) + "\t" + dtype_name<T>() + "\t" + name + ".npy\n";
        }
        for (const auto& [name, text] : extra_files) write_text_atomically(fresh / name, text);
        write_text_atomically(fresh / "manifest.tsv", manifest);
    } catch (...) {
        std::filesystem::remove_all(fresh);   // leave no half-written folder behind
        throw;
    }
    // Swap the finished folder in; the old one goes only after the new one is in place.
    if (std::filesystem::exists(dir)) std::filesystem::rename(dir, old);
    std::filesystem::rename(fresh, dir);
    std::filesystem::remove_all(old);
}

template <class T>
void load_checkpoint(Module<T>& model, const std::filesystem::path& dir) {
    const std::vector<ManifestEntry> entries = read_manifest(dir);
    std::vector<std::string> problems;
    std::map<std::string, Array<T>> loaded;
    std::map<std::string, Var<T>> wanted;
    for (const auto& [name, var] : model.named_parameters()) wanted.emplace(name, var);
    for (const ManifestEntry& entry : entries) {
        const auto found = wanted.find(entry.name);
        if (found == wanted.end()) {
            problems.push_back("unexpected " + entry.name);
            continue;
        }
        if (entry.shape != found->second.shape()) {
            problems.push_back(entry.name + " has shape " + shape_string(entry.shape) + " in the checkpoint but " +
                               shape_string(found->second.shape()) + " in the model");
            continue;
        }
        try {
            Array<T> values = read_npy<T>(dir / entry.file);
            if (Shape(values.shape().begin(), values.shape().end()) != entry.shape)
                problems.push_back(entry.file + " does not have the shape the manifest gives");
            else loaded.emplace(entry.name, std::move(values));
        } catch (const std::runtime_error& error) {
            problems.push_back(error.what());
        }
    }
    for (const auto& [name, var] : wanted)
        if (loaded.count(name) == 0 && std::none_of(entries.begin(), entries.end(), [&](const ManifestEntry& e) { return e.name == name; }))
            problems.push_back("missing " + name);
    if (!problems.empty()) {
        std::string message = dir.string() + ": the checkpoint does not match this model: ";
        for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
        throw std::runtime_error(message + " (was it saved with other settings?)");
    }
    for (auto& [name, values] : loaded) wanted.at(name).value() = std::move(values);
}

// ---- instantiations: do not edit ----
template void save_checkpoint(const Module<float>&, const std::filesystem::path&, const std::map<std::string, std::string>&);
template void save_checkpoint(const Module<double>&, const std::filesystem::path&, const std::map<std::string, std::string>&);
template void load_checkpoint(Module<float>&, const std::filesystem::path&);
template void load_checkpoint(Module<double>&, const std::filesystem::path&);

}  // namespace attn
