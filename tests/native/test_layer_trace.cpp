// The stages of a layer's trace (ae::layer_stages): every stage against a plain-loop
// recomputation from the layer's parameters, the identities that tie them together
// (residual1 = input + attention, output = residual1 + ffn, …), the stack's chaining (layer
// l's input is layer l − 1's output), row_norms, and that tracing changes no number.
#include "model/layers.h"
#include "model/transformer.h"
#include "reference.h"

#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

ae::ModelConfig stage_config(ae::NormPlacement norm) {
  ae::ModelConfig c;
  c.d_model = 16;
  c.n_heads = 4;
  c.norm = norm;
  c.positional = ae::PositionalEncoding::Rope;
  return c;
}

// Random values for every parameter (gains and biases too, so a missing term shows).
void randomize(ae::TransformerLayer& layer, uint64_t seed) {
  layer.visit("m", [&](const std::string&, ae::Matrix& m) {
    m = ref::random_matrix(static_cast<int>(m.rows()), static_cast<int>(m.cols()), seed++, 0.25);
  });
}

std::map<std::string, const ae::Matrix*> by_name(const ae::LayerTrace& trace, const ae::Matrix& input) {
  std::map<std::string, const ae::Matrix*> out;
  for (const auto& s : ae::layer_stages(trace, input)) out[s.name] = s.value;
  return out;
}

ref::DMat ln(const ref::DMat& x, const ae::LayerNorm& norm) {
  return ref::layer_norm(x, ref::to_double(norm.gamma), ref::to_double(norm.beta), norm.eps);
}

ref::DMat gelu_rows(ref::DMat x) {
  for (double& v : x.v) v = ref::gelu(v);
  return x;
}

// Chained float products and norms of O(1) values.
constexpr double kAbs = 5e-6, kRel = 1e-5;

// Each named stage against its plain recomputation.
void check_stages_near(const std::map<std::string, const ae::Matrix*>& stages,
                       const std::vector<std::pair<std::string, ref::DMat>>& expected) {
  for (const auto& [name, want] : expected) {
    const auto& name_ = name;  // clang 14 cannot capture a structured binding
    CAPTURE(name_);
    CHECK_MATRIX_NEAR(*stages.at(name), want, kAbs, kRel);
  }
}

}  // namespace

TEST_CASE("layer_stages: nine stages in the lesson's order, each recomputed from the parameters") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post})
    for (bool causal : {false, true}) {
      CAPTURE(ae::to_string(norm));
      CAPTURE(causal);
      const ae::ModelConfig config = stage_config(norm);
      ae::TransformerLayer layer(config);
      randomize(layer, 900);
      const ae::Matrix x = ref::random_matrix(6, 16, 901);
      ae::LayerOptions o;
      o.self_attention.mask.causal = causal;
      o.rope = ae::RopeSettings{10000.0f};
      ae::LayerTrace trace;
      const ae::Matrix out = layer.forward(x, nullptr, o, &trace);

      const std::vector<ae::LayerStage> stages = ae::layer_stages(trace, x);
      REQUIRE(stages.size() == static_cast<size_t>(ae::kLayerStageCount));
      const char* order[] = {"input",     "norm1", "attention", "residual1", "norm2",
                             "ffnHidden", "ffn",   "residual2", "output"};
      for (int i = 0; i < ae::kLayerStageCount; ++i)
        CHECK(std::string(stages[static_cast<size_t>(i)].name) == order[i]);
      auto s = by_name(trace, x);
      for (const auto& [name, m] : s) {
        const auto& name_ = name;  // clang 14 cannot capture a structured binding
        CAPTURE(name_);
        CHECK(m->rows() == 6);
        CHECK(m->cols() == (name == "ffnHidden" ? 4 * 16 : 16));  // the FFN is 4× wide
      }

      // Plain recomputation from the equations in layers.h.
      const std::optional<double> rope = 10000.0;
      const ref::DMat xd = ref::to_double(x);
      CHECK_MATRIX_EQUAL(*s["input"], x);
      CHECK_MATRIX_EQUAL(*s["output"], out);
      if (norm == ae::NormPlacement::Pre) {
        const ref::DMat n1 = ln(xd, layer.ln_self);
        const ref::DMat att = ref::multi_head(layer.self_attention, n1, n1, o.self_attention, rope, nullptr).output;
        const ref::DMat r1 = ref::add(xd, att);
        const ref::DMat n2 = ln(r1, layer.ln_ffn);
        const ref::DMat hidden = gelu_rows(ref::linear(n2, layer.ffn.expand));
        const ref::DMat f = ref::linear(hidden, layer.ffn.project);
        check_stages_near(s, {{"norm1", n1},
                              {"attention", att},
                              {"residual1", r1},
                              {"norm2", n2},
                              {"ffnHidden", hidden},
                              {"ffn", f},
                              {"output", ref::add(r1, f)}});
        // The compositions hold exactly: the core adds the very same floats.
        CHECK_MATRIX_EQUAL(*s["residual1"], ae::Matrix(*s["input"] + *s["attention"]));
        CHECK_MATRIX_EQUAL(*s["output"], ae::Matrix(*s["residual1"] + *s["ffn"]));
        CHECK_MATRIX_EQUAL(*s["residual2"], *s["output"]);
      } else {
        const ref::DMat att = ref::multi_head(layer.self_attention, xd, xd, o.self_attention, rope, nullptr).output;
        const ref::DMat r1 = ref::add(xd, att);
        const ref::DMat n1 = ln(r1, layer.ln_self);
        const ref::DMat hidden = gelu_rows(ref::linear(n1, layer.ffn.expand));
        const ref::DMat f = ref::linear(hidden, layer.ffn.project);
        const ref::DMat r2 = ref::add(n1, f);
        check_stages_near(s, {{"attention", att},
                              {"residual1", r1},
                              {"norm1", n1},
                              {"ffnHidden", hidden},
                              {"ffn", f},
                              {"residual2", r2},
                              {"output", ln(r2, layer.ln_ffn)}});
        CHECK_MATRIX_EQUAL(*s["residual1"], ae::Matrix(*s["input"] + *s["attention"]));
        CHECK_MATRIX_EQUAL(*s["residual2"], ae::Matrix(*s["norm1"] + *s["ffn"]));
        CHECK_MATRIX_EQUAL(*s["norm2"], *s["output"]);
      }
      // The attention stage is the self-attention trace's output (concat·W_O + b_O).
      CHECK_MATRIX_EQUAL(*s["attention"], trace.self_attention.output);
      // The FFN's hidden stage is GELU of the expansion kept for backward.
      CHECK_MATRIX_NEAR(*s["ffnHidden"], gelu_rows(ref::to_double(trace.ffn_hidden)), 1e-6, 1e-6);
    }
}

