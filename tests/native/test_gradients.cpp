// Every backward pass against central finite differences of its forward pass.
// Scalar losses are L = Σ R ⊙ f(x) with a fixed random R, so every output entry matters.
// Tolerance: float32 forward passes, step h = 1e-2 → truncation O(h²) and rounding
// O(ε·|L|/h) ≈ 1e-5; we accept |analytic − numeric| ≤ 2e-3 + 3e-2·max(|analytic|, |numeric|).
#include "model/positional.h"
#include "model/transformer.h"
#include "ops/activation.h"
#include "ops/attention.h"
#include "ops/norm.h"
#include "reference.h"
#include "train/loss.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>

using namespace ae;

namespace {

constexpr double kStep = 1e-2;

double weighted_sum(const Matrix& out, const Matrix& r) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < out.size(); ++i)
    if (std::isfinite(out.data()[i])) s += static_cast<double>(out.data()[i]) * r.data()[i];
  return s;
}

// Compares analytic[i] with the central difference of loss() in x[i] for up to max_checks entries.
void check_gradient(const std::string& what, Matrix& x, const Matrix& analytic, const std::function<double()>& loss,
                    int max_checks = 24) {
  REQUIRE(analytic.rows() == x.rows());
  REQUIRE(analytic.cols() == x.cols());
  const Eigen::Index stride = std::max<Eigen::Index>(1, x.size() / max_checks);
  for (Eigen::Index i = 0; i < x.size(); i += stride) {
    const float saved = x.data()[i];
    x.data()[i] = static_cast<float>(saved + kStep);
    const double up = loss();
    x.data()[i] = static_cast<float>(saved - kStep);
    const double down = loss();
    x.data()[i] = saved;
    const double numeric = (up - down) / (2 * kStep);
    const double a = analytic.data()[i];
    INFO(what << " entry " << i << ": analytic " << a << ", numeric " << numeric);
    CHECK(std::abs(a - numeric) <= 2e-3 + 3e-2 * std::max(std::abs(a), std::abs(numeric)));
  }
}

// One matrix (an input or a parameter) and the analytic gradient of the loss in it.
struct GradientOf {
  const char* name;
  Matrix& value;
  const Matrix& analytic;
};

// check_gradient for each matrix of checks against the same loss.
void check_gradients(const std::function<double()>& loss, std::initializer_list<GradientOf> checks) {
  for (const GradientOf& c : checks) check_gradient(c.name, c.value, c.analytic, loss);
}

// The weight gradients of the four projections of a multi-head attention.
void check_projection_gradients(MultiHeadAttention& mha, const MultiHeadAttention& grad,
                                const std::function<double()>& loss) {
  check_gradient("dWq", mha.wq.weight, grad.wq.weight, loss);
  check_gradient("dWk", mha.wk.weight, grad.wk.weight, loss);
  check_gradient("dWv", mha.wv.weight, grad.wv.weight, loss);
  check_gradient("dWo", mha.wo.weight, grad.wo.weight, loss);
}

// A two-layer model small enough for finite differences over every parameter.
ModelConfig tiny_model_config(PositionalEncoding pe) {
  return {.vocab_size = 11, .d_model = 8, .n_heads = 2, .n_layers = 2, .max_len = 8, .positional = pe};
}

// Non-trivial LayerNorm and bias parameters, so that their gradients are exercised too.
void perturb_norms_and_biases(Transformer& model) {
  Rng rng(9);
  model.visit_parameters([&](const std::string& name, Matrix& m) {
    if (name.find("bias") != std::string::npos || name.find("gamma") != std::string::npos ||
        name.find("beta") != std::string::npos)
      m += ref::random_matrix(m.rows(), m.cols(), rng, 0.3);
  });
}

const TrainingExample kTinyExample{{3, 7, 1, 9, 4}, {1, 4}, {5, 2}};

