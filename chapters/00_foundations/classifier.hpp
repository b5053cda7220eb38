// A linear softmax classifier trained by gradient descent with a gradient derived by hand:
// equations (0.7)-(0.10) of the lesson.
#pragma once
#include "common/tensor.hpp"

#include <vector>

namespace attn::ch00 {

struct LinearClassifier {
    Matrix<double> W;   // (2, classes)
    Matrix<double> b;   // (1, classes)
};

LinearClassifier make_classifier(std::size_t inputs, std::size_t classes);   // all zeros

// Z = X W + b                                   X: (n, 2) -> Z: (n, classes)        (0.7)
Matrix<double> logits(const LinearClassifier& model, const Matrix<double>& X);

// Y[n, c] = 1 if labels[n] == c else 0         -> (n, classes)
Matrix<double> one_hot(const std::vector<std::size_t>& labels, std::size_t classes);

// L = -(1/N) sum_n log P[n, y_n]                P: (n, classes) -> scalar             (0.8)
double cross_entropy(const Matrix<double>& P, const Matrix<double>& Y);

struct Gradients {
    Matrix<double> dZ, dW, db;   // (n, classes), (2, classes), (1, classes)
};

// dZ = (P - Y) / N,  dW = X^T dZ,  db = sum_n dZ[n, :]                                  (0.9)
Gradients hand_gradients(const Matrix<double>& X, const Matrix<double>& P, const Matrix<double>& Y);

// Fraction of rows whose largest probability is at the true class.
double accuracy(const Matrix<double>& P, const std::vector<std::size_t>& labels);

// The classifier's predicted class on a rows x cols grid over [x_min, x_max] x [y_min, y_max]
// (row i is y = y_min + i * step), for the decision-region plot.
Matrix<std::size_t> predict_grid(const LinearClassifier& model, double x_min, double x_max,
                                 double y_min, double y_max, std::size_t rows, std::size_t cols);

}  // namespace attn::ch00
