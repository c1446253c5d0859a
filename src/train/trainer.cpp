#include "train/trainer.h"

#include "ops/matmul.h"
#include "train/loss.h"
#include "util/rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ae {

namespace {

Matrix gather_rows(const Matrix& m, const std::vector<int>& rows) {
  Matrix out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] < 0 || rows[i] >= m.rows()) throw std::invalid_argument("training example: position out of range");
    out.row(static_cast<Eigen::Index>(i)) = m.row(rows[i]);
  }
  return out;
}

int count_correct(const Matrix& logits, const std::vector<int>& targets) {
  int correct = 0;
  for (size_t r = 0; r < targets.size(); ++r) {
    Eigen::Index best = 0;
    logits.row(static_cast<Eigen::Index>(r)).maxCoeff(&best);
    correct += best == targets[r];
  }
  return correct;
}

// The example's positions, sorted and without repeats: the output rows the loss reads.
std::vector<int> loss_rows(const std::vector<int>& positions) {
  std::vector<int> rows = positions;
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// Where each position's row is among loss_rows(positions).
std::vector<int> row_indices(const std::vector<int>& positions, const std::vector<int>& rows) {
  std::vector<int> at;
  at.reserve(positions.size());
  for (int p : positions) at.push_back(static_cast<int>(std::lower_bound(rows.begin(), rows.end(), p) - rows.begin()));
  return at;
}

void check_positions(const std::vector<int>& positions, size_t n) {
  for (int p : positions)
    if (p < 0 || static_cast<size_t>(p) >= n) throw std::invalid_argument("training example: position out of range");
}

void shuffle(std::vector<size_t>& order, Rng& rng) {
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
}

}  // namespace

ExampleResult evaluate_example(const Transformer& model, const TrainingExample& ex, const RunOptions& options) {
  const Matrix hidden = model.forward(ex.ids, options, nullptr);
  const Matrix logits = model.logits(gather_rows(hidden, ex.positions));
  return {cross_entropy(logits, ex.targets, nullptr), count_correct(logits, ex.targets)};
}

namespace {

// accumulate_gradients, also giving dL/d(options.memory) (a decoder with cross-attention).
// Reads only the output rows at the example's positions (RunOptions::output_rows) where that
// gives the same gradients bit for bit (Transformer::output_rows_exact): the last layer's
// feed-forward sublayer then runs on those rows alone. It was about 1/6 of a step's products
// spent on rows no loss reads.
ExampleResult accumulate(const Transformer& model, const TrainingExample& ex, const RunOptions& options, float weight,
                         Transformer& grads, Matrix* d_memory) {
  check_positions(ex.positions, ex.ids.size());
  RunOptions o = options;
  o.output_rows = loss_rows(ex.positions);
  const int n = static_cast<int>(ex.ids.size()), t = static_cast<int>(o.output_rows.size());
  if (!model.output_rows_exact(n, t)) o.output_rows.clear();  // every row, as the gradients' sums need
  const std::vector<int> at = o.output_rows.empty() ? ex.positions : row_indices(ex.positions, o.output_rows);

  ForwardTrace trace;
  const Matrix hidden = model.forward(ex.ids, o, &trace);  // n×d, or the rows the loss reads
  const Matrix picked = gather_rows(hidden, at);
  const Matrix logits = model.logits(picked);
  Matrix d_logits;
  const float loss = cross_entropy(logits, ex.targets, &d_logits);
  d_logits *= weight;

  // The logits' parameter gradients are added just before the embeddings' (in their turn when
  // threads share grads): the same order for every parameter as adding them first.
  const Matrix d_picked = model.logits_backward_input(d_logits, grads);
  Matrix d_hidden = Matrix::Zero(hidden.rows(), hidden.cols());
  for (size_t i = 0; i < at.size(); ++i) d_hidden.row(at[i]) += d_picked.row(static_cast<Eigen::Index>(i));
  Matrix d_mem = model.backward(ex.ids, o, trace, d_hidden, grads,
                                [&] { model.logits_backward_parameters(picked, d_logits, grads); });
  if (d_memory) *d_memory = std::move(d_mem);
  return {loss, count_correct(logits, ex.targets)};
}

}  // namespace

