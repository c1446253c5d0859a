// The page's "Train it yourself" run, natively: the same TrainingSession (train/session.h) the
// wasm worker drives, so the two builds can be compared (tests/wasm/train-session.test.mjs) and
// timed (tools/bench/train-speed.mjs).
//
//   train_here [--task coref-encoder|coref-decoder|word-order] [--positional P] [--seed S]
//              [--steps N] [--heads H] [--layers L] [--batch B] [--lr R] [--run N] [--out DIR]
//              [--per-example] [--threads T]
//
// Runs --run steps (default: all), then prints one JSON object: settings, per-step loss and
// batch accuracy, validation accuracy, seconds of training (steps only: steady clock and
// processor time) and steps per second of each.
// --out DIR also writes the model (config.json, model.safetensors F16, vocab.txt, metrics.json)
// and model.f32.safetensors, its unrounded weights. --per-example trains with the per-example
// loop instead of batched rows (TrainOptions::batched_rows; the same bits, for benchmarks).
// --threads T trains on T threads (TrainOptions::threads; the same bits; default 1, as the
// page's single-thread module).
// Exit code 2 for a bad setting.
#include "command_line.h"
#include "train/session.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

constexpr const char* kUsage =
    "usage: train_here [--task coref-encoder|coref-decoder|word-order] [--positional none|sinusoidal|learned|rope]\n"
    "                  [--seed S] [--steps N] [--heads H] [--layers L] [--batch B] [--lr R] [--run N] [--out DIR]\n"
    "                  [--per-example] [--threads T]";

int main(int argc, char** argv) {
  ae::SessionSettings settings;
  std::string out;
  long long run = -1;
  ae_tools::CommandLine cli(argc, argv, "train_here", kUsage);
  try {
    while (cli.next()) {
      if (cli.is("--task")) settings.task = ae::session_task_from_string(cli.value());
      else if (cli.is("--positional"))
        settings.positional = ae::positional_encoding_from_string(cli.value()), settings.positional_set = true;
      else if (cli.is("--seed")) settings.seed = static_cast<uint64_t>(cli.whole(0, ae::SessionBounds::kMaxSeed));
      else if (cli.is("--steps")) settings.steps = static_cast<int>(cli.whole(1, ae::SessionBounds::kMaxSteps));
      else if (cli.is("--heads")) settings.n_heads = static_cast<int>(cli.whole(1, ae::SessionBounds::kMaxHeads));
      else if (cli.is("--layers")) settings.n_layers = static_cast<int>(cli.whole(1, ae::SessionBounds::kMaxLayers));
      else if (cli.is("--batch")) settings.batch = static_cast<int>(cli.whole(1, ae::SessionBounds::kMaxBatch));
      else if (cli.is("--lr")) settings.learning_rate = std::stof(cli.value());
      else if (cli.is("--run")) run = cli.whole(0, ae::SessionBounds::kMaxSteps);
      else if (cli.is("--out")) out = cli.value();
      else if (cli.is("--per-example")) settings.batched_rows = false;
      else if (cli.is("--threads")) settings.threads = static_cast<int>(cli.whole(1, ae::SessionBounds::kMaxThreads));
      else cli.unknown();
    }
  } catch (const std::exception& e) {
    cli.fail(e.what());
  }
  try {
    ae::TrainingSession session(settings);
    const int steps = run < 0 ? session.settings().steps : static_cast<int>(run);
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start =
        std::clock();  // processor time: unlike wall time, not inflated by other work on the machine
    const auto reports = session.step(steps);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    nlohmann::json loss = nlohmann::json::array(), accuracy = nlohmann::json::array();
    for (const auto& r : reports) loss.push_back(r.loss), accuracy.push_back(r.accuracy);
    const nlohmann::json result = {{"settings", session.settings().to_json()},
                                   {"steps", session.steps_done()},
                                   {"loss", loss},
                                   {"batch_accuracy", accuracy},
                                   {"validation_accuracy", session.validation_accuracy()},
                                   {"seconds", seconds},
                                   {"cpu_seconds", cpu_seconds},
                                   {"steps_per_second", seconds > 0 ? reports.size() / seconds : 0.0},
                                   {"steps_per_cpu_second", cpu_seconds > 0 ? reports.size() / cpu_seconds : 0.0}};
    if (!out.empty()) {
      const std::filesystem::path dir(out);
      std::filesystem::create_directories(dir);
      const ae::SessionFiles files = session.export_files(ae::DType::F16, "trained-here");
      write_file(dir / "config.json", files.config_json);
      write_file(dir / "model.safetensors", files.safetensors);
      write_file(dir / "vocab.txt", files.vocab_text);
      write_file(dir / "metrics.json", files.metrics_json);
      write_file(dir / "model.f32.safetensors", session.export_files(ae::DType::F32, "trained-here").safetensors);
    }
    std::cout << result.dump() << "\n";
  } catch (const std::exception& e) {
    return ae_tools::report_failure("train_here", e);
  }
}
