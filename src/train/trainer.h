// Training on examples that ask for a word at chosen positions: "at the pronoun, name the
// referent", "after '=', generate the referent", "at [CLS], name the agent". The loss acts
// only on these predictions — never on attention weights — so any pattern the heads show
// is whatever the task made useful.
#pragma once

#include "model/transformer.h"
#include "train/optimizer.h"
#include "util/rng.h"
#include "util/turns.h"
#include "util/worker_pool.h"

#include <cstdint>

#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace ae {

struct TrainingExample {
  std::vector<int> ids;
  std::vector<int> positions;  // where the model must predict
  std::vector<int> targets;    // the word id wanted at each of those positions
};

// An encoder–decoder's example: the source ids the encoder reads, and the decoder's example.
struct TranslationExample {
  std::vector<int> source;  // for the encoder
  TrainingExample target;   // the decoder's teacher-forced input and next-word targets
};

struct ExampleResult {
  float loss = 0.0f;  // mean cross-entropy over the example's targets
  int correct = 0;    // targets whose arg-max prediction is right
};

// Forward, loss and backward for one example; gradients are scaled by `weight` (1/batch)
// and added into grads.
ExampleResult accumulate_gradients(const Transformer& model, const TrainingExample& example, const RunOptions& options,
                                   float weight, Transformer& grads);

// Loss and correctness without gradients.
ExampleResult evaluate_example(const Transformer& model, const TrainingExample& example, const RunOptions& options);

// An encoder and a decoder that cross-attends to its output (config.cross_attention, the same
// d_model): the decoder reads the target side, the encoder the source side.
struct EncoderDecoder {
  const Transformer& encoder;
  const Transformer& decoder;
};
struct EncoderDecoderGradients {
  Transformer& encoder;
  Transformer& decoder;
};
// Each model's switches (dropout seeds, offsets); the decoder's memory is set to the encoder's
// output by the calls below.
struct EncoderDecoderOptions {
  RunOptions encoder, decoder;
};

// The two above for an encoder–decoder: the decoder reads example.ids while cross-attending to
// encoder(source) (source: m ids) and predicts example.targets. accumulate_gradients feeds the
// decoder's dL/dmemory (m×d) to the encoder's backward, so both learn from the one loss.
ExampleResult accumulate_gradients(const EncoderDecoder& pair, const std::vector<int>& source,
                                   const TrainingExample& example, const EncoderDecoderOptions& options, float weight,
                                   EncoderDecoderGradients& grads);
ExampleResult evaluate_example(const EncoderDecoder& pair, const std::vector<int>& source,
                               const TrainingExample& example, const EncoderDecoderOptions& options);

// Greedy decoding with an encoder–decoder: the decoder starts from `start` and appends its
// arg-max word until it writes `end` (kept in tokens) or max_steps words (or its max_len). Each
// step recomputes the whole prefix (forward_cached has no cross-attention), which is fine for
// sentences of a few dozen words.
struct GreedyDecoding {
  std::vector<int> tokens;           // the words written, without `start`
  std::vector<float> probabilities;  // the softmax probability of each, at its step
  // cross_attention[step][layer][head][j]: the weight the step's query (the decoder's last row)
  // puts on source word j: the trace's cross-attention weights, row by row.
  std::vector<std::vector<std::vector<std::vector<float>>>> cross_attention;
  // self_attention[step][layer][head][k]: the decoder's own causal self-attention of the step's
  // query over the prefix (k = 0 is `start`, k ≥ 1 the words written before this step).
  std::vector<std::vector<std::vector<std::vector<float>>>> self_attention;
};
// Throws std::invalid_argument for an empty source, max_steps < 1 or a decoder without cross-attention.
GreedyDecoding greedy_decode(const EncoderDecoder& pair, const std::vector<int>& source, int start, int end,
                             int max_steps);

struct TrainOptions {
  int steps = 1000;
  int batch_size = 32;
  uint64_t seed = 1;  // shuffling order, and the dropout masks
  // Inverted dropout (see RunOptions::dropout) during training; 0 = off. Each example's masks
  // come from a seed derived from (seed, step, index in the batch), so a run stays
  // deterministic for a given seed.
  float dropout = 0.0f;
  // Shift each example's positions by a random offset in [0, max_len − n] (see
  // RunOptions::position_offset), drawn from the same seed; false = every example starts at 0.
  bool random_position_offset = false;
  // Examples are shuffled in groups of this many consecutive ones: 2 keeps each minimal pair of
  // the coreference corpus in one batch, so every step sees both adjectives of a sentence.
  int group_size = 1;
  // A curriculum: the first `focus_steps` steps draw their batches only from these groups (group
  // indices as above, shuffled on each pass with a stream of their own); later steps draw from
  // all groups, as without it. Empty or 0 = no curriculum.
  int focus_steps = 0;
  std::vector<size_t> focus_groups;
  float focus_share = 1.0f;  // of each batch, during those steps; the rest from all groups
  AdamWOptions optimizer;
  // Trainer: run each step's batch as one pass (Transformer::forward_batch and backward_batch:
  // one product per linear and batch) instead of one forward and backward per example. The
  // same bits either way; false is the per-example loop, kept for tests and benchmarks.
  bool batched_rows = true;
  // Trainer: run each step's examples on this many threads (a pool started once by the trainer,
  // the caller's thread among them). Every parameter's gradient is still summed in example order
  // (util/turns.h), so any number of threads gives the per-example loop's bits; batched_rows is
  // then not used. 1 (or a wasm module without pthreads, util/worker_pool.h): no threads.
  int threads = 1;
};

