#include "train/optimizer.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

bool is_decayed(const std::string& name) { return name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0; }

std::vector<Matrix*> parameter_list(Transformer& model) {
  std::vector<Matrix*> list;
  model.visit_parameters([&](const std::string&, Matrix& m) { list.push_back(&m); });
  return list;
}

}  // namespace

float scheduled_learning_rate(const AdamWOptions& o, int step) {
  if (step < o.warmup_steps) return o.learning_rate * static_cast<float>(step + 1) / static_cast<float>(o.warmup_steps);
  const int decay_steps = std::max(1, o.total_steps - o.warmup_steps);
  const double progress = std::min(1.0, static_cast<double>(step - o.warmup_steps) / decay_steps);
  const double cosine = 0.5 * (1.0 + std::cos(3.141592653589793 * progress));
  return static_cast<float>(o.learning_rate * (o.min_learning_rate_ratio + (1.0 - o.min_learning_rate_ratio) * cosine));
}

AdamW::AdamW(Transformer& model, const AdamWOptions& options) : options_(options) {
  model.visit_parameters([&](const std::string& name, Matrix& m) {
    first_moment_.push_back(Matrix::Zero(m.rows(), m.cols()));
    second_moment_.push_back(Matrix::Zero(m.rows(), m.cols()));
    decays_.push_back(is_decayed(name));
  });
}

float AdamW::step(Transformer& model, Transformer& grads) {
  const std::vector<Matrix*> params = parameter_list(model);
  const std::vector<Matrix*> gradients = parameter_list(grads);
  if (params.size() != gradients.size() || params.size() != first_moment_.size())
    throw std::logic_error("AdamW: model and gradients have different parameters");

  double squared = 0.0;
  for (const Matrix* g : gradients) squared += static_cast<double>(g->squaredNorm());
  const float norm = static_cast<float>(std::sqrt(squared));
  const float clip = (options_.clip_norm > 0.0f && norm > options_.clip_norm) ? options_.clip_norm / norm : 1.0f;

  const float lr = scheduled_learning_rate(options_, step_);
  ++step_;
  const float bias1 = 1.0f - std::pow(options_.beta1, static_cast<float>(step_));
  const float bias2 = 1.0f - std::pow(options_.beta2, static_cast<float>(step_));
  for (size_t i = 0; i < params.size(); ++i) {
    Matrix& p = *params[i];
    const auto g = gradients[i]->array() * clip;
    first_moment_[i].array() = options_.beta1 * first_moment_[i].array() + (1.0f - options_.beta1) * g;
    second_moment_[i].array() = options_.beta2 * second_moment_[i].array() + (1.0f - options_.beta2) * g.square();
    if (decays_[i]) p *= 1.0f - lr * options_.weight_decay;  // decoupled weight decay
    p.array() -=
        lr * (first_moment_[i].array() / bias1) / ((second_moment_[i].array() / bias2).sqrt() + options_.epsilon);
  }
  return norm;
}

void zero_parameters(Transformer& grads) {
  grads.visit_parameters([](const std::string&, Matrix& m) { m.setZero(); });
}

Transformer gradient_buffer(const ModelConfig& config) {
  Transformer grads(config);
  zero_parameters(grads);
  return grads;
}

}  // namespace ae
