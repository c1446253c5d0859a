// Trains every model the page ships, from scratch, and writes each to web/models/<name>/:
// config.json, model.safetensors, vocab.txt and metrics.json. `npm run train` runs it. The
// coreference models are stored as I8 with per-output scales (recipes.h, kShippedCorefWeights),
// the word-order models as F16; metrics.json is measured on the weights read back from those bytes.
//
//   train [--out DIR] [--only NAME] [--seeds N] [--first-seed S] [--set key=value …] [--quick]
//         [--threads N] [--f32-copy DIR]
//
// --threads N trains the word-order and coreference models on N threads (TrainOptions::threads):
// the same weights bit for bit as one thread, in less time where there are cores to spare.
// --f32-copy also writes each coreference model with F32 weights to DIR/<name>/ (config.json,
// model.safetensors, vocab.txt): the trained weights before any rounding, which
// tools/weight-formats.mjs compares the stored forms against.
//
// Everything is seeded: the same build gives the same files. Training runs on one thread.
#include "command_line.h"
#include "io/checkpoint.h"
#include "train/recipes.h"
#include "train/translation_recipe.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct Arguments {
  std::string out = "web/models";
  std::string only;
  bool quick = false;  // a few steps per model: checks the pipeline, not the models
  int threads = 1;     // training threads (the same weights for any number)
  std::string f32_copy;
};

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

void save_model(const Arguments& args, ae::TrainedRecipe& r) {
  const std::filesystem::path dir = std::filesystem::path(args.out) / r.name;
  ae::save_checkpoint(dir.string(), *r.model, r.vocab.serialize(), r.weights, r.extra_config);
  write_text(dir / "metrics.json", r.metrics.dump(2) + "\n");
  std::cerr << "wrote " << dir.string() << "\n";
}

// The translation pair: DIR/translate-en-zh/{encoder,decoder}/ (checkpoints), pair.json, metrics.json.
void save_translation(const Arguments& args, ae::TrainedTranslation& t) {
  const std::filesystem::path dir = std::filesystem::path(args.out) / ae::kTranslationModelName;
  ae::save_checkpoint((dir / "encoder").string(), *t.encoder, t.source.serialize(), t.weights,
                      {{"task", "translation-encoder"}});
  ae::save_checkpoint((dir / "decoder").string(), *t.decoder, t.target.serialize(), t.weights,
                      {{"task", "translation-decoder"}});
  write_text(dir / "pair.json", t.pair.dump(2) + "\n");
  write_text(dir / "metrics.json", t.metrics.dump(2) + "\n");
  std::cerr << "wrote " << dir.string() << "\n";
}

// web/models/index.json: every model directory under `out`, so the page can list them.
void write_index(const Arguments& args) {
  json models = json::array();
  std::vector<std::filesystem::path> dirs;
  for (const auto& entry : std::filesystem::directory_iterator(args.out))
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "config.json")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    std::ifstream f(dir / "config.json");
    const json config = json::parse(f);
    json entry = {{"name", dir.filename().string()},
                  {"task", config.value("task", "none")},
                  {"positional", config["positional"]},
                  {"causal", config["causal"]},
                  {"bytes", std::filesystem::file_size(dir / "model.safetensors")}};
    if (config.contains("language")) entry["language"] = config["language"];  // the page's default per language
    models.push_back(entry);
  }
  write_text(std::filesystem::path(args.out) / "index.json", json({{"models", models}}).dump(2) + "\n");
}

}  // namespace

