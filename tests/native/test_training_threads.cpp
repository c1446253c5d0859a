// Trainer with TrainOptions::threads (a worker pool, util/worker_pool.h; gradient additions in
// example order, util/turns.h): the weights after a few steps must be the same bits with 1, 2
// and 4 threads, and the per-example loop's and batched rows' — whichever thread ran which
// example, and however the threads interleaved.
#include "model/transformer.h"
#include "train/trainer.h"
#include "training_fixture.h"
#include "util/rng.h"
#include "util/turns.h"
#include "util/worker_pool.h"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ae;
using ae::test::short_run;
using ae::test::TrainingCase;
using ae::test::varied_task;
using ae::test::weight_bits;

namespace {

struct Run {
  std::vector<uint32_t> weights;
  std::vector<float> losses;
};

Run train_with(const ModelConfig& config, const std::vector<TrainingExample>& examples, TrainOptions o) {
  Transformer model(config);
  model.init_random(5, 0.5f);
  Trainer trainer(model, examples, o);
  Run run;
  while (!trainer.finished()) run.losses.push_back(trainer.step().loss);
  run.weights = weight_bits(model);
  return run;
}

}  // namespace

TEST_CASE("training threads: 1, 2 and 4 threads give the same weights bit for bit") {
  using enum PositionalEncoding;
  const ModelConfig tied{
      .vocab_size = 30, .d_model = 32, .n_heads = 2, .n_layers = 2, .max_len = 12, .positional = Learned};
  ModelConfig untied{.vocab_size = 30, .d_model = 32, .n_heads = 4, .n_layers = 1, .max_len = 12, .positional = Rope};
  untied.tie_output = false;
  untied.causal = true;
  ModelConfig post = tied;
  post.norm = NormPlacement::Post;
  post.positional = Sinusoidal;
  const std::vector<TrainingCase> cases = {{"pre-LN, tied, learned, dropout, offsets", tied, 0.1f, true},
                                           {"untied, causal, RoPE", untied, 0.0f, false},
                                           {"post-LN, sinusoidal, dropout", post, 0.1f, false}};
  const auto examples = varied_task(64, 30, 3);
  for (const TrainingCase& c : cases) {
    CAPTURE(c.name);
    TrainOptions o = short_run(c, 4, 1);
    o.batched_rows = false;
    const Run loop = train_with(c.config, examples, o);  // the per-example loop, no threads
    o.batched_rows = true;
    CHECK(train_with(c.config, examples, o).weights == loop.weights);
    for (int threads : {2, 4}) {
      CAPTURE(threads);
      o.threads = threads;
      // Several runs: the threads interleave differently each time.
      for (int repeat = 0; repeat < 3; ++repeat) {
        const Run threaded = train_with(c.config, examples, o);
        CHECK(threaded.weights == loop.weights);
        CHECK(threaded.losses == loop.losses);
      }
    }
  }
}

TEST_CASE("training threads: an example that fails ends the step with its error, without a hang") {
  const ModelConfig config{.vocab_size = 30, .d_model = 16, .n_heads = 2, .n_layers = 1, .max_len = 12};
  auto examples = varied_task(16, 30, 4);
  examples[5].ids[1] = 99;  // not in the vocabulary: its forward throws, after others have taken turns
  TrainOptions o;
  o.steps = 2;
  o.batch_size = 16;
  o.threads = 3;
  Transformer model(config);
  model.init_random(1, 0.5f);
  Trainer trainer(model, examples, o);
  CHECK_THROWS_AS(trainer.step(), std::invalid_argument);
  TrainOptions none = o;
  none.threads = 0;
  CHECK_THROWS_AS(Trainer(model, examples, none), std::invalid_argument);
}

TEST_CASE("worker pool: every task runs once, across calls, and a task's exception reaches the caller") {
  WorkerPool pool(3);
  CHECK(pool.threads() == usable_threads(3));
  std::vector<std::atomic<int>> runs(50);
  for (int call = 0; call < 4; ++call) pool.run(50, [&](int i) { runs[static_cast<size_t>(i)].fetch_add(1); });
  for (const auto& r : runs) CHECK(r.load() == 4);
  CHECK_THROWS_AS(pool.run(10,
                           [](int i) {
                             if (i == 7) throw std::runtime_error("seven");
                           }),
                  std::runtime_error);
  int after = 0;
  pool.run(1, [&](int) { ++after; });  // still usable
  CHECK(after == 1);
}