// Every parameter of model against its gradient in grads (a buffer of the same config), by
// finite differences of loss(). Returns the parameter names in visit order.
std::vector<std::string> check_parameter_gradients(Transformer& model, Transformer& grads,
                                                   const std::function<double()>& loss) {
  std::vector<std::pair<std::string, Matrix*>> params, grad_params;
  model.visit_parameters([&](const std::string& n, Matrix& m) { params.emplace_back(n, &m); });
  grads.visit_parameters([&](const std::string& n, Matrix& m) { grad_params.emplace_back(n, &m); });
  REQUIRE(params.size() == grad_params.size());
  std::vector<std::string> names;
  for (size_t i = 0; i < params.size(); ++i) {
    check_gradient(params[i].first, *params[i].second, *grad_params[i].second, loss, 6);
    names.push_back(params[i].first);
  }
  return names;
}

// Every parameter's gradient from accumulate_gradients against finite differences of the loss.
std::vector<std::string> check_model_gradients(Transformer& model, const TrainingExample& ex, const RunOptions& run) {
  Transformer grads = gradient_buffer(model.config());
  accumulate_gradients(model, ex, run, 1.0f, grads);
  return check_parameter_gradients(model, grads, [&] { return evaluate_example(model, ex, run).loss; });
}

// A decoder of the tiny shape that cross-attends to an encoder's output.
ModelConfig tiny_decoder_config(NormPlacement norm) {
  ModelConfig c = tiny_model_config(PositionalEncoding::Rope);
  c.causal = true;
  c.cross_attention = true;
  c.norm = norm;
  return c;
}

// A 4 → 16 → 4 FeedForward on 3 rows, with the dropout mask after GELU if one is given.
void check_feed_forward_gradients(uint64_t seed, const Matrix* mask) {
  Rng rng(seed);
  FeedForward ffn(4, 16);
  ffn.init_random(rng);
  Matrix x = ref::random_matrix(3, 4, rng);
  const Matrix r = ref::random_matrix(3, 4, rng);
  FeedForward grad(4, 16);
  Matrix hidden;
  ffn.forward(x, &hidden, mask);
  const Matrix dx = ffn.backward(x, hidden, r, grad, mask);
  check_gradients([&] { return weighted_sum(ffn.forward(x, nullptr, mask), r); },
                  {{"dx", x, dx},
                   {"d expand.weight", ffn.expand.weight, grad.expand.weight},
                   {"d project.weight", ffn.project.weight, grad.project.weight}});
}

}  // namespace

TEST_CASE("gradient: linear layer") {
  Rng rng(1);
  Linear layer(5, 3);
  layer.init_random(rng);
  layer.bias = ref::random_matrix(1, 3, rng);
  Matrix x = ref::random_matrix(4, 5, rng);
  const Matrix r = ref::random_matrix(4, 3, rng);
  Linear grad(5, 3);
  const Matrix dx = layer.backward(x, r, grad);
  check_gradients([&] { return weighted_sum(layer.forward(x), r); },
                  {{"dx", x, dx}, {"dW", layer.weight, grad.weight}, {"db", layer.bias, grad.bias}});
}

TEST_CASE("gradient: layer norm") {
  Rng rng(2);
  LayerNorm norm(6, 1e-5f);
  norm.gamma = ref::random_matrix(1, 6, rng);
  norm.beta = ref::random_matrix(1, 6, rng);
  Matrix x = ref::random_matrix(3, 6, rng, 2.0);
  const Matrix r = ref::random_matrix(3, 6, rng);
  LayerNorm grad(6, 1e-5f);
  grad.gamma.setZero();
  const Matrix dx = norm.backward(x, r, grad);
  check_gradients([&] { return weighted_sum(norm.forward(x), r); },
                  {{"dx", x, dx}, {"dgamma", norm.gamma, grad.gamma}, {"dbeta", norm.beta, grad.beta}});
}

TEST_CASE("gradient: GELU") {
  Rng rng(3);
  Matrix x = ref::random_matrix(4, 5, rng, 2.0);
  const Matrix r = ref::random_matrix(4, 5, rng);
  // The derivative FeedForward::backward uses: dL/dx = gelu'(x) ⊙ dL/dy.
  Matrix y(4, 5), derivative(4, 5);
  gelu_values_and_derivative(x.data(), y.data(), derivative.data(), static_cast<size_t>(x.size()));
  CHECK(y == gelu(x));
  check_gradient("dx", x, Matrix(derivative.array() * r.array()), [&] { return weighted_sum(gelu(x), r); });
}

