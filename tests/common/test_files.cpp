// Atomic writes and bounded reads (common/files.hpp), and the removal of a marked folder
// (common/marked_folder.hpp): a write never opens an existing file under
// its temporary name, removes the temporaries killed processes left, and nothing else.
#include "common/files.hpp"
#include "common/marked_folder.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

fs::path fresh_folder(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("attn_test_files_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("files: a write removes the temporaries of killed runs, and only those" * doctest::test_suite("common")) {
    const fs::path dir = fresh_folder("temporaries");
    const std::string own = std::to_string(::getpid());
    // Process ids far above any pid_max: dead.
    for (const char* killed : {"summary.json.tmp2147483646", "summary.json.tmp2147483645_2"})
        attn::write_text_atomically(dir / killed, "half a summary");
    for (const char* kept : {"summary.json.tmpabc", "summary.json.tmp2147483646.bak", "other.json.tmp2147483646", "notes.txt"})
        attn::write_text_atomically(dir / kept, "the learner's");
    attn::write_text_atomically(dir / ("summary.json.tmp" + own), "a draft under this process's own temporary name");
    attn::write_text_atomically(dir / "summary.json", "{}");
    CHECK(attn::read_text(dir / "summary.json") == "{}");
    CHECK_FALSE(fs::exists(dir / "summary.json.tmp2147483646"));
    CHECK_FALSE(fs::exists(dir / "summary.json.tmp2147483645_2"));
    for (const char* kept : {"summary.json.tmpabc", "summary.json.tmp2147483646.bak", "other.json.tmp2147483646", "notes.txt"})
        CHECK(attn::read_text(dir / kept) == "the learner's");
    // A live process's temporary (here this process's) is neither overwritten nor removed.
    CHECK(attn::read_text(dir / ("summary.json.tmp" + own)) == "a draft under this process's own temporary name");
    fs::remove_all(dir);
}

TEST_CASE("files: a bounded read refuses a file larger than its bound before reading it" * doctest::test_suite("common")) {
    const fs::path dir = fresh_folder("bounded");
    attn::write_text_atomically(dir / "small.tsv", "0123456789");
    CHECK(attn::read_text(dir / "small.tsv", 10, "a manifest") == "0123456789");
    CHECK_THROWS_WITH_AS(attn::read_text(dir / "small.tsv", 9, "a manifest"),
                         doctest::Contains("a manifest is 10 bytes, more than the 9 it can hold"), std::runtime_error);
    fs::remove_all(dir);
}

TEST_CASE("files: a marked folder loses its marker last, so a kill part-way leaves it marked" * doctest::test_suite("common")) {
    const fs::path dir = fresh_folder("marked") / ".render2147483646_1";
    fs::create_directories(dir / "inner");
    // Many entries, so that directory order cannot put the marker last by luck.
    for (int k = 0; k < 40; ++k) attn::write_text_atomically(dir / ("part" + std::to_string(k) + ".gp"), "plot x");
    attn::write_text_atomically(dir / "inner" / "data.dat", "1 2");
    attn::write_text_atomically(dir / ".marker", "ours");
    bool checked = false;
    attn::remove_marked_folder(dir, ".marker", [&] {   // where a kill would stop it
        std::size_t left = 0;
        for (const fs::directory_entry& entry : fs::directory_iterator(dir)) left += entry.path().filename() != ".marker";
        CHECK(left == 0);                        // everything else is gone...
        CHECK(fs::exists(dir / ".marker"));      // ...and the marker still says whose folder it is
        checked = true;
    });
    CHECK(checked);
    CHECK_FALSE(fs::exists(dir));
    fs::remove_all(dir.parent_path());
}
