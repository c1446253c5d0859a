// Writes one evaluation split of a coreference model's corpus as JSON lines that `evaluate --file`
// reads: each sentence with its referent and the other noun, and as its category the family and
// the frame (template index) it was drawn from, with " polarity pair" (the pair differs in
// polarity only) or " both flipped" where its event is flipped. The corpus is the one the model
// was trained on, from its metrics.json settings (coref_corpus_options), so a model's misses on a
// held-out split can be read frame by frame (docs/models.md).
//
//   coref_split --model DIR --split NAME > split.jsonl
//   evaluate --model DIR --file split.jsonl
#include "command_line.h"
#include "train/corpus.h"
#include "train/recipes.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

std::string category(const ae::CorefExample& e) {
  std::string c = e.family + ":" + std::to_string(e.template_id);
  if (e.polarity_pair) c += " polarity pair";
  else if (e.flipped) c += " both flipped";
  return c;
}

// The corpus settings the model at `dir` was trained with (its metrics.json "settings").
nlohmann::json training_settings(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "metrics.json");
  if (!in) throw std::invalid_argument(dir + "/metrics.json cannot be read (a directory `train` wrote?)");
  const nlohmann::json metrics = nlohmann::json::parse(in);
  if (!metrics.contains("settings"))
    throw std::invalid_argument(dir + "/metrics.json has no \"settings\": not a coreference model's");
  return metrics["settings"];
}

}  // namespace

int main(int argc, char** argv) {
  ae_tools::CommandLine cli(argc, argv, "coref_split", "usage: coref_split --model DIR --split NAME");
  std::string model, split;
  while (cli.next()) {
    if (cli.is("--model")) model = cli.value();
    else if (cli.is("--split")) split = cli.value();
    else cli.unknown();
  }
  if (model.empty()) cli.fail("--model is required");
  if (split.empty()) cli.fail("--split is required");
  try {
    const ae::CorefCorpus corpus = ae::make_coref_corpus(ae::coref_corpus_options(training_settings(model)));
    for (const auto& [name, examples] : corpus.evaluation_splits()) {
      if (name != split) continue;
      for (const ae::CorefExample& e : *examples)
        std::cout << nlohmann::json{{"text", e.text},
                                    {"referent", e.referent_word},
                                    {"other", e.other_word},
                                    {"category", category(e)}}
                         .dump()
                  << "\n";
      return 0;
    }
    cli.fail("no split \"" + split + "\" in this model's corpus");
  } catch (const std::exception& e) {
    return ae_tools::report_failure("coref_split", e);
  }
}