TEST_CASE("gradient: feed-forward") { check_feed_forward_gradients(4, nullptr); }

TEST_CASE("gradient: attention under every mask, scaled and unscaled") {
  struct Case {
    const char* name;
    int n, m;
    bool causal;
    int window;
    int query_offset;
    bool pad;
    bool scale;
  };
  const Case cases[] = {{"none", 4, 4, false, 0, 0, false, true},     {"causal", 5, 5, true, 0, 0, false, true},
                        {"window", 5, 5, false, 2, 0, false, true},   {"causal window", 6, 6, true, 3, 0, false, true},
                        {"padding", 4, 5, false, 0, 0, true, true},   {"cache offset", 2, 5, true, 0, 3, false, true},
                        {"unscaled", 4, 4, false, 0, 0, false, false}};
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Rng rng(5);
    Matrix q = ref::random_matrix(c.n, 4, rng), k = ref::random_matrix(c.m, 4, rng),
           v = ref::random_matrix(c.m, 3, rng);
    const Matrix r = ref::random_matrix(c.n, 3, rng);
    AttentionOptions o;
    o.mask.causal = c.causal;
    o.mask.window = c.window;
    o.mask.query_offset = c.query_offset;
    if (c.pad) o.mask.key_padding = {0, 0, 1, 0, 0};
    o.scale = c.scale;
    const AttentionTrace t = attention_traced(q, k, v, o);
    const AttentionGradients g = attention_backward(q, k, v, t, o, r);
    check_gradients([&] { return weighted_sum(attention(q, k, v, o), r); },
                    {{"dq", q, g.q}, {"dk", k, g.k}, {"dv", v, g.v}});
  }
}

TEST_CASE("gradient: multi-head attention with and without RoPE, with an ablated head") {
  for (bool rope : {false, true}) {
    for (bool ablate : {false, true}) {
      CAPTURE(rope);
      CAPTURE(ablate);
      Rng rng(6);
      MultiHeadAttention mha(8, 2);
      mha.init_random(rng);
      Matrix x = ref::random_matrix(5, 8, rng);
      const Matrix r = ref::random_matrix(5, 8, rng);
      AttentionOptions o;
      o.mask.causal = true;
      std::optional<RopeSettings> rs;
      if (rope) rs = RopeSettings{};
      const std::vector<uint8_t> active = {1, 0};
      const std::vector<uint8_t>* heads = ablate ? &active : nullptr;
      MultiHeadTrace trace;
      mha.forward(x, x, o, rs, heads, &trace);
      MultiHeadAttention grad(8, 2);
      const auto d = mha.backward(x, x, o, rs, heads, trace, r, grad);
      auto loss = [&] { return weighted_sum(mha.forward(x, x, o, rs, heads, nullptr), r); };
      Matrix dx = d.queries_from + d.keys_from;
      check_gradient("dx", x, dx, loss);
      check_projection_gradients(mha, grad, loss);
      check_gradient("dbq", mha.wq.bias, grad.wq.bias, loss);
    }
  }
}

TEST_CASE("gradient: cross-attention, queries and keys from sequences of different lengths") {
  Rng rng(23);
  MultiHeadAttention mha(8, 2);
  mha.init_random(rng);
  Matrix queries_from = ref::random_matrix(4, 8, rng), keys_from = ref::random_matrix(7, 8, rng);
  const Matrix r = ref::random_matrix(4, 8, rng);
  const AttentionOptions o;  // the decoder's cross-attention: no mask, no RoPE
  MultiHeadTrace trace;
  mha.forward(queries_from, keys_from, o, std::nullopt, nullptr, &trace);
  MultiHeadAttention grad(8, 2);
  const auto d = mha.backward(queries_from, keys_from, o, std::nullopt, nullptr, trace, r, grad);
  auto loss = [&] { return weighted_sum(mha.forward(queries_from, keys_from, o, std::nullopt, nullptr, nullptr), r); };
  check_gradient("d queries_from", queries_from, d.queries_from, loss);
  check_gradient("d keys_from", keys_from, d.keys_from, loss);
  check_projection_gradients(mha, grad, loss);
  check_gradient("dbk", mha.wk.bias, grad.wk.bias, loss);
}