ExampleResult accumulate_gradients(const Transformer& model, const TrainingExample& ex, const RunOptions& options,
                                   float weight, Transformer& grads) {
  return accumulate(model, ex, options, weight, grads, nullptr);
}

namespace {

// A decoder without cross-attention would ignore the memory, and the encoder learn nothing;
// another width is refused by the decoder's forward.
void check_pair(const EncoderDecoder& pair) {
  if (!pair.decoder.config().cross_attention)
    throw std::invalid_argument("encoder–decoder: the decoder has no cross-attention (cross_attention in its config)");
}

}  // namespace

ExampleResult evaluate_example(const EncoderDecoder& pair, const std::vector<int>& source, const TrainingExample& ex,
                               const EncoderDecoderOptions& options) {
  check_pair(pair);
  RunOptions decoder_options = options.decoder;
  const Matrix memory = pair.encoder.forward(source, options.encoder, nullptr);
  decoder_options.memory = &memory;
  return evaluate_example(pair.decoder, ex, decoder_options);
}

ExampleResult accumulate_gradients(const EncoderDecoder& pair, const std::vector<int>& source,
                                   const TrainingExample& ex, const EncoderDecoderOptions& options, float weight,
                                   EncoderDecoderGradients& grads) {
  check_pair(pair);
  // memory = encoder(source); the decoder reads ex.ids and cross-attends to memory.
  ForwardTrace encoder_trace;
  const Matrix memory = pair.encoder.forward(source, options.encoder, &encoder_trace);
  RunOptions decoder_options = options.decoder;
  decoder_options.memory = &memory;
  Matrix d_memory;
  const ExampleResult r = accumulate(pair.decoder, ex, decoder_options, weight, grads.decoder, &d_memory);
  // dL/dmemory is dL/d(encoder output): the encoder learns from the decoder's loss alone.
  pair.encoder.backward(source, options.encoder, encoder_trace, d_memory, grads.encoder);
  return r;
}

GreedyDecoding greedy_decode(const EncoderDecoder& pair, const std::vector<int>& source, int start, int end,
                             int max_steps) {
  check_pair(pair);
  if (source.empty()) throw std::invalid_argument("greedy_decode: the source is empty");
  if (max_steps < 1) throw std::invalid_argument("greedy_decode: max_steps must be ≥ 1");
  const Matrix memory = pair.encoder.forward(source, RunOptions{}, nullptr);
  RunOptions options;
  options.memory = &memory;
  const int steps = std::min(max_steps, pair.decoder.config().max_len - 1);  // the prefix holds start too
  GreedyDecoding out;
  std::vector<int> prefix = {start};
  for (int step = 0; step < steps; ++step) {
    ForwardTrace trace;
    const Matrix hidden = pair.decoder.forward(prefix, options, &trace);
    const Eigen::Index last = hidden.rows() - 1;
    const Eigen::RowVectorXf logits = pair.decoder.logits(hidden.row(last)).row(0);
    Eigen::Index best = 0;
    const float top = logits.maxCoeff(&best);
    out.tokens.push_back(static_cast<int>(best));
    out.probabilities.push_back(1.0f / (logits.array() - top).exp().sum());
    auto& layers = out.cross_attention.emplace_back();
    auto& self_layers = out.self_attention.emplace_back();
    const auto last_rows = [last](const MultiHeadTrace& t, std::vector<std::vector<float>>& heads) {
      for (const HeadTrace& head : t.heads) {
        const Eigen::RowVectorXf row = head.attention.weights.row(last);
        heads.emplace_back(row.data(), row.data() + row.size());
      }
    };
    for (const LayerTrace& layer : trace.layers) {
      last_rows(layer.cross_attention.value(), layers.emplace_back());
      last_rows(layer.self_attention, self_layers.emplace_back());
    }
    if (best == end) break;
    prefix.push_back(static_cast<int>(best));
  }
  return out;
}

