// AdamW and the trainer's use of it, checked against a plain reference written here: the
// moments, both bias corrections, the decoupled weight decay, the global-norm clip and the
// learning-rate schedule, each as its textbook formula in double precision. The training runs in
// test_training.cpp reach their losses even with a wrong bias correction; these checks do not.
#include "train/optimizer.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

using namespace ae;

namespace {

ModelConfig small_config() {
  using enum PositionalEncoding;
  return {.vocab_size = 6, .d_model = 4, .n_heads = 2, .n_layers = 1, .max_len = 5, .positional = Learned};
}

// One parameter as the reference sees it: its values, whether it decays, and Adam's moments.
struct ReferenceParameter {
  std::vector<double> value, m, v;
  bool decays = false;
};

// Fills every parameter with values that vary by position and by a salt, so that no two
// parameters (and no two steps' gradients) agree by accident; a few entries are exactly zero.
void fill(Transformer& model, int salt, double scale) {
  int k = 0;
  model.visit_parameters([&](const std::string&, Matrix& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i, ++k)
      m.data()[i] = static_cast<float>(scale * static_cast<double>((k * 7 + salt * 3) % 11 - 5));
  });
}

std::vector<ReferenceParameter> reference_of(Transformer& model) {
  std::vector<ReferenceParameter> out;
  model.visit_parameters([&](const std::string& name, Matrix& m) {
    ReferenceParameter p;
    p.value.assign(m.data(), m.data() + m.size());
    p.m.assign(p.value.size(), 0.0);
    p.v.assign(p.value.size(), 0.0);
    p.decays = name.ends_with(".weight");  // projection weights; not embeddings, biases or gains
    out.push_back(p);
  });
  return out;
}

// AdamW (Loshchilov & Hutter, Algorithm 2) for step t = 1, 2, … at learning rate lr, after
// scaling the gradients to a global norm of at most clip (0: no clip). Returns the norm before.
double reference_step(std::vector<ReferenceParameter>& params, Transformer& grads, const AdamWOptions& o, int t,
                      double lr) {
  std::vector<std::vector<double>> g;
  grads.visit_parameters([&](const std::string&, Matrix& m) { g.emplace_back(m.data(), m.data() + m.size()); });
  double squared = 0.0;
  for (const auto& gi : g)
    for (double x : gi) squared += x * x;
  const double norm = std::sqrt(squared);
  const double scale = (o.clip_norm > 0 && norm > o.clip_norm) ? o.clip_norm / norm : 1.0;
  const double b1 = o.beta1, b2 = o.beta2;
  for (size_t i = 0; i < params.size(); ++i) {
    ReferenceParameter& p = params[i];
    for (size_t j = 0; j < p.value.size(); ++j) {
      const double gj = g[i][j] * scale;
      p.m[j] = b1 * p.m[j] + (1 - b1) * gj;
      p.v[j] = b2 * p.v[j] + (1 - b2) * gj * gj;
      const double m_hat = p.m[j] / (1 - std::pow(b1, t));
      const double v_hat = p.v[j] / (1 - std::pow(b2, t));
      if (p.decays) p.value[j] -= lr * o.weight_decay * p.value[j];
      p.value[j] -= lr * m_hat / (std::sqrt(v_hat) + o.epsilon);
    }
  }
  return norm;
}

double largest_difference(Transformer& model, const std::vector<ReferenceParameter>& params) {
  double worst = 0.0;
  size_t i = 0;
  model.visit_parameters([&](const std::string&, Matrix& m) {
    for (Eigen::Index j = 0; j < m.size(); ++j)
      worst = std::max(worst, std::abs(static_cast<double>(m.data()[j]) - params[i].value[static_cast<size_t>(j)]));
    ++i;
  });
  return worst;
}

// Warm-up over 2 steps, cosine over the next 2 to 10 % of the peak: the peak times these.
AdamWOptions four_step_options(float clip_norm) {
  AdamWOptions o;
  o.learning_rate = 0.01f;
  o.beta1 = 0.9f;
  o.beta2 = 0.98f;
  o.epsilon = 1e-8f;
  o.weight_decay = 0.1f;  // large enough that a missing or coupled decay shows at 1e-6
  o.warmup_steps = 2;
  o.total_steps = 4;
  o.min_learning_rate_ratio = 0.1f;
  o.clip_norm = clip_norm;
  return o;
}
// Step 0: 1/2 of the warm-up; 1: the peak; 2: the cosine's start; 3: half-way, 0.1 + 0.9·½(1 + cos π/2).
const double kScheduleFactor[4] = {0.5, 1.0, 1.0, 0.55};

// Four AdamW steps with gradients that change every step, against the reference; `grad_scale`
// sets the gradients' size (and so whether clip_norm clips them). Returns the four norms.
std::vector<double> check_against_reference(const AdamWOptions& o, double grad_scale) {
  std::vector<double> norms;
  Transformer model(small_config());
  fill(model, 0, 0.1);
  std::vector<ReferenceParameter> reference = reference_of(model);
  AdamW optimizer(model, o);
  Transformer grads = gradient_buffer(small_config());
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    fill(grads, step + 1, grad_scale * (step == 2 ? 3.0 : 1.0));  // norms differ between steps
    const double expected_norm = reference_step(reference, grads, o, step + 1, o.learning_rate * kScheduleFactor[step]);
    CHECK(scheduled_learning_rate(o, step) == doctest::Approx(o.learning_rate * kScheduleFactor[step]).epsilon(1e-6));
    const float norm = optimizer.step(model, grads);
    CHECK(norm == doctest::Approx(expected_norm).epsilon(1e-6));
    CHECK(largest_difference(model, reference) < 1e-6);
    CHECK(optimizer.steps_taken() == step + 1);
    norms.push_back(expected_norm);
  }
  return norms;
}

