// Loads a trained model directory and a sentence and prints one JSON object: tokens, unknown
// positions, the task's prediction (with the top alternatives) and attention[layer][head][query][key].
//
//   inspect --model DIR --text "…" [--ablate L:H]… [--knockout POS]… [--generate N] [--top K]
//
// A directory holding pair.json (an encoder–decoder: web/models/translate-en-zh) prints the
// translation instead: source words, the words written and, for every decoder step, its token,
// probability, cross_attention[layer][head][source word] and the decoder's causal
// self_attention[layer][head][prefix word] (the start token, then the words written before), and
// the pair's chosen head.
//
// Exit codes: 0 ok, 1 bad model or input (message on stderr; an empty --text "" is bad input),
// 2 bad command line (a missing --text among them).
#include "command_line.h"
#include "inference/trained_model.h"
#include "inference/translation_model.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

namespace {

using nlohmann::json;

struct Arguments {
  std::string model_dir;
  std::optional<std::string> text;  // unset: not given (usage error); "" given: an input error
  std::vector<std::pair<int, int>> ablate;
  std::vector<int> knockout;
  int generate = 0;
  int top = 5;
};

constexpr const char* kUsage =
    "usage: inspect --model DIR --text \"...\" [--ablate LAYER:HEAD]... [--knockout POSITION]...\n"
    "               [--generate N] [--top K]";

Arguments parse(int argc, char** argv) {
  Arguments a;
  ae_tools::CommandLine cli(argc, argv, "inspect", kUsage);
  while (cli.next()) {
    if (cli.is("--model")) a.model_dir = cli.value();
    else if (cli.is("--text")) a.text = cli.value();
    else if (cli.is("--generate")) a.generate = static_cast<int>(cli.whole(0, 1 << 20));
    else if (cli.is("--top")) a.top = static_cast<int>(cli.whole(0, 1 << 20));
    else if (cli.is("--knockout")) a.knockout.push_back(static_cast<int>(cli.whole(0, 1 << 20)));
    else if (cli.is("--ablate")) {
      const std::string v = cli.value();
      const size_t colon = v.find(':');
      if (colon == std::string::npos) cli.fail("--ablate expects LAYER:HEAD, got \"" + v + "\"");
      a.ablate.emplace_back(static_cast<int>(cli.whole_in(v.substr(0, colon), 0, 1 << 20, "--ablate")),
                            static_cast<int>(cli.whole_in(v.substr(colon + 1), 0, 1 << 20, "--ablate")));
    } else cli.unknown();
  }
  if (a.model_dir.empty()) cli.fail("--model is required");
  if (!a.text) cli.fail("--text is required");
  return a;
}

json attention_json(const ae::ForwardTrace& trace) {
  json layers = json::array();
  for (const auto& layer : trace.layers) {
    json heads = json::array();
    for (const auto& head : layer.self_attention.heads) {
      const ae::Matrix& w = head.attention.weights;
      json rows = json::array();
      for (Eigen::Index r = 0; r < w.rows(); ++r) rows.push_back(std::vector<float>(w.row(r).begin(), w.row(r).end()));
      heads.push_back(rows);
    }
    layers.push_back(heads);
  }
  return layers;
}

json prediction_json(const ae::Prediction& p, const std::vector<std::string>& tokens) {
  json top = json::array();
  for (const auto& w : p.top) top.push_back({{"token", w.word}, {"probability", w.probability}});
  return {{"position", p.position},
          {"at", tokens[static_cast<size_t>(p.position)]},
          {"token", p.top.front().word},
          {"probability", p.top.front().probability},
          {"top", top}};
}

json translation_json(const ae::TranslationModel& model, const std::string& dir, const std::string& text) {
  const ae::Translation t = model.translate(text);
  json steps = json::array();
  for (const auto& s : t.steps)
    steps.push_back({{"token", s.token},
                     {"probability", s.probability},
                     {"cross_attention", s.cross_attention},
                     {"self_attention", s.self_attention}});
  return {{"model", dir},       {"task", "translation"},
          {"source", t.source}, {"unknown", t.unknown},
          {"tokens", t.tokens}, {"text", t.text},
          {"steps", steps},     {"head", {{"layer", model.head().layer}, {"head", model.head().head}}}};
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);
  try {
    if (std::filesystem::exists(std::filesystem::path(args.model_dir) / "pair.json")) {
      const ae::TranslationModel model = ae::TranslationModel::load(args.model_dir);
      std::cout << translation_json(model, args.model_dir, *args.text).dump() << "\n";
      return 0;
    }
    const ae::TrainedModel model(ae::load_checkpoint(args.model_dir));
    ae::AnalysisOptions options;
    options.top_k = args.top;
    options.knockout = args.knockout;
    if (!args.ablate.empty()) {
      const auto& c = model.config();
      options.run.head_active.assign(static_cast<size_t>(c.n_layers),
                                     std::vector<uint8_t>(static_cast<size_t>(c.n_heads), 1));
      for (auto [layer, head] : args.ablate) {
        if (layer < 0 || layer >= c.n_layers || head < 0 || head >= c.n_heads)
          throw std::invalid_argument("--ablate " + std::to_string(layer) + ":" + std::to_string(head) +
                                      " is outside the model (" + std::to_string(c.n_layers) + " layers × " +
                                      std::to_string(c.n_heads) + " heads)");
        options.run.head_active[static_cast<size_t>(layer)][static_cast<size_t>(head)] = 0;
      }
    }
    json out = {{"model", args.model_dir}, {"task", ae::to_string(model.task())}};
    // analyze() refuses an empty sentence with a message, so `--text ""` exits 1 like any bad input.
    const ae::Analysis a = model.analyze(*args.text, options);
    out["tokens"] = a.tokens;
    out["unknown"] = a.unknown;
    if (a.prediction) out["prediction"] = prediction_json(*a.prediction, a.tokens);
    out["attention"] = attention_json(a.trace);
    if (args.generate > 0) out["generated"] = model.generate(*args.text, args.generate);
    std::cout << out.dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "inspect: " << e.what() << "\n";
    return 1;
  }
}
