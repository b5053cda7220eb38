// Receptive fields through autodiff (see receptive_field.hpp).
#include "chapters/04_self_attention/receptive_field.hpp"

#include "chapters/04_self_attention/self_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "common/nn/conv1d.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace attn::ch04 {

std::size_t ReceptiveField::width() const { return static_cast<std::size_t>(std::count(reaches.begin(), reaches.end(), true)); }

std::size_t ReceptiveField::first() const {
    const auto found = std::find(reaches.begin(), reaches.end(), true);
    return found == reaches.end() ? 0 : static_cast<std::size_t>(found - reaches.begin());
}

std::size_t ReceptiveField::last() const {
    const auto found = std::find(reaches.rbegin(), reaches.rend(), true);
    return found == reaches.rend() ? 0 : static_cast<std::size_t>(reaches.rend() - found) - 1;
}

std::vector<bool> positions_reaching(const std::function<Var<double>(const Var<double>&)>& model, std::size_t n,
                                     std::size_t d, std::size_t i, Rng& rng) {
    if (i >= n) throw std::invalid_argument("positions_reaching: output " + std::to_string(i) + " of only " +
                                            std::to_string(n) + " positions");
    Array<double> values = rng.normal_matrix<double>(n, d);
    values.reshape({1, n, d});
    const Var<double> X = parameter<double>(std::move(values));
    backward(sum(select(model(X), 1, i)));   // d (sum of output i's entries) / dX
    std::vector<bool> reaches(n);
    for (std::size_t j = 0; j < n; ++j) reaches[j] = xt::any(xt::not_equal(xt::view(X.grad(), 0, j, xt::all()), 0.0));
    return reaches;
}

std::vector<ReceptiveField> receptive_fields(std::size_t n, std::size_t d, std::size_t i, std::size_t max_layers,
                                             Rng& rng) {
    std::vector<ReceptiveField> fields;
    for (std::size_t layers = 1; layers <= max_layers; ++layers) {
        std::vector<std::unique_ptr<Conv1d<double>>> stack;
        for (std::size_t l = 0; l < layers; ++l) stack.push_back(std::make_unique<Conv1d<double>>(d, d, 3, rng));
        const auto convolutions = [&](const Var<double>& X) {
            Var<double> h = X;
            for (const auto& conv : stack) h = (*conv)(h);
            return h;
        };
        fields.push_back({"conv L=" + std::to_string(layers), positions_reaching(convolutions, n, d, i, rng)});
    }
    const ch03::AttentionLayer<double> layer({d, d, d, d, d}, rng);
    const auto attention = [&](const Var<double>& X) { return self_attention(layer, X, full_lengths(1, n)).output; };
    fields.push_back({"self-attention", positions_reaching(attention, n, d, i, rng)});
    return fields;
}

plot::Heatmap receptive_field_heatmap(const std::vector<ReceptiveField>& fields, std::size_t i) {
    if (fields.empty()) throw std::invalid_argument("receptive_field_heatmap: no models to draw");
    const std::size_t n = fields.front().reaches.size();
    plot::Heatmap map;
    map.title = "Which inputs can change output " + std::to_string(i) + " (its gradient is not zero), n = " +
                std::to_string(n);
    map.xlabel = "input position j";
    map.values = Matrix<double>::from_shape({fields.size(), n});
    for (std::size_t m = 0; m < fields.size(); ++m) {
        map.y_tick_labels.push_back(fields[m].model);
        for (std::size_t j = 0; j < n; ++j) map.values(m, j) = fields[m].reaches.at(j) ? 1.0 : 0.0;
    }
    for (std::size_t j = 0; j < n; ++j) map.x_tick_labels.push_back(j % 4 == 0 ? std::to_string(j) : "");
    map.categories = {"no influence", "can influence output " + std::to_string(i)};
    map.highlight_columns = {i};
    return map;
}

}  // namespace attn::ch04