std::vector<size_t> next_epoch_order(std::vector<size_t>& groups, size_t group_size, Rng& rng) {
  shuffle(groups, rng);
  std::vector<size_t> order;
  order.reserve(groups.size() * group_size);
  for (size_t g : groups)
    for (size_t k = 0; k < group_size; ++k) order.push_back(g * group_size + k);
  return order;
}

namespace {

// train()'s checks, run before any member of a trainer is built from the options.
const TrainOptions& checked(size_t examples, const TrainOptions& options) {
  if (examples == 0) throw std::invalid_argument("train: no examples");
  if (options.batch_size < 1 || options.steps < 0) throw std::invalid_argument("train: batch_size ≥ 1 and steps ≥ 0");
  if (!(options.dropout >= 0.0f && options.dropout < 1.0f))
    throw std::invalid_argument("train: dropout must lie in [0, 1)");
  if (options.group_size < 1 || examples % static_cast<size_t>(options.group_size) != 0)
    throw std::invalid_argument("train: group_size must be ≥ 1 and divide the number of examples (" +
                                std::to_string(examples) + ")");
  const size_t n_groups = examples / static_cast<size_t>(options.group_size);
  for (size_t g : options.focus_groups)
    if (g >= n_groups) throw std::invalid_argument("train: focus group " + std::to_string(g) + " out of range");
  if (options.focus_steps < 0 || (options.focus_steps > 0 && options.focus_groups.empty()))
    throw std::invalid_argument("train: focus_steps needs focus_groups");
  if (!(options.focus_share >= 0.0f && options.focus_share <= 1.0f))
    throw std::invalid_argument("train: focus_share must lie in [0, 1]");
  return options;
}

AdamWOptions scheduled_over(const TrainOptions& options) {
  AdamWOptions o = options.optimizer;
  o.total_steps = options.steps;
  return o;
}

uint64_t dropout_stream(const TrainOptions& options) { return derive_seed(options.seed, 0x64726f70ull); }  // "drop"

// The seed of example b of a step: its dropout masks and its position offset.
uint64_t example_seed(uint64_t stream, int step, int b) {
  return derive_seed(derive_seed(stream, static_cast<uint64_t>(step)), static_cast<uint64_t>(b));
}

// A step's sums over its batch.
struct BatchTally {
  double loss = 0.0;
  int correct = 0, targets = 0;
  StepReport report(int step, int batch_size, float norm, float lr) const {
    return {step, static_cast<float>(loss / batch_size), static_cast<float>(correct) / static_cast<float>(targets),
            norm, lr};
  }
};

// Calls accumulate(example index, b, example seed) → {result, its number of targets} for each
// example of the sampler's batch `step`, and sums what they give.
template <class Accumulate>
BatchTally run_batch(BatchSampler& sampler, uint64_t stream, int step, Accumulate&& accumulate) {
  BatchTally tally;
  const std::vector<size_t> batch = sampler.next_batch(step);
  for (size_t b = 0; b < batch.size(); ++b) {
    const auto [r, targets] = accumulate(batch[b], example_seed(stream, step, static_cast<int>(b)));
    tally.loss += r.loss;
    tally.correct += r.correct;
    tally.targets += targets;
  }
  return tally;
}

}  // namespace

BatchSampler::BatchSampler(size_t examples, const TrainOptions& options)
    : options_(checked(examples, options)),
      rng_(options.seed),
      groups_(examples / static_cast<size_t>(options.group_size)),
      focus_rng_(derive_seed(options.seed, 0x666f6375ull)),  // "focu"
      focus_groups_(options.focus_groups) {
  std::iota(groups_.begin(), groups_.end(), size_t{0});
  order_ = next_epoch_order(groups_, static_cast<size_t>(options_.group_size), rng_);
}

