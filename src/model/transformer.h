// A Transformer stack: token embedding (+ positional encoding), N layers, and a final
// LayerNorm for pre-LN stacks. An encoder attends in both directions; a decoder is causal
// and may cross-attend to an encoder's output.
#pragma once

#include "model/config.h"
#include "model/layers.h"

#include <functional>
#include <optional>
#include <vector>

namespace ae {

class KvCache;       // model/kv_cache.h
struct CachedTrace;  // model/kv_cache.h

// Per-call switches; none of them changes the weights.
struct RunOptions {
  std::optional<bool> causal;  // override the config's mask (teaching: toggle it on any model)
  int window = 0;              // sliding-window width, 0 = off
  bool scale = true;           // divide scores by √dh
  float score_multiplier = 1.0f;
  std::vector<uint8_t> key_padding;               // one flag per input token, nonzero = hidden
  std::vector<std::vector<uint8_t>> head_active;  // per layer, per head; empty = all heads on
  const Matrix* memory = nullptr;                 // encoder output, for cross-attention
  // Training only: inverted dropout with probability `dropout` on the attention weights, each
  // sublayer output before its residual add, and the FFN activation after GELU. Masks are drawn
  // from streams derived from dropout_seed (per layer, then per site and head), so a seed always
  // gives the same masks. 0 = off: inference.
  float dropout = 0.0f;
  uint64_t dropout_seed = 0;
  // Training augmentation: token i gets the additive position (sinusoidal or learned) of
  // position_offset + i, so that absolute positions stop identifying a template. 0 = inference.
  int position_offset = 0;
  // Per layer, nonzero = keep its trace; empty = every layer. A layer left out runs the
  // untraced attention (no n×n matrices) and keeps only its output in the trace, so a big
  // model's trace grows with the layers on view, not all of them. Inference only.
  std::vector<uint8_t> traced_layers;
  // The output rows the caller reads (ascending, distinct positions; empty = all): the loss's
  // positions in training. The last layer's feed-forward sublayer and the final norm then run
  // on these rows alone and forward returns just them, in this order (the trace's last layer
  // output and `output` too); no other row's output reaches them, so they are the bits of the
  // whole forward. backward then takes dL/d(these rows) (see output_rows_exact).
  std::vector<int> output_rows;
};

struct ForwardTrace {
  Matrix embeddings;  // n×d: token embedding + additive positional encoding
  // A layer left out by RunOptions::traced_layers has only its output (no heads, no stages).
  std::vector<LayerTrace> layers;
  Matrix output;  // n×d: after the final LayerNorm (pre-LN) or the last layer (post-LN)

  // The input of layer l: the embeddings for layer 0, else layer l − 1's output.
  const Matrix& layer_input(size_t l) const { return l == 0 ? embeddings : layers[l - 1].output; }
};

class Transformer {
 public:
  // Validates the config (up to max_parameters); parameters start at zero (LayerNorm gains at one).
  explicit Transformer(const ModelConfig& config, int64_t max_parameters = kMaxParameters);

  // Deterministic initialisation: the same seed gives the same weights on every build.
  // Embeddings (token and learned position) ~ N(0, embedding_std²); projections ~ N(0, 1/fan_in),
  // including an untied output projection (drawn last, so tied models are unaffected).
  // Unit embeddings make an untrained model's attention visibly non-uniform; training starts
  // smaller so that the tied output head starts near a uniform guess.
  void init_random(uint64_t seed, float embedding_std = 1.0f);

  const ModelConfig& config() const { return config_; }

  // ids: n token ids in [0, vocab_size) → n×d embeddings (with sinusoidal/learned encoding of
  // positions position_offset … position_offset + n − 1 added).
  Matrix embed(const std::vector<int>& ids, int position_offset = 0) const;

  // Runs the stack on token ids. Throws std::invalid_argument on an empty or too long input,
  // out-of-range ids, or inconsistent options.
  Matrix forward(const std::vector<int>& ids, const RunOptions& options, ForwardTrace* trace) const;

  // Runs the layers on ready-made embeddings x (n×d): positional encoding is *not* added here
  // except RoPE, which lives inside attention. Lets tests feed arbitrary vectors.
  Matrix forward_embeddings(const Matrix& x, const RunOptions& options, ForwardTrace* trace) const;

  // Incremental decoding (model/kv_cache.h): runs r new tokens at positions cache.rows() …
  // cache.rows() + r − 1, appends their keys and values to the cache and attends over every
  // cached row. Returns the r×d output rows, equal (up to float rounding) to the last r rows of
  // forward() on the whole sequence. Causal models without cross-attention, default options.
  // On an error the cache is left as it was.
  Matrix forward_cached(const std::vector<int>& ids, KvCache& cache, CachedTrace* trace) const;

  // Vocabulary logits for hidden rows (k×d → k×V): h·Eᵀ + b. The output projection is tied
  // to the token embedding E, so predicting a word means pointing at that word's vector.
  // With config.tie_output = false it is a separate d×V matrix W instead: h·W + b.
  Matrix logits(const Matrix& hidden) const;

