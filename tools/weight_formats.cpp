// What storing a coreference model in a smaller form costs: for each candidate weight format,
// the file's bytes and every figure the trainer writes into metrics.json (per split: accuracy,
// answer in the sentence, the chosen head's weight on the referent and on the other noun, flip
// rate; the head the rule picks; the lesson pair; the criteria), measured on the model read back
// from that file. `node tools/weight-formats.mjs` runs it on F32 models and writes the table of
// docs/models.md ("Weight formats"); the gzipped sizes come from there.
//
//   weight_formats --model DIR [--format SPEC …] [--out DIR]
//
// DIR should hold F32 weights (`train --weights F32 --out DIR`), so that every candidate starts
// from what training produced. SPEC is F32, F16, or I8:LEVELS:rows|columns|outputs:F32|F16 (the last
// field is the dtype of the 1-D parameters); without --format a fixed list is measured.
// --out writes each candidate's model.safetensors to OUT/SPEC/ (':' replaced by '-'), with the
// model's config.json and vocab.txt, so that `evaluate` can read it. Prints one JSON document.
#include "command_line.h"
#include "io/checkpoint.h"
#include "train/corpus.h"
#include "train/recipes.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: weight_formats --model DIR [--format F32|F16|I8:LEVELS:rows|columns|outputs:F32|F16 ...] [--out DIR]";

const std::vector<std::string> kDefaultFormats = {
    "F32",
    "F16",
    "I8:127:rows:F32",     // int8, one F32 scale per stored row (per input feature: weights are in×out)
    "I8:127:columns:F32",  // int8, one F32 scale per column (per output row of PyTorch's out×in)
    "I8:127:outputs:F32",  // per output feature: the embedding tables per row, the weights per column
    "I8:127:outputs:F16",  // the same, biases and LayerNorm as F16
    // Fewer levels in the same I8 container: gzip codes the integers in fewer bits.
    "I8:63:outputs:F16",
    "I8:31:outputs:F16",
    "I8:15:outputs:F16",
    "I8:15:columns:F16",
    "I8:11:outputs:F16",
    "I8:7:outputs:F16",
    "I8:7:columns:F16",
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

ae::WeightFormat parse_format(const ae_tools::CommandLine& cli, const std::string& spec) {
  const std::vector<std::string> parts = split(spec, ':');
  ae::WeightFormat f;
  try {
    f.dtype = ae::dtype_from_string(parts.at(0));
  } catch (const std::exception&) {
    cli.fail("--format: unknown dtype in \"" + spec + "\"");
  }
  if (f.dtype != ae::DType::I8) {
    if (parts.size() != 1) cli.fail("--format: " + parts[0] + " takes no options, got \"" + spec + "\"");
    return f;
  }
  if (parts.size() != 4) cli.fail("--format: I8 needs I8:LEVELS:rows|columns|outputs:F32|F16, got \"" + spec + "\"");
  f.levels = static_cast<int>(cli.whole_in(parts[1], 1, 127, "--format LEVELS"));
  if (parts[2] == "rows") f.scales = ae::ScaleRule::Rows;
  else if (parts[2] == "columns") f.scales = ae::ScaleRule::Columns;
  else if (parts[2] == "outputs") f.scales = ae::ScaleRule::Outputs;
  else cli.fail("--format: the scales run along rows, columns or outputs, got \"" + parts[2] + "\"");
  if (parts[3] == "F32") f.vectors = ae::DType::F32;
  else if (parts[3] == "F16") f.vectors = ae::DType::F16;
  else cli.fail("--format: the 1-D parameters are F32 or F16, got \"" + parts[3] + "\"");
  return f;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_dir, out;
  std::vector<std::string> specs;
  ae_tools::CommandLine cli(argc, argv, "weight_formats", kUsage);
  while (cli.next()) {
    if (cli.is("--model")) model_dir = cli.value();
    else if (cli.is("--format")) specs.push_back(cli.value());
    else if (cli.is("--out")) out = cli.value();
    else cli.unknown();
  }
  if (model_dir.empty()) cli.fail("--model is required");
  if (specs.empty()) specs = kDefaultFormats;
  std::vector<ae::WeightFormat> formats;
  for (const auto& spec : specs) formats.push_back(parse_format(cli, spec));

  try {
    const ae::Checkpoint source = ae::load_checkpoint(model_dir);
    const std::string task = source.config_json.value("task", "none");
    if (task != "coreference" && task != "next-word")
      throw std::invalid_argument(model_dir + " has task \"" + task + "\"; weight_formats reads coreference models");
    const ae::CorefReader reader = task == "next-word" ? ae::CorefReader::Decoder : ae::CorefReader::Encoder;
    ae::CorefOptions corpus_options;
    corpus_options.language = ae::coref_language(source.config_json.value("language", "en"));
    const ae::CorefCorpus corpus = ae::make_coref_corpus(corpus_options);
    const ae::Vocabulary vocab = ae::Vocabulary::parse(source.vocab_text);

    json rows = json::array();
    for (size_t i = 0; i < formats.size(); ++i) {
      const std::string bytes = ae::save_weights(*source.model, formats[i]);
      ae::Transformer model(source.config);
      ae::load_weights(model, ae::parse_safetensors(bytes));
      const ae::CorefModelReport r = ae::report_coref_model(model, corpus, vocab, reader);
      json row = r.report;
      row.erase("head_probe_validation");
      row["format"] = specs[i];
      row["bytes"] = bytes.size();
      if (!out.empty()) {
        std::string name = specs[i];
        for (char& c : name)
          if (c == ':') c = '-';
        const std::filesystem::path dir = std::filesystem::path(out) / name;
        std::filesystem::create_directories(dir);
        std::ifstream config(std::filesystem::path(model_dir) / "config.json", std::ios::binary);
        write_text(dir / "config.json", std::string(std::istreambuf_iterator<char>(config), {}));
        write_text(dir / "vocab.txt", source.vocab_text);
        write_text(dir / "model.safetensors", bytes);
        row["file"] = (dir / "model.safetensors").string();
      }
      std::cerr << source.config_json.value("name", model_dir) << " " << specs[i] << ": " << bytes.size()
                << " bytes, criteria " << (r.ok ? "all met" : "not all met") << "\n";
      rows.push_back(row);
    }
    std::cout << json{{"model", model_dir}, {"name", source.config_json.value("name", "")}, {"formats", rows}}.dump(2)
              << "\n";
  } catch (const std::exception& e) {
    std::cerr << "weight_formats: " << e.what() << "\n";
    return 1;
  }
}
