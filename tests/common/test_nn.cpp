// Modules, layers, optimizers and checkpoints: PyTorch golden cases (tests/data/common/
// make_golden.py), hand-worked values, and every bad-input error.
#include "common/autodiff/ops.hpp"
#include "common/crc32.hpp"
#include "common/files.hpp"
#include "common/nn/checkpoint.hpp"
#include "common/nn/layers.hpp"
#include "common/nn/npy.hpp"
#include "common/nn/optim.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"

#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = 1e-12;   // float64 on both sides; only summation order differs

A golden(const std::string& name) { return attn::read_npy<double>(support::data_path("common/golden/" + name + ".npy")); }
xt::xarray<std::int64_t> golden_ids(const std::string& name) {
    return xt::load_npy<std::int64_t>(support::data_path("common/golden/" + name + ".npy"));
}

// A two-level model: "encoder.embedding.weight", "encoder.proj.weight", "encoder.proj.bias", "head.weight".
struct Encoder : attn::Module<double> {
    attn::Embedding<double> embedding;
    attn::Linear<double> proj;
    Encoder(attn::Rng& rng) : embedding(10, 4, rng), proj(4, 3, rng) {
        register_module("embedding", embedding);
        register_module("proj", proj);
    }
};
struct Model : attn::Module<double> {
    Encoder encoder;
    attn::Linear<double> head;
    attn::Dropout<double> drop{0.5, 1};
    Model(attn::Rng& rng, std::size_t out = 2) : encoder(rng), head(3, out, rng, false) {
        register_module("encoder", encoder);
        register_module("head", head);
        register_module("drop", drop);
    }
};

std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attn_test_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir;
}
}  // namespace

TEST_CASE("nn: modules name their parameters like PyTorch's state_dict" * doctest::test_suite("common")) {
    attn::Rng rng(1);
    Model model(rng);
    std::vector<std::string> names;
    for (const auto& [name, var] : model.named_parameters()) names.push_back(name);
    CHECK(names == std::vector<std::string>{"encoder.embedding.weight", "encoder.proj.weight", "encoder.proj.bias", "head.weight"});
    CHECK(model.parameter_count() == 10 * 4 + 3 * 4 + 3 + 2 * 3);   // 61
    model.eval();
    CHECK_FALSE(model.drop.training());
    model.train();
    CHECK(model.encoder.proj.training());
    SUBCASE("Linear's initial weights lie in [-1/sqrt(in), 1/sqrt(in)] like torch.nn.Linear") {
        CHECK(xt::amax(xt::abs(model.encoder.proj.weight.value()))() <= 0.5);   // 1 / sqrt(4)
    }
}

