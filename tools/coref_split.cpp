// Writes one evaluation split of a coreference corpus as JSON lines that `evaluate --file` reads:
// each sentence with its referent and the other noun, and as its category the family and the
// frame (template index) it was drawn from, with " polarity pair" (the pair differs in polarity
// only) or " both flipped" where its event is flipped. So a model's misses on a held-out split
// can be read frame by frame (docs/models.md), with the same options the model was trained on.
//
//   coref_split --split NAME [--language en|zh] [--extended] [--flip-frames] [--flip-share P]
//               [--seed S] > split.jsonl
//   evaluate --model DIR --file split.jsonl
#include "command_line.h"
#include "train/corpus.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>

namespace {

std::string category(const ae::CorefExample& e) {
  std::string c = e.family + ":" + std::to_string(e.template_id);
  if (e.polarity_pair) c += " polarity pair";
  else if (e.flipped) c += " both flipped";
  return c;
}

// --flip-share's value, a number in [0, 1] as `train --set flip_share=` takes it.
double share(ae_tools::CommandLine& cli) {
  const std::string text = cli.value();
  size_t used = 0;
  double p = -1;
  try {
    p = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(p >= 0 && p <= 1))
    cli.fail("--flip-share expects a number in 0 … 1, got \"" + text + "\"");
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  ae_tools::CommandLine cli(argc, argv, "coref_split",
                            "usage: coref_split --split NAME [--language en|zh] [--extended] [--flip-frames] "
                            "[--flip-share P] [--seed S]");
  ae::CorefOptions options;
  std::string split;
  while (cli.next()) {
    if (cli.is("--split")) split = cli.value();
    else if (cli.is("--language")) options.language = ae::coref_language(cli.value());
    else if (cli.is("--extended")) options.extended = true;
    else if (cli.is("--flip-frames")) options.flip_frames = true;
    else if (cli.is("--flip-share")) options.flip_share = share(cli);
    else if (cli.is("--seed")) options.seed = static_cast<uint64_t>(cli.whole(0, 1LL << 53));
    else cli.unknown();
  }
  if (split.empty()) cli.fail("--split is required");
  try {
    const ae::CorefCorpus corpus = ae::make_coref_corpus(options);
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
    cli.fail("no split \"" + split + "\" in this corpus");
  } catch (const std::exception& e) {
    return ae_tools::report_failure("coref_split", e);
  }
}
