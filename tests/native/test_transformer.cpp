// The Transformer stack: causality of decoders, encoder/decoder switches, cross-attention,
// trace shapes, deterministic initialisation, pre-LN vs post-LN, input errors and parameter counts.
#include "model/transformer.h"
#include "reference.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using testing_helpers::max_abs_diff;

namespace {

constexpr int kVocab = 40, kWidth = 16, kHeads = 4, kLayers = 2, kMaxLen = 24;

ae::ModelConfig small_config(bool causal, ae::PositionalEncoding pe = ae::PositionalEncoding::Sinusoidal,
                             ae::NormPlacement norm = ae::NormPlacement::Pre) {
  ae::ModelConfig c;
  c.vocab_size = kVocab, c.d_model = kWidth, c.n_heads = kHeads, c.n_layers = kLayers, c.max_len = kMaxLen;
  c.causal = causal, c.positional = pe, c.norm = norm;
  return c;
}

ae::Transformer make_model(const ae::ModelConfig& c, uint64_t seed = 1) {
  ae::Transformer model(c);
  model.init_random(seed);
  return model;
}

std::vector<int> sample_ids(int n) {
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) ids.push_back((7 * i + 3) % kVocab);
  return ids;
}

double row_diff(const ae::Matrix& a, const ae::Matrix& b, int r) {
  return static_cast<double>((a.row(r) - b.row(r)).cwiseAbs().maxCoeff());
}

std::map<std::string, ae::Matrix> parameters(ae::Transformer& model) {
  std::map<std::string, ae::Matrix> out;
  model.visit_parameters([&](const std::string& name, ae::Matrix& m) { out[name] = m; });
  return out;
}

// Identical rows: a prefix that cannot see the change is computed from identical inputs, so only
// differences in float evaluation order could show up (none are expected; 1e-6 is a safety net).
constexpr double kSameRow = 1e-6;
// A changed token or memory moves LayerNorm'd outputs by O(0.1..1).
constexpr double kChangedRow = 1e-3;

struct Variant {
  ae::PositionalEncoding pe;
  ae::NormPlacement norm;
};
constexpr Variant kVariants[] = {{ae::PositionalEncoding::Sinusoidal, ae::NormPlacement::Pre},
                                 {ae::PositionalEncoding::Sinusoidal, ae::NormPlacement::Post},
                                 {ae::PositionalEncoding::Rope, ae::NormPlacement::Pre},
                                 {ae::PositionalEncoding::Learned, ae::NormPlacement::Post}};

// Runs the model on ids and on ids with position `changed` replaced; returns both outputs.
std::pair<ae::Matrix, ae::Matrix> run_with_change(const ae::Transformer& model, int n, int changed,
                                                  const ae::RunOptions& options = {}) {
  std::vector<int> ids = sample_ids(n), other = ids;
  other[static_cast<size_t>(changed)] = (other[static_cast<size_t>(changed)] + 11) % kVocab;
  return {model.forward(ids, options, nullptr), model.forward(other, options, nullptr)};
}

void check_prefix_unchanged(const ae::Matrix& a, const ae::Matrix& b, int changed) {
  for (int r = 0; r < changed; ++r) CHECK(row_diff(a, b, r) <= kSameRow);
  for (int r = changed; r < a.rows(); ++r) CHECK(row_diff(a, b, r) > kChangedRow);
}

void check_every_row_changed(const ae::Matrix& a, const ae::Matrix& b) {
  for (int r = 0; r < a.rows(); ++r) CHECK(row_diff(a, b, r) > kChangedRow);
}

}  // namespace

// For every variant, a decoder (causal) or an encoder, and tokens 1, 5 and 9 of 10 in turn: the
// outputs before and after that token changes, given to check(a, b, changed).
template <class Check>
void check_token_changes(bool causal, Check check) {
  for (const Variant& v : kVariants)
    for (int changed : {1, 5, 9}) {
      CAPTURE(ae::to_string(v.pe));
      CAPTURE(ae::to_string(v.norm));
      CAPTURE(changed);
      const auto [a, b] = run_with_change(make_model(small_config(causal, v.pe, v.norm)), 10, changed);
      check(a, b, changed);
    }
}

TEST_CASE("decoder: earlier output rows do not depend on later tokens") {
  check_token_changes(true, check_prefix_unchanged);
}