std::vector<size_t> BatchSampler::next_batch(int step) {
  // How many of this batch's examples come from the focus groups: whole groups, so that a
  // minimal pair is never split.
  int focused = 0;
  if (step < options_.focus_steps) {
    focused = static_cast<int>(std::lround(options_.focus_share * static_cast<float>(options_.batch_size)));
    focused -= focused % options_.group_size;
  }
  std::vector<size_t> batch;
  batch.reserve(static_cast<size_t>(options_.batch_size));
  for (int b = 0; b < options_.batch_size; ++b) batch.push_back(b < focused ? next_focus_index() : next_index());
  return batch;
}

size_t BatchSampler::next_index() {
  if (cursor_ == order_.size()) {
    order_ = next_epoch_order(groups_, static_cast<size_t>(options_.group_size), rng_);
    cursor_ = 0;
  }
  return order_[cursor_++];
}

size_t BatchSampler::next_focus_index() {
  if (focus_cursor_ == focus_order_.size()) {
    focus_order_ = next_epoch_order(focus_groups_, static_cast<size_t>(options_.group_size), focus_rng_);
    focus_cursor_ = 0;
  }
  return focus_order_[focus_cursor_++];
}

Trainer::Trainer(Transformer& model, const std::vector<TrainingExample>& examples, const TrainOptions& options)
    : model_(model),
      examples_(examples),
      options_(checked(examples.size(), options)),
      optimizer_options_(scheduled_over(options)),
      grads_(gradient_buffer(model.config())),
      optimizer_(model, optimizer_options_),
      sampler_(examples.size(), options),
      dropout_stream_(dropout_stream(options)) {
  run_options_.dropout = options_.dropout;
  if (options_.threads < 1) throw std::invalid_argument("train: threads must be ≥ 1");
  if (usable_threads(options_.threads) > 1) {
    pool_ = std::make_unique<WorkerPool>(options_.threads);
    grads_.order_additions([this] { return &gates_.emplace_back(); });
  }
}

void Trainer::set_example_options(RunOptions& o, const TrainingExample& ex, int b) const {
  const uint64_t seed = example_seed(dropout_stream_, step_, b);
  if (options_.dropout > 0.0f) o.dropout_seed = seed;
  if (options_.random_position_offset) {
    const int room = model_.config().max_len - static_cast<int>(ex.ids.size());
    o.position_offset = room > 0 ? static_cast<int>(derive_seed(seed, 1) % static_cast<uint64_t>(room + 1)) : 0;
  }
}

StepReport Trainer::step() {
  if (finished()) throw std::logic_error("Trainer::step: all " + std::to_string(options_.steps) + " steps are done");
  if (pool_) return step_threaded();
  if (options_.batched_rows) return step_batched();
  const float weight = 1.0f / static_cast<float>(options_.batch_size);
  zero_parameters(grads_);
  // The backward passes' dy·Wᵀ then read Wᵀ in place, without a transpose per example.
  grads_.hold_transposed_weights(model_);
  int b = 0;
  const BatchTally tally = run_batch(sampler_, dropout_stream_, step_, [&](size_t index, uint64_t) {
    const TrainingExample& ex = examples_[index];
    set_example_options(run_options_, ex, b++);
    return std::pair{accumulate_gradients(model_, ex, run_options_, weight, grads_),
                     static_cast<int>(ex.targets.size())};
  });
  const float lr = scheduled_learning_rate(optimizer_options_, step_);
  const StepReport report = tally.report(step_, options_.batch_size, optimizer_.step(model_, grads_), lr);
  ++step_;
  return report;
}

// Examples per pass of step_batched (a tuning of speed only: any number gives the same bits).
constexpr size_t kBatchedRowsPass = 8;

