// RunOptions::output_rows (training runs the last layer's feed-forward sublayer and the final
// norm on the rows the loss reads) against the whole forward and backward: the same bits, or
// the trained models would change. Coreference-sized layers (d 64, d_ff 256), so that the
// products run on the tiles as in npm run train.
#include "model/transformer.h"
#include "reference.h"
#include "train/loss.h"
#include "train/optimizer.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace ae;

namespace {

bool same_bits(const Matrix& a, const Matrix& b) {
  // An empty matrix (a model without cross-attention has no dL/dmemory) has no data to compare:
  // memcmp must not be given its null pointer.
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())) == 0);
}

Matrix rows_of(const Matrix& m, const std::vector<int>& rows) {
  Matrix out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(rows[i]);
  return out;
}

// Every parameter of a and b (gradient buffers) bit for bit, naming the first that differs.
void check_same_parameters(Transformer& a, Transformer& b) {
  std::vector<std::pair<std::string, Matrix*>> pa, pb;
  a.visit_parameters([&](const std::string& n, Matrix& m) { pa.emplace_back(n, &m); });
  b.visit_parameters([&](const std::string& n, Matrix& m) { pb.emplace_back(n, &m); });
  REQUIRE(pa.size() == pb.size());
  for (size_t i = 0; i < pa.size(); ++i) {
    INFO(pa[i].first);
    CHECK(same_bits(*pa[i].second, *pb[i].second));
  }
}

ModelConfig coref_sized(NormPlacement norm, bool causal) {
  return {.vocab_size = 40,
          .d_model = 64,
          .n_heads = 4,
          .n_layers = 2,
          .max_len = 48,
          .positional = PositionalEncoding::Rope,
          .norm = norm,
          .causal = causal};
}

std::vector<int> random_ids(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) ids.push_back(static_cast<int>(rng.below(40)));
  return ids;
}

}  // namespace

TEST_CASE("output_rows: the whole forward's rows and gradients bit for bit, pre- and post-LN, with dropout") {
  const int n = 37;
  const std::vector<int> rows = {2, 3, 17, 36};
  const std::vector<int> ids = random_ids(n, 5);
  // The decoders also cross-attend to an encoder output of 19 rows, whose gradient must not change either.
  Matrix memory(19, 64);
  Rng memory_rng(13);
  for (Eigen::Index i = 0; i < memory.size(); ++i) memory.data()[i] = static_cast<float>(memory_rng.normal());
  for (NormPlacement norm : {NormPlacement::Pre, NormPlacement::Post}) {
    for (int kind = 0; kind < 3; ++kind) {  // encoder, decoder, decoder with cross-attention
      for (float dropout : {0.0f, 0.1f}) {
        const bool causal = kind > 0, cross = kind == 2;
        CAPTURE(to_string(norm));
        CAPTURE(causal);
        CAPTURE(cross);
        CAPTURE(dropout);
        ModelConfig c = coref_sized(norm, causal);
        c.cross_attention = cross;
        Transformer model(c);
        model.init_random(9);
        // Natively the backward's sums over rows run on the tiles; in wasm they are Eigen's.
#ifdef __EMSCRIPTEN__
        if (!model.output_rows_exact(n, static_cast<int>(rows.size()))) continue;
#else
        REQUIRE(model.output_rows_exact(n, static_cast<int>(rows.size())));
#endif
        RunOptions whole;
        whole.dropout = dropout;
        whole.dropout_seed = 99;
        whole.position_offset = 3;
        if (cross) whole.memory = &memory;
        RunOptions some = whole;
        some.output_rows = rows;

        ForwardTrace trace_whole, trace_some;
        const Matrix out_whole = model.forward(ids, whole, &trace_whole);
        const Matrix out_some = model.forward(ids, some, &trace_some);
        CHECK(same_bits(out_some, rows_of(out_whole, rows)));
        CHECK(same_bits(model.forward(ids, some, nullptr), out_some));

        Rng rng(11);
        const Matrix d_some = ref::random_matrix(static_cast<Eigen::Index>(rows.size()), c.d_model, rng);
        Matrix d_whole = Matrix::Zero(n, c.d_model);
        for (size_t i = 0; i < rows.size(); ++i) d_whole.row(rows[i]) = d_some.row(static_cast<Eigen::Index>(i));
        Transformer grads_whole = gradient_buffer(c), grads_some = gradient_buffer(c);
        const Matrix d_memory_whole = model.backward(ids, whole, trace_whole, d_whole, grads_whole);
        const Matrix d_memory_some = model.backward(ids, some, trace_some, d_some, grads_some);
        check_same_parameters(grads_whole, grads_some);
        CHECK(d_memory_whole.rows() == (cross ? 19 : 0));
        CHECK(same_bits(d_memory_whole, d_memory_some));
      }
    }
  }
}

