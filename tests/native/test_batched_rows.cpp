// Batched rows (TrainOptions::batched_rows, Transformer::forward_batch / backward_batch): a step
// over the batch's stacked rows must give the per-example loop's weights bit for bit, in every
// configuration the trainer runs: pre- and post-LN, tied and untied heads, each positional
// encoding, dropout, random position offsets, output rows with repeated positions.
#include "model/transformer.h"
#include "ops/matmul.h"
#include "train/trainer.h"
#include "training_fixture.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace ae;
using ae::test::float_bits;
using ae::test::short_run;
using ae::test::TrainingCase;
using ae::test::varied_task;
using ae::test::weight_bits;

TEST_CASE("batched rows: a step over the stacked batch gives the per-example loop's weights bit for bit") {
  using enum PositionalEncoding;
  const ModelConfig recipe{
      .vocab_size = 40, .d_model = 64, .n_heads = 4, .n_layers = 2, .max_len = 12, .positional = Learned};
  ModelConfig post = recipe;
  post.norm = NormPlacement::Post;
  post.positional = Sinusoidal;
  ModelConfig untied = recipe;
  untied.tie_output = false;
  untied.causal = true;
  ModelConfig rope{.vocab_size = 40, .d_model = 32, .n_heads = 2, .n_layers = 2, .max_len = 12, .positional = Rope};
  ModelConfig small{.vocab_size = 40, .d_model = 16, .n_heads = 2, .n_layers = 1, .max_len = 12, .positional = None};
  const std::vector<TrainingCase> cases = {{"pre-LN, tied, learned, dropout", recipe, 0.1f, true},
                                           {"pre-LN, tied, learned", recipe, 0.0f, false},
                                           {"post-LN, sinusoidal, dropout", post, 0.1f, true},
                                           {"untied, causal, dropout", untied, 0.1f, false},
                                           {"RoPE, dropout", rope, 0.1f, true},
                                           {"d 16, no positions", small, 0.0f, false}};
  const auto examples = varied_task(96, 40, 7);
  for (const TrainingCase& c : cases) {
    CAPTURE(c.name);
    TrainOptions o = short_run(c, 6, 2);
    o.group_size = 2;
    Transformer batched(c.config), looped(c.config);
    batched.init_random(11, 0.5f);
    looped.init_random(11, 0.5f);
    TrainOptions per_example = o;
    per_example.batched_rows = false;
    Trainer a(batched, examples, o), b(looped, examples, per_example);
    while (!a.finished()) {
      const StepReport ra = a.step(), rb = b.step();
      CHECK(float_bits(ra.loss) == float_bits(rb.loss));
      CHECK(float_bits(ra.grad_norm) == float_bits(rb.grad_norm));
      CHECK(ra.accuracy == rb.accuracy);
    }
    CHECK(weight_bits(batched) == weight_bits(looped));
  }
}

TEST_CASE("batched rows: one batch's gradients are the per-example sums bit for bit") {
  using enum PositionalEncoding;
  const ModelConfig c{
      .vocab_size = 40, .d_model = 64, .n_heads = 4, .n_layers = 2, .max_len = 12, .positional = Learned};
  Transformer model(c);
  model.init_random(3, 0.5f);
  const auto examples = varied_task(12, 40, 9);
  Transformer looped = gradient_buffer(c), batched = gradient_buffer(c);
  looped.hold_transposed_weights(model);
  batched.hold_transposed_weights(model);
  std::vector<Transformer::BatchExample> batch;
  for (size_t e = 0; e < examples.size(); ++e) {
    RunOptions o;
    o.dropout = 0.1f;
    o.dropout_seed = 100 + e;
    accumulate_gradients(model, examples[e], o, 0.25f, looped);
    batch.push_back({&examples[e].ids, o});
  }
  // The whole output of every example (no output rows): dL/dy = the sum of each row's logits'
  // gradient, as accumulate_gradients takes it at the positions.
  Transformer::BatchTrace trace;
  const Matrix hidden = model.forward_batch(batch, trace);
  REQUIRE(trace.output_offsets.back() == hidden.rows());
  Matrix d_hidden = Matrix::Zero(hidden.rows(), hidden.cols());
  std::vector<Matrix> picked(examples.size()), d_logits(examples.size());
  for (size_t e = 0; e < examples.size(); ++e) {
    const Eigen::Index offset = trace.output_offsets[e];
    picked[e].resize(static_cast<Eigen::Index>(examples[e].positions.size()), hidden.cols());
    for (size_t i = 0; i < examples[e].positions.size(); ++i)
      picked[e].row(static_cast<Eigen::Index>(i)) = hidden.row(offset + examples[e].positions[i]);
    const Matrix logits = model.logits(picked[e]);
    // cross_entropy's gradient, by hand: (softmax − onehot)/k, scaled by the weight.
    Matrix d = Matrix::Zero(logits.rows(), logits.cols());
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
      const float top = logits.row(r).maxCoeff();
      const Eigen::RowVectorXf p = (logits.row(r).array() - top).exp().matrix();
      d.row(r) = p / p.sum();
      d(r, examples[e].targets[static_cast<size_t>(r)]) -= 1.0f;
    }
    d_logits[e] = d / static_cast<float>(logits.rows()) * 0.25f;
    const Matrix d_picked = model.logits_backward_input(d_logits[e], batched);
    for (size_t i = 0; i < examples[e].positions.size(); ++i)
      d_hidden.row(offset + examples[e].positions[i]) += d_picked.row(static_cast<Eigen::Index>(i));
  }
  model.backward_batch(batch, trace, d_hidden, batched,
                       [&](size_t e) { model.logits_backward_parameters(picked[e], d_logits[e], batched); });
  // The hand-written loss gradient may differ from cross_entropy's in the last bit, so compare
  // the forward rows exactly and the gradients to a tolerance here; the trainer's test above
  // holds the gradients bit for bit.
  for (size_t e = 0; e < examples.size(); ++e) {
    const Matrix one = model.forward(examples[e].ids, batch[e].options, nullptr);
    const Matrix rows = hidden.middleRows(trace.output_offsets[e], one.rows());
    CHECK(std::memcmp(one.data(), rows.data(), sizeof(float) * static_cast<size_t>(one.size())) == 0);
  }
  const auto a = [&] {
    std::vector<float> w;
    looped.visit_parameters([&](const std::string&, Matrix& m) { w.insert(w.end(), m.data(), m.data() + m.size()); });
    return w;
  }();
  std::vector<float> b;
  batched.visit_parameters([&](const std::string&, Matrix& m) { b.insert(b.end(), m.data(), m.data() + m.size()); });
  REQUIRE(a.size() == b.size());
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(a[i] - b[i])));
  CHECK(worst < 1e-6);
}