// step() with the batch in passes of stacked rows: the per-example loop above, in its order. Each example's
// forward is the stacked forward's rows, its logits, loss and dL/dlogits are computed on their
// own as above, and backward_batch adds each example's gradients (the logits' just before its
// embeddings', as accumulate() adds them) example after example.
StepReport Trainer::step_batched() {
  const float weight = 1.0f / static_cast<float>(options_.batch_size);
  zero_parameters(grads_);
  grads_.hold_transposed_weights(model_);
  const std::vector<size_t> indices = sampler_.next_batch(step_);
  std::vector<Transformer::BatchExample> batch(indices.size());
  std::vector<std::vector<int>> at(indices.size());
  for (size_t b = 0; b < indices.size(); ++b) {
    const TrainingExample& ex = examples_[indices[b]];
    RunOptions& o = batch[b].options;
    o = run_options_;
    set_example_options(o, ex, static_cast<int>(b));
    batch[b].ids = &ex.ids;
    check_positions(ex.positions, ex.ids.size());
    o.output_rows = loss_rows(ex.positions);
    const int n = static_cast<int>(ex.ids.size()), t = static_cast<int>(o.output_rows.size());
    if (!model_.output_rows_exact(n, t)) o.output_rows.clear();
    at[b] = o.output_rows.empty() ? ex.positions : row_indices(ex.positions, o.output_rows);
  }
  // The batch in passes of kBatchedRowsPass examples, one after the other: the stacked rows of a
  // pass stay in the caches (a whole batch of 64 did not, and was no faster than the loop;
  // passes of 4, 8 and 16 were, 8 the most, docs/benchmarks.md).
  BatchTally tally;
  for (size_t first = 0; first < batch.size(); first += kBatchedRowsPass) {
    const size_t end = std::min(batch.size(), first + kBatchedRowsPass);
    const std::vector<Transformer::BatchExample> pass(batch.begin() + static_cast<std::ptrdiff_t>(first),
                                                      batch.begin() + static_cast<std::ptrdiff_t>(end));
    Transformer::BatchTrace trace;
    const Matrix hidden = model_.forward_batch(pass, trace);
    Matrix d_hidden = Matrix::Zero(hidden.rows(), hidden.cols());
    std::vector<Matrix> picked(pass.size()), d_logits(pass.size());
    for (size_t p = 0; p < pass.size(); ++p) {
      const size_t b = first + p;
      const TrainingExample& ex = examples_[indices[b]];
      const Eigen::Index offset = trace.output_offsets[p];
      picked[p] = gather_rows(hidden.middleRows(offset, trace.output_offsets[p + 1] - offset), at[b]);
      const Matrix logits = model_.logits(picked[p]);
      const float loss = cross_entropy(logits, ex.targets, &d_logits[p]);
      d_logits[p] *= weight;
      const Matrix d_picked = model_.logits_backward_input(d_logits[p], grads_);
      for (size_t i = 0; i < at[b].size(); ++i)
        d_hidden.row(offset + at[b][i]) += d_picked.row(static_cast<Eigen::Index>(i));
      tally.loss += loss;
      tally.correct += count_correct(logits, ex.targets);
      tally.targets += static_cast<int>(ex.targets.size());
    }
    model_.backward_batch(pass, trace, d_hidden, grads_,
                          [&](size_t p) { model_.logits_backward_parameters(picked[p], d_logits[p], grads_); });
  }
  const float lr = scheduled_learning_rate(optimizer_options_, step_);
  const StepReport report = tally.report(step_, options_.batch_size, optimizer_.step(model_, grads_), lr);
  ++step_;
  return report;
}

// step() on the pool: the per-example loop's examples, each on whichever thread takes it, their
// additions into grads_ made in example order by the gates (util/turns.h), so its bits.
StepReport Trainer::step_threaded() {
  const float weight = 1.0f / static_cast<float>(options_.batch_size);
  zero_parameters(grads_);
  grads_.hold_transposed_weights(model_);
  const std::vector<size_t> indices = sampler_.next_batch(step_);
  example_options_.resize(indices.size());
  example_results_.resize(indices.size());
  for (size_t b = 0; b < indices.size(); ++b) {
    const TrainingExample& ex = examples_[indices[b]];
    check_positions(ex.positions, ex.ids.size());  // refused here rather than on a thread
    example_options_[b] = run_options_;
    set_example_options(example_options_[b], ex, static_cast<int>(b));
  }
  for (TurnGate& gate : gates_) gate.reset();
  pool_->run(static_cast<int>(indices.size()), [&](int b) {
    const TurnTicket ticket(b);
    const size_t i = static_cast<size_t>(b);
    try {
      example_results_[i] = accumulate_gradients(model_, examples_[indices[i]], example_options_[i], weight, grads_);
      // A group this example added nothing into (none in today's models: every example's backward
      // runs every layer) would otherwise hold up the next example for ever.
      for (TurnGate& gate : gates_) gate.pass(b);
    } catch (...) {
      for (TurnGate& gate : gates_) gate.abort();  // the later examples would wait for this one's turns
      throw;
    }
  });
  BatchTally tally;
  for (size_t b = 0; b < indices.size(); ++b) {
    tally.loss += example_results_[b].loss;
    tally.correct += example_results_[b].correct;
    tally.targets += static_cast<int>(examples_[indices[b]].targets.size());
  }
  const float lr = scheduled_learning_rate(optimizer_options_, step_);
  const StepReport report = tally.report(step_, options_.batch_size, optimizer_.step(model_, grads_), lr);
  ++step_;
  return report;
}