struct StepReport {
  int step;
  float loss;      // mean over the batch
  float accuracy;  // over the batch's targets
  float grad_norm;
  float learning_rate;
};

// One epoch's example order: `groups` (group indices, shuffled in place, so each epoch continues
// from the last) expanded to the indices of their `group_size` consecutive examples. With group
// size 1 this is a plain Fisher–Yates shuffle of the examples.
std::vector<size_t> next_epoch_order(std::vector<size_t>& groups, size_t group_size, Rng& rng);

// The examples each step's batch is drawn from, in the order of TrainOptions (seeded shuffle in
// groups, a focus phase): what Trainer and EncoderDecoderTrainer share.
class BatchSampler {
 public:
  // Throws std::invalid_argument for what train() refuses (no examples, a bad batch or group size, …).
  BatchSampler(size_t examples, const TrainOptions& options);
  // The example indices of batch `step` (steps are drawn in order 0, 1, …).
  std::vector<size_t> next_batch(int step);

 private:
  size_t next_index();        // the next example of the shuffled epoch
  size_t next_focus_index();  // the same over the focus groups

  TrainOptions options_;
  Rng rng_;
  std::vector<size_t> groups_, order_;
  size_t cursor_ = 0;
  Rng focus_rng_;
  std::vector<size_t> focus_groups_, focus_order_;
  size_t focus_cursor_ = 0;
};

// train() one step at a time, for a caller that must stop in between (the page's worker draws
// progress and attention between chunks of steps). It holds the optimizer state, the shuffle and
// the gradient buffer; `model` and `examples` must outlive it. Steps 0 … options.steps − 1 give
// bit for bit what train() gives for the same arguments (train() is this loop).
class Trainer {
 public:
  // Throws std::invalid_argument for what train() refuses (no examples, a bad batch or group size, …).
  Trainer(Transformer& model, const std::vector<TrainingExample>& examples, const TrainOptions& options);

  // The next step; throws std::logic_error once options.steps steps are done.
  StepReport step();
  int steps_done() const { return step_; }
  bool finished() const { return step_ >= options_.steps; }

 private:
  Transformer& model_;
  const std::vector<TrainingExample>& examples_;
  TrainOptions options_;
  AdamWOptions optimizer_options_;
  Transformer grads_;
  AdamW optimizer_;
  BatchSampler sampler_;
  RunOptions run_options_;
  uint64_t dropout_stream_;
  int step_ = 0;
  // threads > 1: the pool, the gates that order the additions into grads_ (one per group of
  // parameters, pointed at by grads_), and each step's per-example options and results.
  std::unique_ptr<WorkerPool> pool_;
  std::deque<TurnGate> gates_;
  std::vector<RunOptions> example_options_;
  std::vector<ExampleResult> example_results_;

  StepReport step_batched();
  StepReport step_threaded();
  // Example b's dropout seed and position offset, as the per-example loop sets them in o.
  void set_example_options(RunOptions& o, const TrainingExample& ex, int b) const;
};

// Trainer for an encoder–decoder: the same batches, schedule and dropout seeds, one AdamW per
// model stepped in lockstep on the gradients of the one loss (each model's gradient norm is
// clipped on its own). options.random_position_offset is refused (the two sides would need an
// offset each). StepReport::grad_norm is the norm over both models' gradients.
class EncoderDecoderTrainer {
 public:
  // Throws std::invalid_argument as Trainer does, and for a decoder without cross-attention.
  EncoderDecoderTrainer(Transformer& encoder, Transformer& decoder, const std::vector<TranslationExample>& examples,
                        const TrainOptions& options);
  StepReport step();
  int steps_done() const { return step_; }
  bool finished() const { return step_ >= options_.steps; }

 private:
  Transformer &encoder_, &decoder_;
  const std::vector<TranslationExample>& examples_;
  TrainOptions options_;
  AdamWOptions optimizer_options_;
  Transformer encoder_grads_, decoder_grads_;
  AdamW encoder_optimizer_, decoder_optimizer_;
  BatchSampler sampler_;
  uint64_t dropout_stream_;
  int step_ = 0;
};

// Minibatch AdamW over a seeded shuffle of the examples (a new shuffle each epoch).
// on_step, if given, sees every step's report. Deterministic for a given seed and build.
void train(Transformer& model, const std::vector<TrainingExample>& examples, const TrainOptions& options,
           const std::function<void(const StepReport&)>& on_step);

}  // namespace ae