constexpr const char* kUsage =
    "usage: train [--out DIR] [--only coref-encoder|coref-encoder-zh|coref-decoder|word-order|translate-en-zh]\n"
    "             [--seeds N]\n"
    "             [--first-seed S]\n"
    "             [--set key=value ...] [--quick] [--threads N] [--f32-copy DIR]\n"
    "  --set changes a coreference model's setting (d_model, n_heads, n_layers, d_ff, max_len, steps,\n"
    "        batch, group, learning_rate, dropout, weight_decay, focus, focus_share, focus_on, relabel, "
    "relabel_shared, "
    "extended, flip_frames, flip_share, clause_first_share, plain_share,\n"
    "        init_scale, positional), for experiments; see src/train/recipes.h; with --only translate-en-zh\n"
    "        the translation's (seed, steps, batch, learning_rate, weight_decay)\n"
    "  --threads trains the word-order and coreference models on N threads (1-16): the same weights, bit for bit\n"
    "  --f32-copy also writes each coreference model with F32 weights to DIR/<name>/";

int main(int argc, char** argv) {
  Arguments args;
  std::vector<std::string> settings;
  ae_tools::CommandLine cli(argc, argv, "train", kUsage);
  while (cli.next()) {
    if (cli.is("--out")) args.out = cli.value();
    else if (cli.is("--only")) args.only = cli.value();
    else if (cli.is("--seeds")) settings.push_back("seeds=" + cli.value());
    else if (cli.is("--first-seed")) settings.push_back("first_seed=" + cli.value());
    else if (cli.is("--set")) settings.push_back(cli.value());
    else if (cli.is("--quick")) args.quick = true;
    else if (cli.is("--threads")) args.threads = static_cast<int>(cli.whole(1, 16));
    else if (cli.is("--f32-copy")) args.f32_copy = cli.value();
    else cli.unknown();
  }
  if (!args.only.empty() && args.only != "coref-encoder" && args.only != "coref-encoder-zh" &&
      args.only != "coref-decoder" && args.only != "word-order" && args.only != ae::kTranslationModelName)
    cli.fail("--only takes coref-encoder, coref-encoder-zh, coref-decoder, word-order or translate-en-zh, got \"" +
             args.only + "\"");
  try {
    const ae::RecipeOptions recipe{.quick = args.quick, .threads = args.threads};
    const std::pair<ae::CorefReader, ae::CorefLanguage> coref_models[] = {
        {ae::CorefReader::Encoder, ae::CorefLanguage::English},
        {ae::CorefReader::Encoder, ae::CorefLanguage::Chinese},
        {ae::CorefReader::Decoder, ae::CorefLanguage::English}};
    for (const auto& [reader, language] : coref_models) {
      const std::string name = ae::coref_model_name(reader, language);
      if (!args.only.empty() && args.only != name) continue;
      ae::CorefSettings s = ae::shipped_coref_settings(reader, language);
      for (const auto& assignment : settings) s.set(assignment);
      ae::TrainedRecipe r = ae::train_coref_model(reader, recipe, s);
      save_model(args, r);
      if (!args.f32_copy.empty()) {
        const std::filesystem::path copy = std::filesystem::path(args.f32_copy) / r.name;
        ae::save_checkpoint(copy.string(), *r.model, r.vocab.serialize(), ae::DType::F32, r.extra_config);
        std::cerr << "wrote " << copy.string() << " (F32)\n";
      }
    }
    if (args.only.empty() || args.only == "word-order") {
      for (ae::TrainedRecipe& r : ae::train_word_order_models(recipe)) {
        std::cerr << r.name << ": " << r.metrics["train_seconds"] << " s, accuracy " << r.metrics["accuracy"]["f16"]
                  << ", pairs " << r.metrics["minimal_pairs"]["validation"] << "\n";
        save_model(args, r);
      }
    }
    if (args.only.empty() || args.only == ae::kTranslationModelName) {
      ae::TranslationSettings s;
      if (args.only == ae::kTranslationModelName)  // --set names the coreference models' settings otherwise
        for (const auto& assignment : settings) s.set(assignment);
      ae::TrainedTranslation t = ae::train_translation_model(recipe, s);
      save_translation(args, t);
    }
    write_index(args);
  } catch (const std::exception& e) {
    return ae_tools::report_failure("train", e);
  }
}