TEST_CASE("encoder: every output row depends on every token") {
  check_token_changes(false, [](const ae::Matrix& a, const ae::Matrix& b, int) { check_every_row_changed(a, b); });
}

TEST_CASE("RunOptions.causal overrides the config in both directions") {
  ae::RunOptions causal_on, causal_off;
  causal_on.causal = true;
  causal_off.causal = false;
  {
    const auto [a, b] = run_with_change(make_model(small_config(false)), 10, 6, causal_on);
    check_prefix_unchanged(a, b, 6);
  }
  {
    const auto [a, b] = run_with_change(make_model(small_config(true)), 10, 6, causal_off);
    check_every_row_changed(a, b);
  }
  // The override reaches the mask: weights above the diagonal are exactly 0 in every head.
  ae::ForwardTrace trace;
  make_model(small_config(false)).forward(sample_ids(7), causal_on, &trace);
  for (const ae::LayerTrace& layer : trace.layers)
    for (const ae::HeadTrace& head : layer.self_attention.heads)
      for (int i = 0; i < 7; ++i)
        for (int j = i + 1; j < 7; ++j) CHECK(head.attention.weights(i, j) == 0.0f);
}

TEST_CASE("run options reach every layer: window, key padding, scale and head ablation") {
  const ae::Transformer model = make_model(small_config(false));
  const int n = 8;
  ae::RunOptions o;
  o.window = 2;
  o.key_padding = {0, 0, 0, 1, 0, 0, 0, 0};
  o.scale = false;
  o.head_active = {{1, 1, 1, 1}, {1, 0, 1, 1}};
  ae::ForwardTrace trace;
  model.forward(sample_ids(n), o, &trace);
  for (size_t l = 0; l < trace.layers.size(); ++l)
    for (const ae::HeadTrace& head : trace.layers[l].self_attention.heads) {
      CAPTURE(l);
      CHECK_MATRIX_EQUAL(head.attention.scaled_scores, head.attention.raw_scores);  // scale off
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (std::abs(i - j) >= 2 || j == 3) CHECK(head.attention.weights(i, j) == 0.0f);
    }
  const int dh = kWidth / kHeads;
  const ae::Matrix& concat = trace.layers[1].self_attention.concat;
  CHECK_MATRIX_EQUAL(ae::Matrix(concat.middleCols(dh, dh)), ae::Matrix(ae::Matrix::Zero(n, dh)));
  CHECK(concat.middleCols(0, dh).cwiseAbs().maxCoeff() > 0.0f);
}

TEST_CASE("cross-attention decoder: output follows the memory, and missing memory is an error") {
  ae::ModelConfig c = small_config(true);
  c.cross_attention = true;
  const ae::Transformer decoder = make_model(c, 3);
  const ae::Matrix memory = ref::random_matrix(6, kWidth, 4), other_memory = ref::random_matrix(6, kWidth, 5);
  ae::RunOptions with_memory, with_other;
  with_memory.memory = &memory;
  with_other.memory = &other_memory;
  const std::vector<int> ids = sample_ids(5);

  ae::ForwardTrace trace;
  const ae::Matrix out = decoder.forward(ids, with_memory, &trace);
  check_every_row_changed(out, decoder.forward(ids, with_other, nullptr));
  for (const ae::LayerTrace& layer : trace.layers) {
    REQUIRE(layer.cross_attention.has_value());
    REQUIRE(layer.cross_attention->heads.size() == static_cast<size_t>(kHeads));
    CHECK(layer.cross_attention->heads[0].attention.weights.rows() == 5);
    CHECK(layer.cross_attention->heads[0].attention.weights.cols() == 6);
  }
  // Still causal in its self-attention.
  const auto [a, b] = run_with_change(decoder, 10, 4, with_memory);
  check_prefix_unchanged(a, b, 4);

  CHECK_THROWS_WITH_AS(decoder.forward(ids, {}, nullptr), doctest::Contains("encoder output"), std::invalid_argument);
  const ae::Matrix narrow = ref::random_matrix(6, kWidth - 1, 6);
  ae::RunOptions bad;
  bad.memory = &narrow;
  CHECK_THROWS_WITH_AS(decoder.forward(ids, bad, nullptr), doctest::Contains("memory"), std::invalid_argument);
}

