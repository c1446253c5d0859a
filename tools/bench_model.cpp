// Native timings of the tiny models, as JSON on stdout, for the model table of `npm run bench`
// (tools/bench/run.mjs), which puts them next to the same core functions run in wasm:
//   forward with full trace (bench/model_latency.h) for the lesson sentence, the GELU part of it, its
//   matrix products alone (a floor under the forward), and
//   training steps per second of the coreference recipe (bench/training_throughput.h).
//
//   bench_model [--model DIR] [--reps N] [--rounds R] [--steps K] [--batch B]
//
// Each figure is the median over R rounds (the machine is shared).
#include "bench/model_latency.h"
#include "bench/training_throughput.h"
#include "command_line.h"
#include "io/checkpoint.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "web/models/coref-encoder";
  int reps = 2000, rounds = 5, steps = 20, batch = 32;
  ae_tools::CommandLine cli(argc, argv, "bench_model",
                            "usage: bench_model [--model DIR] [--reps N] [--rounds R] [--steps K] [--batch B]");
  while (cli.next()) {
    if (cli.is("--model")) dir = cli.value();
    else if (cli.is("--reps")) reps = static_cast<int>(cli.whole(1, 10000000));
    else if (cli.is("--rounds")) rounds = static_cast<int>(cli.whole(1, 1000));
    else if (cli.is("--steps")) steps = static_cast<int>(cli.whole(1, 1000000));
    else if (cli.is("--batch")) batch = static_cast<int>(cli.whole(1, 4096));
    else cli.unknown();
  }
  try {
    const ae::TrainedModel model(ae::load_checkpoint(dir));
    const std::string lesson = "The animal didn't cross the street because it was too tired.";
    std::vector<double> forward, gelu, products, training;
    const ae::Analysis analysis = model.analyze(lesson);
    ae::TrainingThroughput last;
    for (int r = 0; r < rounds; ++r) {
      forward.push_back(1e6 * ae::analyze_seconds_per_call(model, lesson, {}, reps));
      gelu.push_back(1e6 * ae::gelu_seconds_per_forward(analysis, reps));
      products.push_back(
          1e6 * ae::matrix_products_per_forward(model.config(), static_cast<int>(analysis.ids.size()), reps).seconds);
      last = ae::coref_encoder_training_throughput(model.config(), model.vocabulary(), steps, batch);
      training.push_back(last.steps_per_second);
    }
    nlohmann::json out = {{"model", dir},
                          {"forward_us", median(forward)},
                          {"forward_reps", reps},
                          {"gelu_us", median(gelu)},
                          {"matrix_products_us", median(products)},
                          {"training_steps_per_second", median(training)},
                          {"training_steps", steps},
                          {"training_batch", batch},
                          {"training_examples", last.examples},
                          {"rounds", rounds}};
    std::cout << out.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_model: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