TEST_CASE("tracing the stages changes no number of the forward pass") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post}) {
    CAPTURE(ae::to_string(norm));
    ae::TransformerLayer layer(stage_config(norm));
    randomize(layer, 910);
    const ae::Matrix x = ref::random_matrix(5, 16, 911);
    ae::LayerTrace trace;
    CHECK_MATRIX_EQUAL(layer.forward(x, nullptr, {}, &trace), layer.forward(x, nullptr, {}, nullptr));
  }
}

TEST_CASE("in a stack, layer l's input stage is layer l − 1's output, and layer 0's the embeddings") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post}) {
    CAPTURE(ae::to_string(norm));
    ae::ModelConfig c = stage_config(norm);
    c.vocab_size = 30, c.n_layers = 3, c.max_len = 16, c.positional = ae::PositionalEncoding::Learned;
    ae::Transformer model(c);
    model.init_random(5);
    ae::ForwardTrace trace;
    const ae::Matrix out = model.forward({5, 9, 12, 7, 20}, {}, &trace);
    REQUIRE(trace.layers.size() == 3);
    for (size_t l = 0; l < 3; ++l) {
      CAPTURE(l);
      const auto stages = ae::layer_stages(trace.layers[l], trace.layer_input(l));
      CHECK_MATRIX_EQUAL(*stages.front().value, l == 0 ? trace.embeddings : trace.layers[l - 1].output);
      // The layer read that input: residual1 = input + attention, to the bit.
      CHECK_MATRIX_EQUAL(trace.layers[l].after_self,
                         ae::Matrix(*stages.front().value + trace.layers[l].self_attention.output));
      CHECK_MATRIX_EQUAL(*stages.back().value, trace.layers[l].output);
    }
    if (norm == ae::NormPlacement::Post) CHECK_MATRIX_EQUAL(out, trace.layers.back().output);
  }
}

TEST_CASE("layer_stages throws for a trace without stages") {
  ae::LayerTrace empty;
  CHECK_THROWS_AS(ae::layer_stages(empty, ae::Matrix()), std::invalid_argument);
  // A training trace with dropout keeps only what backward needs.
  ae::TransformerLayer layer(stage_config(ae::NormPlacement::Pre));
  randomize(layer, 920);
  ae::LayerOptions o;
  o.dropout = 0.1f, o.dropout_seed = 3;
  ae::LayerTrace trace;
  const ae::Matrix x = ref::random_matrix(4, 16, 921);
  layer.forward(x, nullptr, o, &trace);
  CHECK_THROWS_AS(ae::layer_stages(trace, x), std::invalid_argument);
}

TEST_CASE("row_norms is the Euclidean length of each row") {
  const ae::Matrix m = ref::random_matrix(7, 13, 930, 2.0);
  const ae::Matrix norms = ae::row_norms(m);
  REQUIRE(norms.rows() == 7);
  REQUIRE(norms.cols() == 1);
  for (int r = 0; r < 7; ++r) {
    double sum = 0.0;
    for (int c = 0; c < 13; ++c) sum += static_cast<double>(m(r, c)) * m(r, c);
    CHECK(norms(r, 0) == doctest::Approx(std::sqrt(sum)).epsilon(1e-6));
  }
  ae::Matrix three_four(1, 2);
  three_four << 3.0f, 4.0f;
  CHECK(ae::row_norms(three_four)(0, 0) == 5.0f);
  // Huge but finite weights (a model file may hold them): the squares overflow a float, the norm does not.
  ae::Matrix huge(1, 2);
  huge << 1e30f, -1e30f;
  CHECK(ae::row_norms(huge)(0, 0) == doctest::Approx(std::sqrt(2.0) * 1e30).epsilon(1e-6));
}