TEST_CASE("output_rows: accumulate_gradients gives the whole forward's loss and gradients bit for bit") {
  // Repeated and unsorted positions: the trainer reads each row once and maps the positions to it.
  const int n = 30;
  const TrainingExample ex{random_ids(n, 6), {21, 4, 21, 29, 0}, {1, 7, 3, 39, 12}};
  const ModelConfig c = coref_sized(NormPlacement::Pre, false);
  Transformer model(c);
  model.init_random(12);
  RunOptions run;
  run.dropout = 0.1f;
  run.dropout_seed = 7;
  const float weight = 0.25f;

  Transformer grads = gradient_buffer(c);
  const ExampleResult r = accumulate_gradients(model, ex, run, weight, grads);

  // The trainer's steps before output_rows, on every row.
  Transformer expected = gradient_buffer(c);
  ForwardTrace trace;
  const Matrix hidden = model.forward(ex.ids, run, &trace);
  const Matrix picked = rows_of(hidden, ex.positions);
  const Matrix logits = model.logits(picked);
  Matrix d_logits;
  const float loss = cross_entropy(logits, ex.targets, &d_logits);
  d_logits *= weight;
  const Matrix d_picked = model.logits_backward(picked, d_logits, expected);
  Matrix d_hidden = Matrix::Zero(hidden.rows(), hidden.cols());
  for (size_t i = 0; i < ex.positions.size(); ++i)
    d_hidden.row(ex.positions[i]) += d_picked.row(static_cast<Eigen::Index>(i));
  model.backward(ex.ids, run, trace, d_hidden, expected);

  CHECK(std::memcmp(&r.loss, &loss, sizeof loss) == 0);
  check_same_parameters(grads, expected);
}

TEST_CASE("held transposed weights: accumulate_gradients gives the same loss and gradients bit for bit") {
  // Trainer::step holds each weight's transpose in the gradient buffer (hold_transposed_weights)
  // so that dx = dy·Wᵀ reads Wᵀ in place; the gradients must not change by a bit. Tied and untied
  // output heads, pre- and post-LN, causal or not, with dropout.
  for (int variant = 0; variant < 4; ++variant) {
    CAPTURE(variant);
    ModelConfig c = coref_sized(variant % 2 ? NormPlacement::Post : NormPlacement::Pre, variant >= 2);
    c.tie_output = variant < 2;
    Transformer model(c);
    model.init_random(30 + static_cast<uint64_t>(variant));
    RunOptions run;
    run.dropout = 0.1f;
    run.dropout_seed = 9;
    const TrainingExample ex{random_ids(23, 40 + static_cast<uint64_t>(variant)), {22, 5}, {3, 17}};
    Transformer plain = gradient_buffer(c), held = gradient_buffer(c);
    held.hold_transposed_weights(model);
    const ExampleResult a = accumulate_gradients(model, ex, run, 0.5f, plain);
    const ExampleResult b = accumulate_gradients(model, ex, run, 0.5f, held);
    CHECK(std::memcmp(&a.loss, &b.loss, sizeof a.loss) == 0);
    check_same_parameters(plain, held);
  }
  // A buffer of another config is refused rather than read with the wrong transposes.
  Transformer small(coref_sized(NormPlacement::Pre, false));
  ModelConfig other = coref_sized(NormPlacement::Pre, false);
  other.n_layers = 3;
  Transformer buffer = gradient_buffer(other);
  CHECK_THROWS_AS(buffer.hold_transposed_weights(small), std::invalid_argument);
  ModelConfig wider = coref_sized(NormPlacement::Pre, false);
  wider.d_ff = 128;  // the same layers, another width of the feed-forward weights
  Transformer wider_buffer = gradient_buffer(wider);
  CHECK_THROWS_AS(wider_buffer.hold_transposed_weights(small), std::invalid_argument);
}

TEST_CASE("output_rows: refused out of order or out of range") {
  Transformer model(coref_sized(NormPlacement::Pre, false));
  model.init_random(1);
  const std::vector<int> ids = random_ids(10, 2);
  for (const std::vector<int>& bad :
       {std::vector<int>{3, 3}, std::vector<int>{4, 2}, std::vector<int>{-1}, std::vector<int>{10}}) {
    RunOptions o;
    o.output_rows = bad;
    CHECK_THROWS_AS(model.forward(ids, o, nullptr), std::invalid_argument);
  }
}
