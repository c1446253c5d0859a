// Embind layer for the benchmarks: timings of the tiny models taken inside wasm
// (std::chrono::steady_clock), so that the core's time can be told apart from the JS boundary
// and the building of JS objects. Only in the benchmarks' module (attention_bench, see
// CMakeLists.txt): ModelBench links the trainer, which the page does not need.
//
//   new ModelBench(config, weights, vocab)   a second copy of a trained model, for timing only
//     .analyzeTiming(text, reps)     µs per call of: the core's analyze (forward + full trace +
//                                    prediction), analyze + the packed form the page gets
//                                    (bindings/packed.h), and the GELU part of the core's time
//     .trainingThroughput(steps, batch, examples, seed)   the coreference recipe's trainer
//                                    (bench/training_throughput.h) on a fresh model of this config
//
// Errors are std::invalid_argument, converted to Error by web/lib/engine.mjs.
#include "js_values.h"
#include "packed.h"

#include "bench/model_latency.h"
#include "bench/training_throughput.h"
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "ops/attention_memory.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

using emscripten::val;

namespace {

class ModelBench {
 public:
  ModelBench(const val& config_json, const val& weights, const val& vocab_text)
      : model_(ae::load_checkpoint_from_memory(aejs::text_from_js(config_json, "config"),
                                               aejs::bytes_from_js(weights, "weights"),
                                               aejs::text_from_js(vocab_text, "vocab"))) {}

  val analyze_timing(const val& text_value, int reps) const {
    if (reps < 1 || reps > kMaxReps)
      aejs::argument_error("analyzeTiming: reps must be 1 … " + std::to_string(kMaxReps) + ", got " +
                           std::to_string(reps));
    const std::string text = aejs::text_from_js(text_value, "text");
    const ae::AnalysisOptions options;
    // The two variants take turns in chunks of kChunk calls, so that a busy moment of the
    // machine slows them alike and their difference stays meaningful.
    constexpr int kChunk = 20;
    double core = 0.0, packed = 0.0;
    for (int done = 0; done < reps; done += kChunk) {
      const int calls = std::min(kChunk, reps - done);
      core += calls * ae::analyze_seconds_per_call(model_, text, options, calls);
      // what TrainedModel.analyze builds (packed.h)
      packed += calls * seconds_per_call(calls, [&] { aejs::packed_analysis_to_js(model_.analyze(text, options)); });
    }
    core /= reps, packed /= reps;
    const ae::Analysis analysis = model_.analyze(text, options);
    const double gelu = ae::gelu_seconds_per_forward(analysis, reps);
    const ae::MatrixProductsTiming products =
        ae::matrix_products_per_forward(model_.config(), static_cast<int>(analysis.ids.size()), reps);
    val o = val::object();
    o.set("coreMicroseconds", 1e6 * core);
    o.set("withPackedMicroseconds", 1e6 * packed);
    o.set("geluMicroseconds", 1e6 * gelu);
    o.set("matrixProductsMicroseconds", 1e6 * products.seconds);
    o.set("matrixProductsFlop", products.flop);
    o.set("reps", reps);
    return o;
  }

  val training_throughput(int steps, int batch_size, int examples, double seed) const {
    if (!(seed >= 0) || seed != static_cast<double>(static_cast<uint64_t>(seed)))
      aejs::argument_error("trainingThroughput: seed must be a whole number ≥ 0");
    const ae::TrainingThroughput t = ae::coref_encoder_training_throughput(
        model_.config(), model_.vocabulary(), steps, batch_size, examples, static_cast<uint64_t>(seed));
    val o = val::object();
    o.set("steps", t.steps);
    o.set("batchSize", t.batch_size);
    o.set("examples", t.examples);
    o.set("seconds", t.seconds);
    o.set("stepsPerSecond", t.steps_per_second);
    o.set("firstLoss", t.first_loss);
    o.set("lastLoss", t.last_loss);
    return o;
  }

 private:
  // A bound on the repeat count, so that a typo cannot keep the page busy for minutes
  // (2^31 − 1 reps took that long); the benchmarks use at most a few thousand.
  static constexpr int kMaxReps = 100000;

  template <typename F>
  static double seconds_per_call(int reps, F call) {
    call();  // warm-up
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) call();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  }

  ae::TrainedModel model_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(bench) {
  emscripten::class_<ModelBench>("ModelBench")
      .constructor<const val&, const val&, const val&>()
      .function("analyzeTiming", &ModelBench::analyze_timing)
      .function("trainingThroughput", &ModelBench::training_throughput);
}