TEST_CASE("the trace holds n_layers layers of n_heads heads with n x n weights") {
  struct Shape {
    int layers, heads;
  };
  for (const Shape s : {Shape{1, 1}, Shape{2, 4}, Shape{3, 2}})
    for (int n : {1, 5, 17}) {
      CAPTURE(s.layers);
      CAPTURE(s.heads);
      CAPTURE(n);
      ae::ModelConfig c = small_config(false);
      c.n_layers = s.layers, c.n_heads = s.heads;
      const ae::Transformer model = make_model(c);
      ae::ForwardTrace trace;
      const ae::Matrix out = model.forward(sample_ids(n), {}, &trace);
      CHECK_MATRIX_EQUAL(trace.embeddings, model.embed(sample_ids(n)));
      CHECK_MATRIX_EQUAL(trace.output, out);
      REQUIRE(trace.layers.size() == static_cast<size_t>(s.layers));
      for (const ae::LayerTrace& layer : trace.layers) {
        REQUIRE(layer.self_attention.heads.size() == static_cast<size_t>(s.heads));
        CHECK_FALSE(layer.cross_attention.has_value());
        for (const ae::HeadTrace& head : layer.self_attention.heads) {
          CHECK(head.attention.weights.rows() == n);
          CHECK(head.attention.weights.cols() == n);
          CHECK(head.q.cols() == kWidth / s.heads);
          CHECK(head.attention.output.rows() == n);
        }
        CHECK(layer.self_attention.concat.rows() == n);
        CHECK(layer.self_attention.concat.cols() == kWidth);
        CHECK(layer.output.rows() == n);
      }
    }
}

TEST_CASE("init_random is deterministic: same seed gives the same weights, another seed other weights") {
  for (const Variant& v : kVariants) {
    CAPTURE(ae::to_string(v.pe));
    const ae::ModelConfig c = small_config(false, v.pe, v.norm);
    ae::Transformer a = make_model(c, 42), b = make_model(c, 42), other = make_model(c, 43);
    const auto pa = parameters(a), pb = parameters(b), po = parameters(other);
    REQUIRE(pa.size() == pb.size());
    for (const auto& [name, value] : pa) {
      const auto& name_ = name;  // clang 14 cannot capture a structured binding
      CAPTURE(name_);
      CHECK_MATRIX_EQUAL(pb.at(name), value);
    }
    // Weights are random (biases and norm parameters start at 0 and 1 for every seed).
    for (const std::string name : {"token_embedding", "layers.0.self_attn.wq.weight", "layers.1.ffn.project.weight"}) {
      CAPTURE(name);
      CHECK(max_abs_diff(po.at(name), pa.at(name)) > 0.1);
      CHECK(pa.at(name).cwiseAbs().maxCoeff() > 0.1f);
    }
    // Re-initialising an existing model with the first seed restores it exactly.
    other.init_random(42);
    CHECK_MATRIX_EQUAL(parameters(other).at("layers.1.self_attn.wo.weight"), pa.at("layers.1.self_attn.wo.weight"));
  }
}

TEST_CASE("post-LN and pre-LN stacks give different outputs for the same weights") {
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    const ae::Matrix pre =
        make_model(small_config(causal, ae::PositionalEncoding::Sinusoidal, ae::NormPlacement::Pre), 8)
            .forward(sample_ids(6), {}, nullptr);
    const ae::Matrix post =
        make_model(small_config(causal, ae::PositionalEncoding::Sinusoidal, ae::NormPlacement::Post), 8)
            .forward(sample_ids(6), {}, nullptr);
    CHECK(max_abs_diff(pre, post) > 0.1);
  }
}

