// Atomic writes and bounded reads (common/files.hpp), the removal of a marked folder
// (common/marked_folder.hpp) and the claim of an output folder (common/output_claim.hpp): a
// write never opens an existing file under its temporary name, removes the temporaries killed
// processes left, and nothing else.
#include "common/files.hpp"
#include "common/marked_folder.hpp"
#include "common/output_claim.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <iterator>
#include <string>
#include <sys/wait.h>
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

TEST_CASE("files: an output folder is claimed by one run at a time, and freed when that run ends" * doctest::test_suite("common")) {
    const fs::path dir = fresh_folder("claimed");
    int ready[2], release[2];
    REQUIRE(::pipe(ready) == 0);
    REQUIRE(::pipe(release) == 0);
    const pid_t other_run = ::fork();
    REQUIRE(other_run >= 0);
    if (other_run == 0) {   // another run: claims the folder, says so, and ends when told
        attn::claim_output_folder(dir);
        char byte = 1;
        (void)!::write(ready[1], &byte, 1);
        (void)!::read(release[0], &byte, 1);
        ::_exit(0);
    }
    char byte = 0;
    REQUIRE(::read(ready[0], &byte, 1) == 1);
    const std::string refusal = "--out " + dir.string() + ": another run is writing there now";
    CHECK_THROWS_WITH_AS(attn::claim_output_folder(dir, "--out"), doctest::Contains(refusal.c_str()), std::runtime_error);
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 0);   // the claim wrote nothing
    (void)!::write(release[1], &byte, 1);
    int status = 0;
    ::waitpid(other_run, &status, 0);
    CHECK_NOTHROW(attn::claim_output_folder(dir));   // that run ended: the folder is free
    CHECK_NOTHROW(attn::claim_output_folder(dir));   // and claiming it again is the same claim
    CHECK_NOTHROW(attn::claim_output_folder(dir / "not_made_yet"));   // claimed by its first write
    for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
    fs::remove_all(dir);
}