TEST_CASE("gradient: decoder with cross-attention, every parameter and dL/dmemory, pre- and post-LN, dropout") {
  for (NormPlacement norm : {NormPlacement::Pre, NormPlacement::Post}) {
    for (float dropout : {0.0f, 0.2f}) {
      CAPTURE(to_string(norm));
      CAPTURE(dropout);
      const ModelConfig c = tiny_decoder_config(norm);
      Transformer model(c);
      model.init_random(8);
      perturb_norms_and_biases(model);
      Rng rng(31);
      Matrix memory = ref::random_matrix(6, c.d_model, rng);  // an encoder output of 6 rows
      RunOptions o;
      o.memory = &memory;
      o.dropout = dropout;
      o.dropout_seed = 555;
      const std::vector<std::string> names = check_model_gradients(model, kTinyExample, o);
      CHECK(std::count(names.begin(), names.end(), "layers.1.cross_attn.wk.weight") == 1);
      CHECK(std::count(names.begin(), names.end(), "layers.1.ln_cross.gamma") == 1);

      // dL/dmemory for L = Σ R ⊙ decoder(ids, memory): what the encoder's backward receives.
      const Matrix r = ref::random_matrix(static_cast<Eigen::Index>(kTinyExample.ids.size()), c.d_model, rng);
      ForwardTrace trace;
      model.forward(kTinyExample.ids, o, &trace);
      Transformer grads = gradient_buffer(c);
      const Matrix d_memory = model.backward(kTinyExample.ids, o, trace, r, grads);
      check_gradient("d memory", memory, d_memory,
                     [&] { return weighted_sum(model.forward(kTinyExample.ids, o, nullptr), r); });
    }
  }
}

TEST_CASE("gradient: encoder–decoder end to end, the encoder learning through the decoder's memory") {
  for (float dropout : {0.0f, 0.2f}) {
    CAPTURE(dropout);
    ModelConfig encoder_config = tiny_model_config(PositionalEncoding::Sinusoidal);
    encoder_config.vocab_size = 13;  // its own vocabulary: the source language's
    Transformer encoder(encoder_config), decoder(tiny_decoder_config(NormPlacement::Pre));
    encoder.init_random(3);
    decoder.init_random(4);
    perturb_norms_and_biases(encoder);
    perturb_norms_and_biases(decoder);
    const std::vector<int> source = {12, 0, 5, 8, 2, 6};
    EncoderDecoderOptions o;
    o.encoder.dropout = o.decoder.dropout = dropout;
    o.encoder.dropout_seed = 17;
    o.decoder.dropout_seed = 18;
    const EncoderDecoder pair{encoder, decoder};
    Transformer encoder_grads = gradient_buffer(encoder.config()), decoder_grads = gradient_buffer(decoder.config());
    EncoderDecoderGradients grads{encoder_grads, decoder_grads};
    const ExampleResult r = accumulate_gradients(pair, source, kTinyExample, o, 1.0f, grads);
    auto loss = [&] { return evaluate_example(pair, source, kTinyExample, o).loss; };
    CHECK(r.loss == doctest::Approx(loss()).epsilon(1e-6));
    const std::vector<std::string> names = check_parameter_gradients(encoder, encoder_grads, loss);
    CHECK(std::count(names.begin(), names.end(), "token_embedding") == 1);
    check_parameter_gradients(decoder, decoder_grads, loss);
  }
  // A decoder that does not cross-attend would leave the encoder untrained: refused.
  Transformer encoder(tiny_model_config(PositionalEncoding::Rope)), plain(tiny_model_config(PositionalEncoding::Rope));
  Transformer encoder_grads = gradient_buffer(encoder.config()), plain_grads = gradient_buffer(plain.config());
  EncoderDecoderGradients grads{encoder_grads, plain_grads};
  CHECK_THROWS_AS(accumulate_gradients(EncoderDecoder{encoder, plain}, {1, 2}, kTinyExample, {}, 1.0f, grads),
                  std::invalid_argument);
}

