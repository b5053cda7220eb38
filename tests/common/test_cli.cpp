// Flag parsing: values land in their variables, and every mistake is a UsageError.
#include "common/cli.hpp"
#include "common/files.hpp"
#include "common/memory.hpp"
#include "common/summary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Parsed {
    attn::RunSettings run;
    double lr = 0.5;
    std::string task = "dates";
    bool ok = false;
};

Parsed parse(std::vector<const char*> args) {
    Parsed p;
    attn::CommandLine cli("ch99", "a test program");
    attn::add_standard_flags(cli, p.run, "99_test");
    cli.option("lr", &p.lr, "learning rate");
    cli.option("task", &p.task, "which task");
    args.insert(args.begin(), "ch99");
    p.ok = cli.parse(static_cast<int>(args.size()), args.data());
    attn::finish_standard_flags(cli, p.run, "99_test", 300, 20);
    return p;
}

}  // namespace

TEST_CASE("cli: flags and values land in their variables" * doctest::test_suite("common")) {
    const Parsed p = parse({"--quick", "--seed", "7", "--lr=0.25", "--task", "fr-en", "--out", "tmp/x"});
    CHECK(p.ok);
    CHECK(p.run.quick);
    CHECK(p.run.seed == 7);
    CHECK(p.lr == 0.25);
    CHECK(p.task == "fr-en");
    CHECK(p.run.out == "tmp/x");
    CHECK(p.run.steps == 20);   // --quick's default
}

TEST_CASE("cli: defaults fill in what was not given" * doctest::test_suite("common")) {
    const Parsed p = parse({});
    CHECK(p.run.steps == 300);
    // out/99_test under the course's folder, wherever the program was started from
    // (made absolute first: weakly_canonical leaves a relative path alone when none of it exists yet)
    const auto resolved = [](const std::filesystem::path& path) {
        return std::filesystem::weakly_canonical(std::filesystem::absolute(path));
    };
    CHECK(resolved(p.run.out) == resolved(attn::course_root() / "out/99_test"));
    CHECK(p.run.variant == "reference");
    CHECK(parse({"--quick", "--steps", "5"}).run.steps == 5);   // --steps wins over --quick
}

TEST_CASE("cli: mistakes are usage errors that carry the usage line" * doctest::test_suite("common")) {
    for (const std::vector<const char*>& bad :
         {std::vector<const char*>{"--no-such-flag"}, {"--steps"}, {"--steps", "ten"}, {"--steps", "0"},
          {"--seed", "-1"}, {"--lr", "nan"}, {"--quick=yes"}, {"stray"}, {"--quick", "--quick"}, {"--task="},
          {"--steps", " 5"}, {"--lr", " 0.1"}, {"--lr", "0x10"}, {"--lr", "1e999"}}) {
        CAPTURE(bad[0]);
        try {
            parse(bad);
            FAIL("no error for a bad command line");
        } catch (const attn::UsageError& error) {
            CHECK(std::string(error.usage).rfind("usage: ch99", 0) == 0);
            CHECK(std::string(error.what()).find('\n') == std::string::npos);   // one line
        }
    }
}

TEST_CASE("cli: an unknown flag one or two typos from a real one names it; others are named alone" *
          doctest::test_suite("common")) {
    CHECK_THROWS_WITH_AS(parse({"--quik"}), "unknown flag --quik (did you mean --quick?)", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--stpes", "5"}), "unknown flag --stpes (did you mean --steps?)", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--taskk=x"}), "unknown flag --taskk (did you mean --task?)", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--no-such-flag"}), "unknown flag --no-such-flag", attn::UsageError);
    // A name that shortens or extends one flag names it, even when many edits away.
    CHECK_THROWS_WITH_AS(parse({"--ste", "5"}), "unknown flag --ste (did you mean --steps?)", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--out-dir", "x"}), "unknown flag --out-dir (did you mean --out?)", attn::UsageError);
}

