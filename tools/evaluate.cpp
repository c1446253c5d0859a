// Evaluates a coreference model (encoder or causal decoder) on a file of sentences and prints,
// per category and overall, answer accuracy, the answer-in-sentence rate, the coreference head's
// mean weight on the referent and on the other noun, and the minimal-pair flip rate.
//
//   evaluate --model DIR --file sentences.jsonl [--json]
//
// Each line of the file is {"text": "...", "referent": "...", "other": "...", "category": "..."};
// lines 2k and 2k+1 (counting non-blank lines) form a minimal pair. The rules are in
// src/inference/evaluation.h and the README.
//
// Exit codes: 0 ok, 1 bad model (message on stderr), 2 bad command line or bad line in the file.
#include "command_line.h"
#include "inference/evaluation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <string>

namespace {

using nlohmann::json;

struct Arguments {
  std::string model_dir, file;
  bool json = false;
};

constexpr const char* kUsage =
    "usage: evaluate --model DIR --file SENTENCES.jsonl [--json]\n"
    "       each line: {\"text\": \"...\", \"referent\": \"...\", \"other\": \"...\", \"category\": \"...\"}";

// A problem with the sentences file: the user fixes the file, not the model.
[[noreturn]] void input_error(const std::string& problem) {
  std::cerr << "evaluate: " << problem << "\n";
  std::exit(2);
}

Arguments parse(int argc, char** argv) {
  Arguments a;
  ae_tools::CommandLine cli(argc, argv, "evaluate", kUsage);
  while (cli.next()) {
    if (cli.is("--model")) a.model_dir = cli.value();
    else if (cli.is("--file")) a.file = cli.value();
    else if (cli.is("--json")) a.json = true;
    else cli.unknown();
  }
  if (a.model_dir.empty()) cli.fail("--model is required");
  if (a.file.empty()) cli.fail("--file is required");
  return a;
}

std::string string_field(const json& line, const char* key, int number) {
  const auto it = line.find(key);
  if (it == line.end() || !it->is_string() || it->get<std::string>().empty())
    input_error("line " + std::to_string(number) + ": needs a non-empty string \"" + key + "\"");
  return it->get<std::string>();
}

std::vector<ae::CorefItem> read_items(const std::string& path) {
  std::ifstream in(path);
  if (!in) input_error("cannot read " + path);
  std::vector<ae::CorefItem> items;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are not sentences
    json line;
    try {
      line = json::parse(text);
    } catch (const json::exception& e) {
      input_error("line " + std::to_string(number) + ": not JSON (" + e.what() + ")");
    }
    if (!line.is_object()) input_error("line " + std::to_string(number) + ": expected a JSON object");
    items.push_back({string_field(line, "text", number), string_field(line, "referent", number),
                     string_field(line, "other", number), string_field(line, "category", number), number});
  }
  if (items.empty()) input_error(path + " holds no sentences");
  return items;
}

json flip_rate_json(const ae::CategoryStats& s) {
  const auto rate = s.flip_rate();
  return rate ? json(*rate) : json(nullptr);
}

json stats_json(const ae::CategoryStats& s) {
  return {{"category", s.category},
          {"n", s.n},
          {"pairs", s.pairs},
          {"accuracy", s.accuracy()},
          {"answer_in_sentence", s.in_sentence_rate()},
          {"mean_on_referent", s.mean_on_referent},
          {"mean_on_other", s.mean_on_other},
          {"flip_rate", flip_rate_json(s)},
          {"flips", s.flips},
          {"with_unknown", s.with_unknown}};
}

std::string fixed(double v, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

std::string pad(const std::string& s, size_t width, bool right) {
  // Byte length is the display width here: categories are expected to be ASCII.
  const std::string fill(s.size() < width ? width - s.size() : 0, ' ');
  return right ? fill + s : s + fill;
}

void print_table(const std::vector<ae::CategoryStats>& stats) {
  const std::vector<std::string> header = {"category",    "n",        "pairs",     "accuracy", "in sentence",
                                           "w(referent)", "w(other)", "flip rate", "[UNK]"};
  std::vector<std::vector<std::string>> rows = {header};
  for (const ae::CategoryStats& s : stats) {
    const auto rate = s.flip_rate();
    rows.push_back({s.category, std::to_string(s.n), std::to_string(s.pairs), fixed(s.accuracy(), 3),
                    fixed(s.in_sentence_rate(), 3), fixed(s.mean_on_referent, 3), fixed(s.mean_on_other, 3),
                    rate ? fixed(*rate, 3) : "-", std::to_string(s.with_unknown)});
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) line += (c ? "  " : "") + pad(row[c], width[c], c > 0);
    std::cout << line << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);
  const std::vector<ae::CorefItem> items = read_items(args.file);
  std::optional<ae::TrainedModel> model;
  std::optional<ae::HeadRef> configured;
  try {
    model.emplace(ae::load_checkpoint(args.model_dir));
    if (!ae::evaluable(*model))
      throw std::invalid_argument("evaluate reads a coreference encoder or a causal next-word decoder; " +
                                  args.model_dir + " has task \"" + ae::to_string(model->task()) + "\"");
    configured = ae::configured_head(*model);
  } catch (const std::exception& e) {
    std::cerr << "evaluate: " << e.what() << "\n";
    return 1;
  }

  std::vector<ae::SentenceReading> readings;
  std::vector<ae::CategoryStats> stats;
  ae::HeadRef head;
  try {
    for (const ae::CorefItem& item : items) readings.push_back(ae::read_sentence(*model, item));
    head = configured ? *configured : ae::choose_head_by_pairs(readings);
    stats = ae::summarize(readings, head);
  } catch (const std::invalid_argument& e) {
    input_error(e.what());
  }

  const std::string head_source =
      configured ? "config.json coreference_head" : "chosen from this file by the pairs rule";
  std::set<std::string> unknown;
  for (const auto& r : readings) unknown.insert(r.unknown_words.begin(), r.unknown_words.end());

  if (args.json) {
    json categories = json::array();
    for (size_t i = 0; i + 1 < stats.size(); ++i) categories.push_back(stats_json(stats[i]));
    std::cout << json{{"model", args.model_dir},
                      {"file", args.file},
                      {"task", ae::to_string(model->task())},
                      {"head", {{"layer", head.layer}, {"head", head.head}, {"source", head_source}}},
                      {"categories", categories},
                      {"all", stats_json(stats.back())},
                      {"unknown_words", unknown}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << "model " << args.model_dir << " (" << ae::to_string(model->task()) << "), head " << head.layer << ":"
            << head.head << " (layer:head, 0-based; " << head_source << ")\n";
  print_table(stats);
  if (!unknown.empty()) {
    std::cout << "words not in the vocabulary, read as [UNK]:";
    for (const auto& w : unknown) std::cout << " \"" << w << "\"";  // quoted: "," is a word too
    std::cout << "\n";
  }
  return 0;
}