TEST_CASE("nn: Linear and Embedding match PyTorch" * doctest::test_suite("common.golden")) {
    attn::Rng rng(2);
    SUBCASE("Linear forward and backward") {
        attn::Linear<double> linear(5, 3, rng);
        linear.weight.value() = golden("linear_weight");
        linear.bias.value() = golden("linear_bias");
        const Var<double> x = attn::parameter<double>(golden("linear_x"));
        const Var<double> y = linear(x);
        CHECK_ALLCLOSE(y.value(), golden("linear_y"), golden_tol, golden_tol);
        attn::backward(y, golden("linear_dy"));
        CHECK_ALLCLOSE(x.grad(), golden("linear_dx"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(linear.weight.grad(), golden("linear_dweight"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(linear.bias.grad(), golden("linear_dbias"), golden_tol, golden_tol);
    }
    SUBCASE("Embedding forward and backward (repeated ids add up)") {
        attn::Embedding<double> embedding(7, 4, rng);
        embedding.weight.value() = golden("embedding_weight");
        const Var<double> y = embedding(golden_ids("embedding_ids"));
        CHECK_ALLCLOSE(y.value(), golden("embedding_y"), 0.0, 0.0);
        attn::backward(y, golden("embedding_dy"));
        CHECK_ALLCLOSE(embedding.weight.grad(), golden("embedding_dweight"), golden_tol, golden_tol);
    }
    SUBCASE("log-softmax and cross-entropy with padding and label smoothing") {
        const Var<double> logits = attn::parameter<double>(golden("ce_logits"));
        const xt::xarray<std::int64_t> targets = golden_ids("ce_targets");
        CHECK_ALLCLOSE(attn::log_softmax(logits).value(), golden("ce_log_softmax"), golden_tol, golden_tol);
        const Var<double> loss = attn::cross_entropy(logits, targets, 0, 0.1);
        CHECK(loss.item() == doctest::Approx(golden("ce_loss")()).epsilon(1e-12));
        attn::backward(loss);
        CHECK_ALLCLOSE(logits.grad(), golden("ce_dlogits"), golden_tol, golden_tol);
        logits.zero_grad();
        const Var<double> plain = attn::cross_entropy(logits, targets, 0);
        CHECK(plain.item() == doctest::Approx(golden("ce_loss_plain")()).epsilon(1e-12));
        attn::backward(plain);
        CHECK_ALLCLOSE(logits.grad(), golden("ce_dlogits_plain"), golden_tol, golden_tol);
    }
}

TEST_CASE("nn: optimizers, clipping and schedules" * doctest::test_suite("common.golden")) {
    SUBCASE("three Adam steps equal torch.optim.Adam's") {
        const Var<double> p = attn::parameter<double>(golden("adam_param0"));
        attn::Adam<double> adam({p}, 0.01, 0.9, 0.999, 1e-8, 0.01);
        for (int step = 1; step <= 3; ++step) {
            CAPTURE(step);
            p.node()->grad = golden("adam_grad" + std::to_string(step));
            adam.step();
            CHECK_ALLCLOSE(p.value(), golden("adam_param" + std::to_string(step)), 1e-13, 1e-14);
        }
    }
    SUBCASE("SGD with momentum, worked by hand") {
        // v1 = g = 2 -> p = 1 - 0.1 * 2 = 0.8;  v2 = 0.5 * 2 + 2 = 3 -> p = 0.8 - 0.3 = 0.5
        const Var<double> p = attn::parameter<double>(A{1.0});
        attn::SGD<double> sgd({p}, 0.1, 0.5);
        for (int step = 0; step < 2; ++step) {
            sgd.zero_grad();
            attn::backward(attn::sum(p * 2.0));
            sgd.step();
        }
        CHECK(p.value()(0) == doctest::Approx(0.5));
    }
    SUBCASE("clip_grad_norm equals torch.nn.utils.clip_grad_norm_") {
        const Var<double> a = attn::parameter<double>(xt::zeros<double>({2, 3}));
        const Var<double> b = attn::parameter<double>(xt::zeros<double>({4}));
        a.node()->grad = golden("clip_grad_a");
        b.node()->grad = golden("clip_grad_b");
        CHECK(attn::clip_grad_norm<double>({a, b}, 1.0) == doctest::Approx(golden("clip_norm")()).epsilon(1e-12));
        CHECK_ALLCLOSE(a.grad(), golden("clip_after_a"), 1e-12, 1e-14);
        CHECK_ALLCLOSE(b.grad(), golden("clip_after_b"), 1e-12, 1e-14);
    }
    SUBCASE("warm-up then inverse square root") {
        const attn::WarmupInverseSqrtSchedule schedule{1e-3, 100};
        CHECK(schedule.at(1) == doctest::Approx(1e-5));     // 1e-3 * 1/100
        CHECK(schedule.at(100) == doctest::Approx(1e-3));   // the peak
        CHECK(schedule.at(400) == doctest::Approx(5e-4));   // 1e-3 * sqrt(100/400)
        CHECK_THROWS_AS(schedule.at(0), std::invalid_argument);
    }
}

TEST_CASE("nn: .npy files round-trip and bad files give one-line errors" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("npy");
    attn::ensure_directory(dir);
    const attn::Array<float> values = {{1.5f, -2.0f, 3.25f}, {0.0f, 1e-30f, -7.0f}};
    attn::write_npy(dir / "a.npy", values);
    CHECK_ALLCLOSE(attn::read_npy<float>(dir / "a.npy"), values, 0.0, 0.0);
    attn::write_npy(dir / "v.npy", attn::Array<double>{4.0, 5.0});
    CHECK(attn::read_npy<double>(dir / "v.npy").shape(0) == 2);
    CHECK_ALLCLOSE(attn::read_npy<double>(support::data_path("00_foundations/softmax_X.npy")),
                   xt::load_npy<double>(support::data_path("00_foundations/softmax_X.npy")), 0.0, 0.0);   // written by NumPy

    const std::string bytes = attn::read_text(dir / "a.npy");
    attn::write_text_atomically(dir / "truncated.npy", bytes.substr(0, bytes.size() - 5));
    attn::write_text_atomically(dir / "garbage.npy", "hello, world");
    CHECK_THROWS_WITH_AS(attn::read_npy<float>(dir / "truncated.npy"), doctest::Contains("truncated.npy: holds 19 bytes"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::read_npy<float>(dir / "truncated.npy"), doctest::Contains("(truncated)"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::read_npy<float>(dir / "garbage.npy"), doctest::Contains("not a .npy file"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::read_npy<double>(dir / "a.npy"), doctest::Contains("holds '<f4' values, expected '<f8'"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::read_npy<float>(dir / "missing.npy"), doctest::Contains("missing.npy: cannot open"), std::runtime_error);
    std::filesystem::remove_all(dir);
}

TEST_CASE("nn: checkpoints save, load, and refuse what does not fit" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("checkpoint");
    attn::Rng rng(3), other_rng(4);
    Model saved(rng);
    attn::save_checkpoint(saved, dir, {{"vocab.txt", "a\nb\n"}});
    CHECK(std::filesystem::exists(dir / "encoder.proj.weight.npy"));
    CHECK(attn::read_text(dir / "vocab.txt") == "a\nb\n");
    CHECK(attn::read_text(dir / "manifest.tsv").find("encoder.embedding.weight\t10,4\tfloat64\tencoder.embedding.weight.npy") !=
          std::string::npos);

    SUBCASE("a model loads back exactly") {
        Model loaded(other_rng);
        attn::load_checkpoint(loaded, dir);
        CHECK_ALLCLOSE(loaded.encoder.proj.weight.value(), saved.encoder.proj.weight.value(), 0.0, 0.0);
        CHECK_ALLCLOSE(loaded.head.weight.value(), saved.head.weight.value(), 0.0, 0.0);
    }
    SUBCASE("a model of another shape is refused, names every mismatch, and stays unchanged") {
        Model wider(other_rng, 5);   // head.weight is (5, 3) instead of (2, 3)
        const A before = wider.encoder.proj.weight.value();
        CHECK_THROWS_WITH_AS(attn::load_checkpoint(wider, dir),
                             doctest::Contains("head.weight has shape (2, 3) in the checkpoint but (5, 3) in the model"),
                             std::runtime_error);
        CHECK_ALLCLOSE(wider.encoder.proj.weight.value(), before, 0.0, 0.0);
    }
    SUBCASE("missing and unexpected parameters are named") {
        attn::Linear<double> lone(4, 3, other_rng);
        try {
            attn::load_checkpoint(lone, dir);
            FAIL("loaded a checkpoint of another model");
        } catch (const std::runtime_error& error) {
            const std::string message = error.what();
            CHECK(message.find("missing weight") != std::string::npos);
            CHECK(message.find("unexpected encoder.proj.weight") != std::string::npos);
            CHECK(message.find('\n') == std::string::npos);
        }
    }
    SUBCASE("a truncated parameter file is reported by name") {
        const std::string bytes = attn::read_text(dir / "head.weight.npy");
        attn::write_text_atomically(dir / "head.weight.npy", bytes.substr(0, bytes.size() - 8));
        Model loaded(other_rng);
        CHECK_THROWS_WITH_AS(attn::load_checkpoint(loaded, dir), doctest::Contains("head.weight.npy is damaged"), std::runtime_error);
    }
    SUBCASE("saving again replaces the folder whole") {
        Model next(other_rng);
        attn::save_checkpoint(next, dir);
        CHECK_FALSE(std::filesystem::exists(dir / "vocab.txt"));
        for (const auto& sibling : std::filesystem::directory_iterator(dir.parent_path()))   // no temp folders left
            CHECK(sibling.path().filename().string().rfind(dir.filename().string() + ".", 0) != 0);
    }
    CHECK_THROWS_WITH_AS(attn::load_checkpoint(saved, dir.string() + "_nope"), doctest::Contains("no such checkpoint folder"),
                         std::runtime_error);
    std::filesystem::remove_all(dir);
}

namespace {
// The names of the folder's siblings that start with "NAME.": the temporaries of a save.
std::vector<std::string> leftovers_of(const std::filesystem::path& dir) {
    std::vector<std::string> found;
    for (const auto& sibling : std::filesystem::directory_iterator(dir.parent_path()))
        if (sibling.path().filename().string().rfind(dir.filename().string() + ".", 0) == 0)
            found.push_back(sibling.path().filename().string());
    return found;
}

bool same_weights(const Model& a, const Model& b) {
    return a.head.weight.value() == b.head.weight.value() && a.encoder.proj.weight.value() == b.encoder.proj.weight.value();
}

int kill_at_step = 0;
void kill_here(int step) {
    if (step == kill_at_step) ::raise(SIGKILL);
}

// Saves `model` to `dir` in a child process killed at save step `step` (checkpoint.hpp's
// testing hook); true when the child was killed there. `without_exchange`: the two-rename save.
bool save_killed_at(int step, const Model& model, const std::filesystem::path& dir, bool without_exchange = false) {
    const pid_t child = ::fork();
    if (child < 0) return false;
    if (child == 0) {
        kill_at_step = step;
        attn::testing::after_save_step = kill_here;
        attn::testing::without_exchange = without_exchange;
        attn::save_checkpoint(model, dir);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}
}  // namespace

TEST_CASE("nn: a save never replaces what is not a checkpoint" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("not_a_checkpoint");
    attn::Rng rng(3);
    Model model(rng);
    attn::write_text_atomically(dir / "exercise.cpp", "the learner's work\n");
    CHECK_THROWS_WITH_AS(attn::save_checkpoint(model, dir), doctest::Contains("exists and is not a checkpoint"), std::runtime_error);
    CHECK(attn::read_text(dir / "exercise.cpp") == "the learner's work\n");
    CHECK(leftovers_of(dir).empty());
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir / "exercise.cpp"), doctest::Contains("it is a file"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target("."), doctest::Contains("not '.' or '..'"), std::runtime_error);
    std::filesystem::create_directories(dir / "real");
    std::filesystem::create_directory_symlink("real", dir / "link");
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir / "link"), doctest::Contains("it is a symbolic link"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir / "exercise.cpp" / "ck"), doctest::Contains("a file, not a folder"),
                         std::runtime_error);
    // The message names the path given, not only the folder where it would be created.
    const std::string nested = (dir / "exercise.cpp" / "sub" / "ck").string();
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(nested), doctest::Contains(("--save " + nested + ": ").c_str()),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir / std::string(300, 'c')),
                         doctest::Contains("more than the file system allows"), std::runtime_error);
    attn::check_checkpoint_target(dir / "new" / "ck");   // a new folder, even two levels deep, is fine
    std::filesystem::create_directories(dir / "empty");
    attn::save_checkpoint(model, dir / "empty/");   // an empty folder is fine, with or without the slash
    CHECK(attn::is_checkpoint_folder(dir / "empty"));
    attn::save_checkpoint(model, dir / "empty");   // and so is a checkpoint, which is replaced
    std::filesystem::remove_all(dir);
}

TEST_CASE("nn: a save replaces a checkpoint only when it holds nothing but what saves wrote" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("users_files") / "model";
    attn::Rng rng(3);
    const Model model(rng);
    const std::map<std::string, std::string> extras = {{"settings.txt", "hidden 8\n"}, {"vocab.txt", "a\nb\n"}};
    attn::save_checkpoint(model, dir, extras);
    attn::save_checkpoint(model, dir, extras);   // its own extra files are the save's: replaced
    // Something the user put into the checkpoint folder: the save refuses, naming it, and
    // leaves the folder as it was.
    attn::write_text_atomically(dir / "notes.txt", "my notes\n");
    std::filesystem::create_directories(dir / "plots");
    CHECK_THROWS_WITH_AS(attn::save_checkpoint(model, dir, extras), doctest::Contains("(notes.txt, plots)"), std::runtime_error);
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir), doctest::Contains("move those out"), std::runtime_error);
    CHECK(attn::read_text(dir / "notes.txt") == "my notes\n");
    CHECK(attn::read_text(dir / "settings.txt") == "hidden 8\n");
    std::filesystem::remove(dir / "notes.txt");
    std::filesystem::remove(dir / "plots");
    // An extra file this save does not write, but an earlier save did, is still the save's.
    attn::save_checkpoint(model, dir);
    CHECK_FALSE(std::filesystem::exists(dir / "vocab.txt"));
    // A folder with a manifest of ours but no marker (a checkpoint of an older course, or a
    // copy the user made): the files it lists and chapter 01's extra files are the save's,
    // anything else is not.
    std::filesystem::remove(dir / ".written-by-save-checkpoint");
    attn::write_text_atomically(dir / "settings.txt", "hidden 8\n");
    attn::check_checkpoint_target(dir);
    attn::write_text_atomically(dir / "thesis.txt", "chapter one\n");
    CHECK_THROWS_WITH_AS(attn::save_checkpoint(model, dir), doctest::Contains("(thesis.txt)"), std::runtime_error);
    CHECK(attn::read_text(dir / "thesis.txt") == "chapter one\n");
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("nn: a save killed while it stamped the old checkpoint does not block the next save there" *
          doctest::test_suite("common")) {
    // The stamp and the marker are written into the live checkpoint through a temporary; a kill
    // before the rename leaves .save-in-progress.tmp<pid> there (pid far above any pid_max: dead).
    const std::filesystem::path dir = fresh_dir("killed_stamp") / "model";
    attn::Rng rng(3);
    const Model model(rng);
    attn::save_checkpoint(model, dir);
    attn::write_text_atomically(dir / ".save-in-progress.tmp2147483638", "2147483638");
    attn::write_text_atomically(dir / ".written-by-save-checkpoint.tmp2147483637", "marker");
    attn::check_checkpoint_target(dir);   // the up-front check the chapters make: not "what no save wrote"
    CHECK_FALSE(std::filesystem::exists(dir / ".save-in-progress.tmp2147483638"));
    CHECK_FALSE(std::filesystem::exists(dir / ".written-by-save-checkpoint.tmp2147483637"));
    attn::save_checkpoint(model, dir);
    // A live process's temporary is not a killed save's: it stays foreign to this save.
    attn::write_text_atomically(dir / (".save-in-progress.tmp" + std::to_string(::getppid())), "1");
    CHECK_THROWS_WITH_AS(attn::check_checkpoint_target(dir), doctest::Contains("move those out"), std::runtime_error);
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("nn: a save cleans up only its own temporaries, never the user's folders of the same names" *
          doctest::test_suite("common")) {
    // Process ids far above any pid_max: dead. A killed save's folder holds the save's stamp naming
    // its process, or nothing but the stamp's own temporary, or nothing at all; a user's folder of
    // the same name holds anything else, even a copy of a checkpoint.
    const std::filesystem::path dir = fresh_dir("users_folders") / "model";
    attn::Rng rng(3), other_rng(4);
    const Model first(rng), second(other_rng);
    const std::filesystem::path notes = dir.string() + ".old2147483646", thesis = dir.string() + ".writing2147483645";
    const std::filesystem::path empty = dir.string() + ".writing2147483644";
    const std::filesystem::path stamping = dir.string() + ".writing2147483642", killed = dir.string() + ".old2147483641";
    const std::filesystem::path other_stamp = dir.string() + ".writing2147483640";
    for (const auto& folder : {notes, thesis, empty, stamping, killed, other_stamp}) std::filesystem::create_directories(folder);
    attn::write_text_atomically(notes / "notes.txt", "my notes\n");
    attn::write_text_atomically(thesis / "thesis.txt", "chapter one\n");
    attn::write_text_atomically(stamping / ".save-in-progress.tmp2147483642", "21474");   // killed while stamping
    attn::write_text_atomically(killed / ".save-in-progress", "2147483641\n");
    attn::write_text_atomically(killed / "half.npy", "x");
    attn::write_text_atomically(other_stamp / ".save-in-progress", "12\n");            // another process's stamp
    attn::save_checkpoint(first, dir);
    CHECK(attn::read_text(notes / "notes.txt") == "my notes\n");
    CHECK(attn::read_text(thesis / "thesis.txt") == "chapter one\n");
    CHECK_FALSE(std::filesystem::exists(empty));
    CHECK_FALSE(std::filesystem::exists(stamping));
    CHECK_FALSE(std::filesystem::exists(killed));
    CHECK(std::filesystem::exists(other_stamp / ".save-in-progress"));
    CHECK_FALSE(std::filesystem::exists(dir / ".save-in-progress"));   // a finished save leaves no stamp
    // A copy of a checkpoint the user keeps as DIR.old<pid> (cp -r: it holds the save's marker) is
    // not a backup to put back, nor a leftover to remove; nor is a checkpoint the user renamed so.
    const std::filesystem::path copied = dir.string() + ".old2147483643", renamed = dir.string() + ".old2147483639";
    std::filesystem::copy(dir, copied);
    std::filesystem::rename(dir, renamed);
    attn::save_checkpoint(second, dir);
    Model read(rng);
    attn::load_checkpoint(read, dir);
    CHECK(same_weights(read, second));
    CHECK(attn::is_checkpoint_folder(copied));
    CHECK(attn::is_checkpoint_folder(renamed));
    std::filesystem::remove_all(dir);
    CHECK_THROWS_WITH_AS(attn::load_checkpoint(read, dir), doctest::Contains("no such checkpoint folder"), std::runtime_error);
    CHECK(attn::is_checkpoint_folder(renamed));   // a load does not undo the user's rename either
    // A folder named like this very process's temporary, holding the user's files: refused, kept.
    const std::filesystem::path in_the_way = dir.string() + ".writing" + std::to_string(::getpid());
    std::filesystem::create_directories(in_the_way);
    attn::write_text_atomically(in_the_way / "mine.txt", "mine\n");
    CHECK_THROWS_WITH_AS(attn::save_checkpoint(first, dir), doctest::Contains("is in the way"), std::runtime_error);
    CHECK(attn::read_text(in_the_way / "mine.txt") == "mine\n");
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("nn: hostile or damaged checkpoints are refused with one line" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("hostile");
    attn::Rng rng(3), other_rng(4);
    Model saved(rng), loaded(other_rng);
    attn::save_checkpoint(saved, dir);
    const std::string manifest = attn::read_text(dir / "manifest.tsv");
    const auto with_manifest = [&](const std::string& from, const std::string& to) {
        std::string changed = manifest;
        changed.replace(changed.find(from), from.size(), to);
        attn::write_text_atomically(dir / "manifest.tsv", changed);
    };
    const auto refused = [&](const std::string& why) {
        CHECK_THROWS_WITH_AS(attn::load_checkpoint(loaded, dir), doctest::Contains(why.c_str()), std::runtime_error);
    };
    SUBCASE("a file outside the folder") {
        with_manifest("\thead.weight.npy", "\t/etc/passwd");
        refused("'/etc/passwd' is not a plain file name inside the checkpoint folder");
        with_manifest("\thead.weight.npy", "\t../head.weight.npy");
        refused("'../head.weight.npy' is not a plain file name");
    }
    SUBCASE("a symbolic link for the manifest") {
        std::filesystem::rename(dir / "manifest.tsv", dir.string() + "_manifest.tsv");
        std::filesystem::create_symlink(dir.string() + "_manifest.tsv", dir / "manifest.tsv");
        refused("manifest.tsv: it is a symbolic link; a checkpoint holds plain files");
        std::filesystem::remove(dir.string() + "_manifest.tsv");
    }
    SUBCASE("a parameter file or a manifest of 30 GB (sparse) is refused before it is read") {
        std::filesystem::resize_file(dir / "head.weight.npy", 30ull << 30);
        refused("a parameter file is 32212254720 bytes, more than the");
        std::filesystem::resize_file(dir / "manifest.tsv", 30ull << 30);
        refused("a checkpoint's manifest is 32212254720 bytes");
        CHECK_THROWS_WITH_AS(attn::check_checkpoint_source(dir), doctest::Contains("manifest is 32212254720 bytes"),
                             std::runtime_error);
    }
    SUBCASE("a parameter listed twice") {
        const std::size_t line = manifest.find("\nhead.weight\t") + 1;
        attn::write_text_atomically(dir / "manifest.tsv", manifest + manifest.substr(line, manifest.find('\n', line) + 1 - line));
        refused("head.weight is listed twice in manifest.tsv");
    }
    SUBCASE("a symbolic link") {
        std::filesystem::rename(dir / "head.weight.npy", dir.string() + "_head.npy");
        std::filesystem::create_symlink(dir.string() + "_head.npy", dir / "head.weight.npy");
        refused("head.weight.npy is a symbolic link");
        std::filesystem::remove(dir.string() + "_head.npy");
    }
    SUBCASE("a dimension too large for any number type") {
        with_manifest("head.weight\t2,3", "head.weight\t100000000000000000000000,3");
        refused("bad or too large shape '100000000000000000000000,3'");
    }
    SUBCASE("an .npy header whose shape would need more memory than exists: refused before allocating") {
        const auto forged = [&](const std::string& shape) {
            std::string bytes = attn::read_text(dir / "head.weight.npy");
            bytes.replace(bytes.find("(2, 3)"), 6, shape);
            attn::write_text_atomically(dir / "forged.npy", bytes);
        };
        forged("(99999999999, 99999999999, 99999999999)");
        CHECK_THROWS_WITH_AS(attn::read_npy<double>(dir / "forged.npy"), doctest::Contains("too large to hold in memory"),
                             std::runtime_error);
        forged("(1000000000000, 1)");   // 8 TB announced, a few bytes present
        CHECK_THROWS_WITH_AS(attn::read_npy<double>(dir / "forged.npy"), doctest::Contains("needs 8000000000000 (truncated)"),
                             std::runtime_error);
        forged("(100000000000000000000000,)");
        CHECK_THROWS_WITH_AS(attn::read_npy<double>(dir / "forged.npy"), doctest::Contains("malformed or too large shape"),
                             std::runtime_error);
    }
    SUBCASE("NaN or infinite weights, named") {
        Model diverged(rng);
        diverged.head.weight.value()(1, 2) = std::nan("");
        attn::save_checkpoint(diverged, dir);
        refused("head.weight holds NaN or infinite values");
        diverged.head.weight.value()(1, 2) = INFINITY;
        attn::save_checkpoint(diverged, dir);
        refused("head.weight holds NaN or infinite values");
    }
    SUBCASE("a dtype that is not the model's, or none at all") {
        with_manifest("\tfloat64\thead.weight.npy", "\tbanana\thead.weight.npy");
        refused("unknown dtype 'banana'");
        with_manifest("\tfloat64\thead.weight.npy", "\tfloat32\thead.weight.npy");
        refused("head.weight is float32 in the checkpoint but float64 in the model");
    }
    SUBCASE("a manifest without its header line") {
        attn::write_text_atomically(dir / "manifest.tsv", manifest.substr(manifest.find('\n') + 1));
        refused("not a checkpoint manifest: its first line must be the header");
        CHECK_FALSE(attn::is_checkpoint_folder(dir));
    }
    SUBCASE("a flipped bit in a parameter file") {
        std::string bytes = attn::read_text(dir / "head.weight.npy");
        bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x10);   // a mantissa bit: still finite
        attn::write_text_atomically(dir / "head.weight.npy", bytes);
        refused("head.weight.npy is damaged: its bytes do not match the checksum in manifest.tsv");
    }
    SUBCASE("finite weights no training produces") {
        Model forged(rng);
        forged.head.weight.value()(0, 1) = -3e38;
        attn::save_checkpoint(forged, dir);
        refused("head.weight holds -3e+38, beyond any trained weight (limit 1e+06)");
        forged.head.weight.value()(0, 1) = 1000000.125f;   // just beyond: its digits tell it from the limit
        attn::save_checkpoint(forged, dir);
        refused("head.weight holds 1000000.1, beyond any trained weight (limit 1e+06)");
    }
    SUBCASE("a checkpoint saved before manifests had checksums still loads") {
        std::string old = "# name\tshape\tdtype\tfile\n";
        std::istringstream lines(manifest);
        std::string line;
        std::getline(lines, line);   // the header with crc32
        while (std::getline(lines, line)) old += line.substr(0, line.rfind('\t')) + "\n";
        attn::write_text_atomically(dir / "manifest.tsv", old);
        CHECK(attn::is_checkpoint_folder(dir));
        attn::load_checkpoint(loaded, dir);
        CHECK(same_weights(loaded, saved));
    }
    SUBCASE("a FIFO instead of a file does not hang") {
        std::filesystem::remove(dir / "head.weight.npy");
        REQUIRE(::mkfifo((dir / "head.weight.npy").c_str(), 0600) == 0);
        refused("not a regular file");
        CHECK_THROWS_WITH_AS(attn::read_text(dir / "head.weight.npy"), doctest::Contains("not a regular file"), std::runtime_error);
    }
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(dir.string() + "_head.npy");
}

TEST_CASE("nn: CRC-32 gives the standard check values" * doctest::test_suite("common")) {
    CHECK(attn::crc32("") == 0u);
    CHECK(attn::crc32("123456789") == 0xCBF43926u);   // the check value every CRC-32 specification lists
    CHECK(attn::crc32_hex("The quick brown fox jumps over the lazy dog") == "414fa339");   // zlib.crc32 agrees
}

TEST_CASE("nn: a load puts back the checkpoint a save killed between its two renames left aside" * doctest::test_suite("common")) {
    // On a file system without an atomic exchange a save renames DIR to DIR.old<pid>, then the new
    // folder to DIR; a kill in between leaves DIR missing. A load (not only the next save) recovers.
    const std::filesystem::path dir = fresh_dir("left_aside") / "model";
    attn::Rng rng(3), other_rng(4);
    const Model saved(rng), newer(other_rng);
    attn::save_checkpoint(saved, dir);
    REQUIRE(save_killed_at(8, newer, dir, true));   // between the two renames
    REQUIRE_FALSE(std::filesystem::exists(dir));
    Model read(other_rng);
    attn::load_checkpoint(read, dir);
    CHECK(same_weights(read, saved));
    CHECK(attn::is_checkpoint_folder(dir));
    CHECK(leftovers_of(dir).empty());
    CHECK_FALSE(std::filesystem::exists(dir / ".save-in-progress"));
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("nn: a save killed while removing the old checkpoint leaves what the next save removes" *
          doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("killed_removing") / "model";
    attn::Rng rng_old(3), rng_new(4), rng_read(6);
    const Model old_model(rng_old), new_model(rng_new);
    attn::save_checkpoint(old_model, dir);
    REQUIRE(save_killed_at(9, new_model, dir));   // the old checkpoint's files gone, its stamp not yet
    REQUIRE(leftovers_of(dir).size() == 1);   // DIR.writing<pid>, holding the stamp alone
    Model read(rng_read);
    attn::load_checkpoint(read, dir);
    CHECK(same_weights(read, new_model));
    attn::save_checkpoint(old_model, dir);
    CHECK(leftovers_of(dir).empty());
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("nn: a save killed at any step leaves the whole old or the whole new checkpoint" * doctest::test_suite("common")) {
    const std::filesystem::path dir = fresh_dir("killed");
    attn::Rng rng_old(3), rng_new(4), rng_next(5), rng_read(6);
    const Model old_model(rng_old), new_model(rng_new), next_model(rng_next);
    for (int step = 1; step <= 7; ++step) {
        CAPTURE(step);
        attn::save_checkpoint(old_model, dir);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {   // the child saves the new model and is killed at `step`
            kill_at_step = step;
            attn::testing::after_save_step = kill_here;
            attn::save_checkpoint(new_model, dir);
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        REQUIRE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
        Model read(rng_read);
        attn::load_checkpoint(read, dir);   // complete, whichever it is
        CHECK(same_weights(read, step <= 5 ? old_model : new_model));
        if (step < 7) CHECK_FALSE(leftovers_of(dir).empty());   // the killed save's temporaries ...
        attn::save_checkpoint(next_model, dir);
        CHECK(leftovers_of(dir).empty());                       // ... are gone after the next save
        attn::load_checkpoint(read, dir);
        CHECK(same_weights(read, next_model));
    }
    std::filesystem::remove_all(dir);
}
