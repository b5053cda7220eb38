// The Transformer's modules: torch.nn.Transformer's parameter names, shapes and initialisation.
#include "chapters/07_transformer/transformer_layers.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace {

// transformer/parameters.tsv: "name<TAB>48,16" per line, in state_dict order.
std::vector<std::pair<std::string, attn::Shape>> pytorch_parameters() {
    std::ifstream file(support::data_path("07_transformer/transformer/parameters.tsv"));
    REQUIRE_MESSAGE(file, "cannot read the list of nn.Transformer's parameters");
    std::vector<std::pair<std::string, attn::Shape>> listed;
    std::string line;
    while (std::getline(file, line)) {
        if (line.empty() || line[0] == '#') continue;
        const std::size_t tab = line.find('\t');
        attn::Shape shape;
        std::stringstream sizes(line.substr(tab + 1));
        for (std::string size; std::getline(sizes, size, ',');) shape.push_back(std::stoul(size));
        listed.emplace_back(line.substr(0, tab), shape);
    }
    return listed;
}

}  // namespace

TEST_CASE("Transformer modules" * doctest::test_suite("ch07")) {
    PROPERTY("a 2 + 2-layer Transformer's parameters are nn.Transformer's state_dict, name for name, shape for shape") {
        attn::Rng rng(1);
        const attn::ch07::Transformer<double> model(golden07::sizes(attn::ch07::NormPlacement::post, 2), rng);
        const auto ours = model.named_parameters();
        const auto theirs = pytorch_parameters();
        CHECK(ours.size() == theirs.size());
        for (std::size_t i = 0; i < std::min(ours.size(), theirs.size()); ++i) {
            CAPTURE(i);
            CHECK(ours[i].first == theirs[i].first);
            CHECK_MESSAGE(ours[i].second.shape() == theirs[i].second,
                          ours[i].first << " is " << attn::shape_string(ours[i].second.shape()) << ", PyTorch's "
                                        << theirs[i].first << " " << attn::shape_string(theirs[i].second));
        }
    };
    PROPERTY("it starts as nn.Transformer: every matrix Xavier-uniform, attention biases 0, norms 1 and 0") {
        attn::Rng rng(2);
        const attn::ch07::Transformer<double> model(golden07::sizes(attn::ch07::NormPlacement::post, 2), rng);
        for (const auto& [name, p] : model.named_parameters()) {
            CAPTURE(name);
            const double largest = xt::amax(xt::abs(p.value()))();
            if (p.dim() == 2) {
                const double bound = std::sqrt(6.0 / static_cast<double>(p.shape(0) + p.shape(1)));
                CHECK(largest <= bound);
                CHECK(largest > 0.8 * bound);   // fills its range
            } else if (name.find("norm") != std::string::npos) {
                const double expected = name.size() > 6 && name.substr(name.size() - 6) == "weight" ? 1.0 : 0.0;
                CHECK(xt::amax(xt::abs(p.value() - expected))() == 0.0);
            } else if (name.find("_attn.") != std::string::npos) {
                CHECK(largest == 0.0);
            } else {   // a Linear's bias: uniform within 1 / sqrt(fan_in)
                CHECK(largest <= 1.0 / std::sqrt(name.find("linear1") != std::string::npos ? 16.0 : 32.0));
                CHECK(largest > 0.0);
            }
        }
    };
    PROPERTY("LayerNorm starts at weight 1 and bias 0 of its normalised shape, and refuses an empty shape") {
        const attn::ch07::LayerNorm<double> norm({3, 4});
        CHECK(norm.weight.shape() == attn::Shape{3, 4});
        CHECK(xt::amax(xt::abs(norm.weight.value() - 1.0))() == 0.0);
        CHECK(xt::amax(xt::abs(norm.bias.value()))() == 0.0);
        CHECK(norm.eps() == 1e-5);
        CHECK(norm.named_parameters()[0].first == "weight");
        CHECK_THROWS_AS(attn::ch07::LayerNorm<double>({}), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch07::LayerNorm<double>({4, 0}), std::invalid_argument);
    };
    PROPERTY("every layer takes the model's norm placement and sizes") {
        attn::Rng rng(3);
        const attn::ch07::Transformer<double> model(golden07::sizes(attn::ch07::NormPlacement::pre, 3), rng);
        CHECK(model.encoder.layers.size() == 3);
        CHECK(model.decoder.layers.size() == 3);
        for (const auto& layer : model.encoder.layers) CHECK(layer->norm_placement == attn::ch07::NormPlacement::pre);
        for (const auto& layer : model.decoder.layers) CHECK(layer->norm_placement == attn::ch07::NormPlacement::pre);
        CHECK(model.decoder.layers[0]->linear1.weight.shape() == attn::Shape{32, 16});
    };
}