namespace {

const TrainOptions& checked_pair(const Transformer& decoder, const std::vector<TranslationExample>& examples,
                                 const TrainOptions& options) {
  check_pair({decoder, decoder});
  if (options.random_position_offset)
    throw std::invalid_argument("encoder–decoder training: random_position_offset is not supported");
  return checked(examples.size(), options);
}

}  // namespace

EncoderDecoderTrainer::EncoderDecoderTrainer(Transformer& encoder, Transformer& decoder,
                                             const std::vector<TranslationExample>& examples,
                                             const TrainOptions& options)
    : encoder_(encoder),
      decoder_(decoder),
      examples_(examples),
      options_(checked_pair(decoder, examples, options)),
      optimizer_options_(scheduled_over(options)),
      encoder_grads_(gradient_buffer(encoder.config())),
      decoder_grads_(gradient_buffer(decoder.config())),
      encoder_optimizer_(encoder, optimizer_options_),
      decoder_optimizer_(decoder, optimizer_options_),
      sampler_(examples.size(), options),
      dropout_stream_(dropout_stream(options)) {}

StepReport EncoderDecoderTrainer::step() {
  if (finished())
    throw std::logic_error("EncoderDecoderTrainer::step: all " + std::to_string(options_.steps) + " steps are done");
  const float weight = 1.0f / static_cast<float>(options_.batch_size);
  zero_parameters(encoder_grads_);
  zero_parameters(decoder_grads_);
  encoder_grads_.hold_transposed_weights(encoder_);
  decoder_grads_.hold_transposed_weights(decoder_);
  const EncoderDecoder pair{encoder_, decoder_};
  EncoderDecoderGradients grads{encoder_grads_, decoder_grads_};
  EncoderDecoderOptions run;
  run.encoder.dropout = run.decoder.dropout = options_.dropout;
  const BatchTally tally = run_batch(sampler_, dropout_stream_, step_, [&](size_t index, uint64_t seed) {
    const TranslationExample& ex = examples_[index];
    run.encoder.dropout_seed = derive_seed(seed, 2);  // each model its own masks
    run.decoder.dropout_seed = derive_seed(seed, 3);
    return std::pair{accumulate_gradients(pair, ex.source, ex.target, run, weight, grads),
                     static_cast<int>(ex.target.targets.size())};
  });
  const float lr = scheduled_learning_rate(optimizer_options_, step_);
  const float encoder_norm = encoder_optimizer_.step(encoder_, encoder_grads_);
  const float decoder_norm = decoder_optimizer_.step(decoder_, decoder_grads_);
  const StepReport report = tally.report(step_, options_.batch_size, std::hypot(encoder_norm, decoder_norm), lr);
  ++step_;
  return report;
}

void train(Transformer& model, const std::vector<TrainingExample>& examples, const TrainOptions& options,
           const std::function<void(const StepReport&)>& on_step) {
  Trainer trainer(model, examples, options);
  while (!trainer.finished()) {
    const StepReport r = trainer.step();
    if (on_step) on_step(r);
  }
}

}  // namespace ae