TEST_CASE("gradient: cross-entropy") {
  Rng rng(7);
  Matrix logits = ref::random_matrix(3, 6, rng, 3.0);
  const std::vector<int> targets = {0, 5, 2};
  Matrix d;
  cross_entropy(logits, targets, &d);
  check_gradient("dlogits", logits, d, [&] { return cross_entropy(logits, targets, nullptr); });
}

TEST_CASE("gradient: whole model with a prediction loss, every positional encoding, shifted positions") {
  for (auto pe : {PositionalEncoding::None, PositionalEncoding::Sinusoidal, PositionalEncoding::Learned,
                  PositionalEncoding::Rope}) {
    for (bool causal : {false, true}) {
      CAPTURE(to_string(pe));
      CAPTURE(causal);
      ModelConfig c = tiny_model_config(pe);
      c.causal = causal;
      Transformer model(c);
      model.init_random(8);
      perturb_norms_and_biases(model);
      // Shifted positions (training augmentation): the gradient must land on rows 2..6.
      RunOptions run;
      run.position_offset = 2;
      check_model_gradients(model, kTinyExample, run);
    }
  }
}

// --- dropout (training): the masks are fixed by the seed, so the finite differences see the
// same masks as the analytic pass -------------------------------------------------------------

TEST_CASE("dropout masks: seeded, inverted scaling, rate close to p") {
  const Matrix a = dropout_mask(40, 50, 0.25f, 11), b = dropout_mask(40, 50, 0.25f, 11),
               c = dropout_mask(40, 50, 0.25f, 12);
  CHECK(a == b);
  CHECK(a != c);
  int dropped = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float x = a.data()[i];
    CHECK((x == 0.0f || x == doctest::Approx(1.0 / 0.75)));
    dropped += x == 0.0f;
  }
  CHECK(dropped / 2000.0 == doctest::Approx(0.25).epsilon(0.2));
  CHECK(derive_seed(5, 0) != derive_seed(5, 1));
  CHECK(derive_seed(5, 0) != derive_seed(6, 0));
}

// The plain loop every path must reproduce (the AVX-512 one included, where the CPU has it).
TEST_CASE("dropout masks equal a plain loop over Rng's draws, for every width and rate") {
  for (const float p : {0.0f, 0.1f, 0.5f, 0.9f})
    for (const Eigen::Index cols : {1, 7, 15, 16, 17, 31, 32, 33, 64, 100, 256}) {
      CAPTURE(p);
      CAPTURE(cols);
      const Matrix m = dropout_mask(3, cols, p, 99);
      Rng rng(99);
      const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(p) * 0x1.0p53);
      bool same = true;
      for (Eigen::Index i = 0; i < 3; ++i)
        for (Eigen::Index j = 0; j < cols; ++j)
          same = same && m(i, j) == ((rng.next_u64() >> 11) < threshold ? 0.0f : 1.0f / (1.0f - p));
      CHECK(same);
    }
}

TEST_CASE("dropout_mask_rows: the rows of dropout_mask, drawn directly") {
  const Matrix whole = dropout_mask(30, 70, 0.1f, 21);
  const std::vector<int> rows = {0, 4, 5, 29};
  const Matrix some = dropout_mask_rows(rows, 70, 0.1f, 21);
  REQUIRE(some.rows() == 4);
  for (size_t i = 0; i < rows.size(); ++i) CHECK(some.row(static_cast<Eigen::Index>(i)) == whole.row(rows[i]));
  CHECK_THROWS_AS(dropout_mask_rows({-1}, 3, 0.1f, 1), std::invalid_argument);
  CHECK_THROWS_AS(dropout_mask_rows({0}, 3, 1.0f, 1), std::invalid_argument);
}