Matrix first_parameter(Transformer& model) {
  Matrix out;
  bool first = true;
  model.visit_parameters([&](const std::string&, Matrix& m) {
    if (first) out = m;
    first = false;
  });
  return out;
}

}  // namespace

TEST_CASE("AdamW::step matches the plain reference for four steps (moments, bias corrections, decay, schedule)") {
  Transformer model(small_config());
  int decayed = 0, kept = 0;
  for (const auto& p : reference_of(model)) (p.decays ? decayed : kept)++;
  REQUIRE(decayed > 0);  // the model has both kinds, so decay on the wrong ones would show
  REQUIRE(kept > 0);
  check_against_reference(four_step_options(0.0f), 0.01);
}

TEST_CASE("AdamW::step clips the gradients' global norm before the moments, and reports the norm before") {
  const std::vector<double> norms = check_against_reference(four_step_options(0.05f), 0.01);
  for (double norm : norms) CHECK(norm > 0.05);  // every step clips, by a factor of its own
  CHECK(norms[2] > 2 * norms[1]);
  // Below the clip nothing changes: the same run as with no clip.
  check_against_reference(four_step_options(1000.0f), 0.01);
}

TEST_CASE("AdamW: the first step moves each parameter by about lr against its gradient's sign") {
  // With both bias corrections, step 1's m̂ / √v̂ is g / |g| whatever the gradient's size.
  AdamWOptions o = four_step_options(0.0f);
  o.weight_decay = 0.0f;
  o.warmup_steps = 0;
  Transformer model(small_config());
  fill(model, 0, 0.1);
  const Matrix before = first_parameter(model);
  Transformer grads = gradient_buffer(small_config());
  fill(grads, 1, 1e-3);
  const Matrix g = first_parameter(grads);
  AdamW optimizer(model, o);
  optimizer.step(model, grads);
  const Matrix after = first_parameter(model);
  for (Eigen::Index i = 0; i < g.size(); ++i) {
    const double expected = g.data()[i] == 0.0f ? 0.0 : (g.data()[i] > 0 ? -1.0 : 1.0) * o.learning_rate;
    CHECK(after.data()[i] - before.data()[i] == doctest::Approx(expected).epsilon(1e-4));
  }
}

TEST_CASE("AdamW refuses gradients of a different model") {
  Transformer model(small_config());
  AdamW optimizer(model, AdamWOptions{});
  ModelConfig other = small_config();
  other.n_layers = 2;
  Transformer grads = gradient_buffer(other);
  CHECK_THROWS_AS(optimizer.step(model, grads), std::logic_error);
}

TEST_CASE("gradient_buffer and zero_parameters: every entry zero, LayerNorm gains included") {
  Transformer grads = gradient_buffer(small_config());
  double sum = 0.0;
  grads.visit_parameters([&](const std::string&, Matrix& m) { sum += m.cwiseAbs().sum(); });
  CHECK(sum == 0.0);
  fill(grads, 1, 1.0);
  zero_parameters(grads);
  grads.visit_parameters([&](const std::string&, Matrix& m) { sum += m.cwiseAbs().sum(); });
  CHECK(sum == 0.0);
}

TEST_CASE("Trainer::step is AdamW on the batch's mean gradient, at the schedule over options.steps") {
  // Every example in every batch (batch = the whole set), so the reference sees the same
  // examples in the same order as the trainer's shuffle.
  std::vector<TrainingExample> examples;
  for (int i = 0; i < 4; ++i) examples.push_back({{1, 2 + i, 3, 4 - i % 2}, {3}, {2 + (i + 1) % 4}});
  TrainOptions options;
  options.steps = 4;
  options.batch_size = 4;
  options.seed = 9;
  options.optimizer = four_step_options(1.0f);
  options.optimizer.total_steps = 1000;  // the trainer replaces it with options.steps

  Transformer model(small_config());
  model.init_random(2);
  Transformer expected = model;
  Trainer trainer(model, examples, options);

  AdamWOptions scheduled = options.optimizer;
  scheduled.total_steps = options.steps;
  AdamW optimizer(expected, scheduled);
  Transformer grads = gradient_buffer(small_config());
  Rng rng(options.seed);
  std::vector<size_t> groups(examples.size());
  std::iota(groups.begin(), groups.end(), size_t{0});
  for (int step = 0; step < options.steps; ++step) {
    CAPTURE(step);
    zero_parameters(grads);
    double loss = 0.0;
    for (size_t index : next_epoch_order(groups, 1, rng))
      loss += accumulate_gradients(expected, examples[index], RunOptions{}, 0.25f, grads).loss;
    const float norm = optimizer.step(expected, grads);
    const StepReport report = trainer.step();
    CHECK(report.learning_rate == doctest::Approx(options.optimizer.learning_rate * kScheduleFactor[step]));
    CHECK(report.grad_norm == doctest::Approx(norm).epsilon(1e-6));
    CHECK(report.loss == doctest::Approx(loss / 4).epsilon(1e-6));
    const std::vector<ReferenceParameter> want = reference_of(expected);
    CHECK(largest_difference(model, want) < 1e-6);
  }
}