TEST_CASE("bad inputs throw std::invalid_argument with a message") {
  const ae::Transformer model = make_model(small_config(false));
  CHECK_THROWS_WITH_AS(model.forward({}, {}, nullptr), doctest::Contains("empty"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(model.forward(sample_ids(kMaxLen + 1), {}, nullptr), doctest::Contains("reads at most"),
                       std::invalid_argument);
  CHECK_NOTHROW(model.forward(sample_ids(kMaxLen), {}, nullptr));
  for (int bad_id : {-1, kVocab, kVocab + 100}) {
    CAPTURE(bad_id);
    std::vector<int> ids = sample_ids(4);
    ids[2] = bad_id;
    CHECK_THROWS_WITH_AS(model.forward(ids, {}, nullptr),
                         doctest::Contains(("token id " + std::to_string(bad_id)).c_str()), std::invalid_argument);
    CHECK_THROWS_WITH_AS(model.forward(ids, {}, nullptr), doctest::Contains("position 2"), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(model.forward_embeddings(ae::Matrix::Zero(3, kWidth + 1), {}, nullptr),
                       doctest::Contains("width"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(model.forward_embeddings(ae::Matrix::Zero(0, kWidth), {}, nullptr), doctest::Contains("empty"),
                       std::invalid_argument);
  ae::RunOptions three_layers;
  three_layers.head_active.assign(3, std::vector<uint8_t>(kHeads, 1));
  CHECK_THROWS_WITH_AS(model.forward(sample_ids(4), three_layers, nullptr), doctest::Contains("head_active"),
                       std::invalid_argument);
  ae::RunOptions short_padding;
  short_padding.key_padding = {0, 1};
  CHECK_THROWS_WITH_AS(model.forward(sample_ids(4), short_padding, nullptr), doctest::Contains("key_padding"),
                       std::invalid_argument);
}

namespace {

// The parameter count derived from the config fields, one term per parameter group.
size_t expected_parameter_count(const ae::ModelConfig& c) {
  const size_t V = static_cast<size_t>(c.vocab_size), d = static_cast<size_t>(c.d_model),
               ff = static_cast<size_t>(c.ffn_dim()), L = static_cast<size_t>(c.n_layers);
  const size_t attention = 4 * (d * d + d);     // W_Q, W_K, W_V, W_O with biases
  const size_t layer_norm = 2 * d;              // gamma, beta
  const size_t ffn = d * ff + ff + ff * d + d;  // expand and project with biases
  size_t per_layer = attention + 2 * layer_norm + ffn;
  if (c.cross_attention) per_layer += attention + layer_norm;
  size_t total = V * d  // token embedding
                 + V    // output bias of the tied vocabulary projection
                 + L * per_layer;
  if (c.positional == ae::PositionalEncoding::Learned) total += static_cast<size_t>(c.max_len) * d;
  if (c.norm == ae::NormPlacement::Pre) total += layer_norm;  // final LayerNorm
  return total;
}

}  // namespace

TEST_CASE("parameter_count equals the visit_parameters sum and the formula from the config") {
  std::vector<ae::ModelConfig> configs;
  for (const Variant& v : kVariants)
    for (bool cross : {false, true})
      for (int d_ff : {0, 20}) {
        ae::ModelConfig c = small_config(cross, v.pe, v.norm);
        c.cross_attention = cross, c.d_ff = d_ff;
        configs.push_back(c);
      }
  for (const ae::ModelConfig& c : configs) {
    CAPTURE(ae::to_string(c.positional));
    CAPTURE(ae::to_string(c.norm));
    CAPTURE(c.cross_attention);
    CAPTURE(c.d_ff);
    ae::Transformer model(c);
    size_t visited = 0;
    std::set<std::string> names;
    model.visit_parameters([&](const std::string& name, ae::Matrix& m) {
      visited += static_cast<size_t>(m.size());
      CHECK(names.insert(name).second);  // names are unique
    });
    CHECK(model.parameter_count() == visited);
    CHECK(model.parameter_count() == expected_parameter_count(c));
  }
}

TEST_CASE("position offset: token i gets the encoding of position offset + i, and must fit max_len") {
  ae::ModelConfig c;
  c.vocab_size = 10;
  c.d_model = 8;
  c.n_heads = 2;
  c.n_layers = 1;
  c.max_len = 6;
  for (auto pe : {ae::PositionalEncoding::Sinusoidal, ae::PositionalEncoding::Learned}) {
    c.positional = pe;
    ae::Transformer model(c);
    model.init_random(3);
    const ae::Matrix long_run = model.embed({4, 4, 1, 2, 3});
    const ae::Matrix shifted = model.embed({1, 2, 3}, 2);
    CHECK((shifted - long_run.bottomRows(3)).cwiseAbs().maxCoeff() == 0.0f);
    CHECK_THROWS_WITH_AS(model.embed({1, 2, 3}, 4), doctest::Contains("past the maximum length of 6"),
                         std::invalid_argument);
  }
}