TEST_CASE("gradient: attention with dropout on the weights") {
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    Rng rng(21);
    Matrix q = ref::random_matrix(5, 4, rng), k = ref::random_matrix(5, 4, rng), v = ref::random_matrix(5, 3, rng);
    const Matrix r = ref::random_matrix(5, 3, rng);
    AttentionOptions o;
    o.mask.causal = causal;
    o.dropout = 0.3f;
    o.dropout_seed = 99;
    const AttentionTrace t = attention_traced(q, k, v, o);
    REQUIRE(t.dropout_mask.rows() == 5);
    // The trace keeps the undropped weights for display; the output uses the dropped ones.
    for (Eigen::Index i = 0; i < t.weights.rows(); ++i) CHECK(t.weights.row(i).sum() == doctest::Approx(1.0));
    CHECK(t.output.isApprox((t.weights.array() * t.dropout_mask.array()).matrix() * v));
    CHECK(attention(q, k, v, o) == t.output);
    const AttentionGradients g = attention_backward(q, k, v, t, o, r);
    check_gradients([&] { return weighted_sum(attention(q, k, v, o), r); },
                    {{"dq", q, g.q}, {"dk", k, g.k}, {"dv", v, g.v}});
  }
}

TEST_CASE("gradient: feed-forward with dropout after GELU") {
  const Matrix mask = dropout_mask(3, 16, 0.4f, 5);
  check_feed_forward_gradients(22, &mask);
}

TEST_CASE("gradient: whole model with dropout (fixed seed), every positional encoding") {
  for (auto pe : {PositionalEncoding::Learned, PositionalEncoding::Sinusoidal, PositionalEncoding::Rope}) {
    CAPTURE(to_string(pe));
    Transformer model(tiny_model_config(pe));
    model.init_random(8);
    perturb_norms_and_biases(model);
    const TrainingExample& ex = kTinyExample;
    RunOptions o;
    o.dropout = 0.2f;
    o.dropout_seed = 1234;
    // Dropout changes the output; the same seed reproduces it; dropout = 0 is the plain forward.
    const Matrix plain = model.forward(ex.ids, RunOptions{}, nullptr);
    const Matrix dropped = model.forward(ex.ids, o, nullptr);
    CHECK(dropped != plain);
    CHECK(model.forward(ex.ids, o, nullptr) == dropped);
    RunOptions off = o;
    off.dropout = 0.0f;
    CHECK(model.forward(ex.ids, off, nullptr) == plain);
    check_model_gradients(model, ex, o);
  }
}

TEST_CASE("gradient: post-LN model (no final norm), with and without dropout, causal and not") {
  for (float dropout : {0.0f, 0.2f}) {
    for (bool causal : {false, true}) {
      CAPTURE(dropout);
      CAPTURE(causal);
      ModelConfig c = tiny_model_config(PositionalEncoding::Rope);
      c.norm = NormPlacement::Post;
      c.causal = causal;
      Transformer model(c);
      model.init_random(8);
      perturb_norms_and_biases(model);
      RunOptions o;
      o.dropout = dropout;
      o.dropout_seed = 4321;
      const std::vector<std::string> names = check_model_gradients(model, kTinyExample, o);
      // Every layer's two LayerNorms are in the check, and there is no final norm.
      CHECK(std::count(names.begin(), names.end(), "layers.1.ln_ffn.gamma") == 1);
      CHECK(std::count(names.begin(), names.end(), "final_norm.gamma") == 0);
    }
  }
}

TEST_CASE("gradient: untied output head, with and without dropout") {
  for (float dropout : {0.0f, 0.2f}) {
    CAPTURE(dropout);
    ModelConfig c = tiny_model_config(PositionalEncoding::Learned);
    c.tie_output = false;
    Transformer model(c);
    model.init_random(8);
    RunOptions o;
    o.dropout = dropout;
    o.dropout_seed = 77;
    const std::vector<std::string> names = check_model_gradients(model, kTinyExample, o);
    REQUIRE(names.back() == "output_projection.weight");
    Matrix* projection = nullptr;
    model.visit_parameters([&](const std::string& n, Matrix& m) {
      if (n == names.back()) projection = &m;
    });
    CHECK(projection->rows() == 8);
    CHECK(projection->cols() == 11);
  }
}