  // --- training (src/train/); the layers' backwards are beside their forwards in layers.cpp ---
  // Backward of logits(hidden): adds into grads' embedding and output bias, returns dL/dhidden.
  // It is logits_backward_parameters, then logits_backward_input (the two touch different
  // matrices, so either order gives the same bits).
  Matrix logits_backward(const Matrix& hidden, const Matrix& d_logits, Transformer& grads) const;
  void logits_backward_parameters(const Matrix& hidden, const Matrix& d_logits, Transformer& grads) const;
  Matrix logits_backward_input(const Matrix& d_logits, const Transformer& grads) const;
  // Backward of forward(ids, options, &trace) given dL/d(output) (n×d, or one row per
  // options.output_rows); gradients are added into grads, a Transformer of the same config used
  // as an accumulator. Returns dL/d(options.memory) (m×d) for a decoder with cross-attention —
  // the d_output of the encoder's backward, which trains the pair end to end — and an empty
  // matrix for a model without it.
  // before_embedding, if given, runs just before the gradient reaches the embeddings, in their
  // turn (order_additions): where the trainer adds the logits' parameter gradients, whose sum into
  // a tied embedding must come before the example's rows.
  Matrix backward(const std::vector<int>& ids, const RunOptions& options, const ForwardTrace& trace,
                  const Matrix& d_output, Transformer& grads,
                  const std::function<void()>& before_embedding = nullptr) const;
  // Whether backward with output_rows (t of n rows) gives bit for bit the gradients of the whole
  // forward and a dL/d(output) that is zero in the other rows: true natively (the sums over rows
  // run on the tiles), false in wasm (Eigen's sums there depend on the number of rows).
  bool output_rows_exact(int n, int t) const;
  // For a gradient buffer (train/optimizer.h, gradient_buffer): hold the transposes of model's
  // weight matrices, which backward then reads in place instead of transposing them for every
  // example (the same bits). They are a copy: hold them again whenever model's weights change
  // (Trainer::step does, before each step's examples). Throws std::invalid_argument for a model
  // of another config.
  void hold_transposed_weights(const Transformer& model);
  // For a gradient buffer that threads add into (Trainer with TrainOptions::threads > 1): a gate
  // from new_gate() for each group of parameters one call adds into — every Linear, every
  // LayerNorm, and the embeddings with the output head (backward's before_embedding) — so that
  // each parameter's additions are made in example order (util/turns.h).
  void order_additions(const std::function<TurnGate*()>& new_gate);

  // --- batched training (model/transformer_batch.cpp) ---
  // forward and backward of a batch of examples as one pass, layer by layer: every linear's
  // forward and dL/dx are one product over the batch's rows stacked (one GEMM per linear and
  // batch instead of one per example), while each example's attention, dropout masks and
  // weight-gradient sums are its own, and the sums are added into grads example after example,
  // as backward() called on each example in turn adds them. The result is that loop's, bit for
  // bit (tests/native/test_training.cpp): a row of a tile product does not depend on the other
  // rows (gemm_rows_independent, matmul_runs_on_tiles); where a product would not run on the
  // tiles for an example's own rows (natively, a shape that Eigen sums in an order that depends
  // on the number of rows), that product runs example by example, as before.
  // Supported: no cross-attention or memory, no head ablation, no traced_layers; each example's
  // options may differ in dropout_seed, position_offset and output_rows only.
  struct BatchExample {
    const std::vector<int>* ids = nullptr;
    RunOptions options;
  };
  struct BatchTrace {
    std::vector<Eigen::Index> input_offsets;   // example e: rows [input_offsets[e], input_offsets[e + 1]) of the input
    std::vector<Eigen::Index> output_offsets;  // … and of forward_batch's result (output_rows, or all n)
    ForwardTrace stacked;                      // the traces of the examples, stacked row-wise (heads example-major)
  };
  // The examples' forward() results stacked (example e at output_offsets[e]). Throws as forward().
  Matrix forward_batch(const std::vector<BatchExample>& batch, BatchTrace& trace) const;
  // Backward of forward_batch given dL/d(its result): adds into grads as backward() on each
  // example in turn would. before_embedding(e), if given, runs just before example e's gradient
  // reaches the embeddings: where a caller adds what else it has of example e's (the logits'
  // gradients, whose sum into a tied embedding must come before the example's rows, as in the
  // per-example loop).
  void backward_batch(const std::vector<BatchExample>& batch, const BatchTrace& trace, const Matrix& d_output,
                      Transformer& grads, const std::function<void(size_t)>& before_embedding) const;

  void visit_parameters(const ParameterVisitor& f);
  size_t parameter_count() const;

 private:
  LayerOptions layer_options(const RunOptions& options) const;

  ModelConfig config_;
  Matrix token_embedding_;      // V×d
  Matrix position_embedding_;   // max_len×d, learned encoding only
  Matrix output_bias_;          // 1×V
  Matrix output_projection_;    // d×V, untied output head only (config.tie_output = false)
  Matrix output_projection_t_;  // in a gradient buffer: the model's output_projection_ᵀ (hold_transposed_weights)
  TurnGate* embedding_turn_ = nullptr;  // in a gradient buffer: order_additions
  std::vector<TransformerLayer> layers_;
  std::optional<LayerNorm> final_norm_;  // pre-LN only
  std::optional<RopeTable> rope_table_;  // RoPE only: the rotations of positions 0 … max_len − 1
};

}  // namespace ae