TEST_CASE("cli: a flag where a value belongs is refused, and so are --help=... and a bare --" *
          doctest::test_suite("common")) {
    CHECK_THROWS_WITH_AS(parse({"--task", "--quick"}), doctest::Contains("--task needs a value"), attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--task", "--quick"}), doctest::Contains("'--quick' is a flag (--task=--quick"),
                         attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--task", "--help"}), doctest::Contains("'--help' is a flag"), attn::UsageError);
    CHECK(parse({"--task=--quick"}).task == "--quick");           // said so explicitly: the value
    CHECK(parse({"--task", "--not-a-flag"}).task == "--not-a-flag");   // no flag of that name: a value
    CHECK_THROWS_WITH_AS(parse({"--help=1"}), "--help takes no value", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--"}), doctest::Contains("'--' is not used here"), attn::UsageError);
}

TEST_CASE("cli: a number out of range names the range, even one too large to read" * doctest::test_suite("common")) {
    CHECK_THROWS_WITH_AS(parse({"--steps", "99999999999"}), "--steps must be between 1 and 10000000, got 99999999999",
                         attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--steps", "99999999999999999999999"}),
                         "--steps is too large: it must be between 1 and 10000000, got 99999999999999999999999", attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--steps", "0"}), "--steps must be between 1 and 10000000, got 0", attn::UsageError);
    CHECK(parse({"--steps", "10000000"}).run.steps == attn::max_steps);
    CHECK(parse({"--seed", "9007199254740991"}).run.seed == 9007199254740991ULL);
    CHECK_THROWS_WITH_AS(parse({"--seed", "9007199254740992"}), doctest::Contains("--seed must be between 0 and 9007199254740991"),
                         attn::UsageError);
    CHECK_THROWS_WITH_AS(parse({"--seed", "99999999999999999999"}),
                         doctest::Contains("--seed is too large: it must be between 0 and 9007199254740991"), attn::UsageError);
    int size = 8;
    attn::CommandLine cli("ch99", "a test program");
    cli.option("size", &size, "a size", 1);
    const char* args[] = {"ch99", "--size", "3000000000"};
    CHECK_THROWS_WITH_AS(cli.parse(3, args), "--size must be at least 1 and at most 2147483647, got 3000000000", attn::UsageError);
}

TEST_CASE("cli: an output folder that cannot be written is refused before any work" * doctest::test_suite("common")) {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / ("attn_cli_out." + std::to_string(::getpid()));
    std::ofstream(file) << "not a folder\n";
    const std::string out = file.string(), below = (file / "sub").string();
    CHECK_THROWS_WITH_AS(parse({"--out", out.c_str()}), ("--out " + out + ": it is a file, not a folder; name a folder").c_str(),
                         attn::InputError);
    CHECK_THROWS_WITH_AS(parse({"--out", below.c_str()}), doctest::Contains("is a file, not a folder"), attn::InputError);
    std::filesystem::remove(file);
    CHECK(parse({"--out", below.c_str()}).run.out == below);   // a folder that does not exist yet is fine
    // A name longer than the file system allows is refused now, not after the training.
    const std::string too_long = (std::filesystem::temp_directory_path() / std::string(300, 'o')).string();
    CHECK_THROWS_WITH_AS(parse({"--out", too_long.c_str()}), doctest::Contains("more than the file system allows (255)"),
                         attn::InputError);
    // A checkpoint folder is not an output folder: its figures would block the next --save there.
    const std::filesystem::path checkpoint = file.string() + "_ck";
    std::filesystem::create_directories(checkpoint);
    std::ofstream(checkpoint / ".written-by-save-checkpoint") << "marker\n";
    CHECK_THROWS_WITH_AS(parse({"--out", checkpoint.c_str()}), doctest::Contains("it is a checkpoint folder"), attn::InputError);
    const std::string inside = (checkpoint / "figs").string();   // nor any folder inside one
    CHECK_THROWS_WITH_AS(parse({"--out", inside.c_str()}), doctest::Contains("lies inside the checkpoint folder"),
                         attn::InputError);
    std::filesystem::remove_all(checkpoint);
    // A path whose every name fits but whose whole length, with a figure's name, would not.
    std::string deep = std::filesystem::temp_directory_path().string();
    for (int part = 0; part < 25; ++part) deep += "/" + std::string(200, 'd');
    CHECK_THROWS_WITH_AS(parse({"--out", deep.c_str()}), doctest::Contains("bytes long"), attn::InputError);
}

TEST_CASE("cli: --help stops before running" * doctest::test_suite("common")) {
    CHECK_FALSE(parse({"--help"}).ok);
}

TEST_CASE("cli: running out of memory ends the program with one line that says so" * doctest::test_suite("common")) {
    std::ostringstream captured;
    std::streambuf* const saved = std::cerr.rdbuf(captured.rdbuf());
    const int status = attn::run_program("ch99", []() -> int { throw std::bad_alloc(); });
    std::cerr.rdbuf(saved);
    const std::string message = captured.str();
    CHECK(status == 1);
    CHECK(message.rfind("ch99: out of memory: ", 0) == 0);
    CHECK(message.find("ulimit -v") != std::string::npos);
    CHECK(std::count(message.begin(), message.end(), '\n') == 1);
}

TEST_CASE("cli: a run under too small an address-space limit says so and ends (OpenBLAS would hang)" *
          doctest::test_suite("common")) {
#ifdef __SANITIZE_ADDRESS__
    return;   // AddressSanitizer maps terabytes of shadow memory up front: it does not run under ulimit -v
#endif
    const std::filesystem::path log = std::filesystem::temp_directory_path() / ("attn_cli_limit." + std::to_string(::getpid()));
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {   // the program ends the process itself: its message goes to a file
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ::dup2(fd, 2) < 0) ::_exit(3);
        const rlimit limit{rlim_t{300} << 20, rlim_t{300} << 20};
        if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(3);
        attn::run_program("ch99", []() -> int { return 0; });
        ::_exit(0);   // not reached: the body must not run
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    const std::string message = attn::read_text(log);
    CHECK(message == "ch99: the address-space limit (ulimit -v) is 300 MiB, and any run of the course needs at least "
                     "384 MiB (its linear-algebra library alone reserves 128 MiB); raise the limit\n");
    std::filesystem::remove(log);
}

TEST_CASE("memory: a limit on the address space (ulimit -v) lowers what is available" * doctest::test_suite("common")) {
#ifdef __SANITIZE_ADDRESS__
    return;   // AddressSanitizer maps terabytes of shadow memory up front: it does not run under ulimit -v
#endif
    // In a child process, so that the limit does not bind the other tests.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const std::uint64_t before = attn::available_memory().value_or(0);
        std::ifstream statm("/proc/self/statm");
        std::uint64_t pages = 0;
        statm >> pages;
        const std::uint64_t mapped = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        const std::uint64_t room = std::uint64_t{64} << 20;
        const rlimit limit{mapped + room, mapped + room};
        if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(3);
        const std::optional<std::uint64_t> after = attn::available_memory();
        // The room, less what the process mapped between the two readings; more than the
        // limit allows would be wrong, and so would be what was available before.
        ::_exit(after && *after <= room && *after > room / 2 && *after < before ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
