// The linear softmax classifier and its hand-derived gradient (see classifier.hpp).
#include "chapters/00_foundations/classifier.hpp"

#include "chapters/00_foundations/softmax.hpp"

#include <xtensor-blas/xlinalg.hpp>

#include <cmath>

namespace attn::ch00 {

LinearClassifier make_classifier(std::size_t inputs, std::size_t classes) {
    // Zeros are a fine start here: the loss is convex in (W, b), so there is no symmetry to break.
    return {xt::zeros<double>({inputs, classes}), xt::zeros<double>({std::size_t(1), classes})};
}

Matrix<double> logits(const LinearClassifier& model, const Matrix<double>& X) {
    const Matrix<double> XW = xt::linalg::dot(X, model.W);   // (n, classes)
    return XW + model.b;                                    // b broadcasts over the rows   (0.7)
}

Matrix<double> one_hot(const std::vector<std::size_t>& labels, std::size_t classes) {
    Matrix<double> Y = xt::zeros<double>({labels.size(), classes});   // (n, classes)
    for (std::size_t n = 0; n < labels.size(); ++n) Y(n, labels[n]) = 1.0;
    return Y;
}

double cross_entropy(const Matrix<double>& P, const Matrix<double>& Y) {
    // Only the true class's probability counts; Y picks it out of each row.   (0.8)
    const double total = xt::sum(Y * xt::log(P))();
    return -total / static_cast<double>(P.shape(0));
}

Gradients hand_gradients(const Matrix<double>& X, const Matrix<double>& P, const Matrix<double>& Y) {
    const double N = static_cast<double>(X.shape(0));
    const Matrix<double> dZ = (P - Y) / N;                                      // (n, classes)  (0.9)
    const Matrix<double> dW = xt::linalg::dot(xt::transpose(X), dZ);            // (2, classes)
    const Matrix<double> db = xt::sum(dZ, {0}, xt::keep_dims);                  // (1, classes)
    return {dZ, dW, db};
}

double accuracy(const Matrix<double>& P, const std::vector<std::size_t>& labels) {
    const Vector<std::size_t> predicted = argmax_rows(P);
    std::size_t correct = 0;
    for (std::size_t n = 0; n < labels.size(); ++n) correct += predicted(n) == labels[n];
    return static_cast<double>(correct) / static_cast<double>(labels.size());
}

Matrix<std::size_t> predict_grid(const LinearClassifier& model, double x_min, double x_max,
                                 double y_min, double y_max, std::size_t rows, std::size_t cols) {
    Matrix<double> grid = xt::zeros<double>({rows * cols, std::size_t(2)});   // every grid point, one per row
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) {
            grid(i * cols + j, 0) = x_min + (x_max - x_min) * static_cast<double>(j) / static_cast<double>(cols - 1);
            grid(i * cols + j, 1) = y_min + (y_max - y_min) * static_cast<double>(i) / static_cast<double>(rows - 1);
        }
    const Vector<std::size_t> predicted = argmax_rows(logits(model, grid));   // softmax keeps the argmax
    Matrix<std::size_t> classes = xt::zeros<std::size_t>({rows, cols});
    for (std::size_t k = 0; k < rows * cols; ++k) classes(k / cols, k % cols) = predicted(k);
    return classes;
}

}  // namespace attn::ch00
