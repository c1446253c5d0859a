#include "inference/evaluation.h"

#include "text/tokenizer.h"
#include "train/corpus.h"
#include "train/tasks.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void line_error(const CorefItem& item, const std::string& why) {
  throw std::invalid_argument("line " + std::to_string(item.line) + ": " + why);
}

bool is_decoder(const TrainedModel& model) { return model.task() == Task::NextWord && model.config().causal; }

// The file's word as the model's tokenizer spells it ("Animal" → "animal", 动物 stays one word
// when the vocabulary knows it); one token or an error.
std::string single_token(const TrainedModel& model, const CorefItem& item, const std::string& word, const char* field) {
  const std::vector<std::string> tokens = model.vocabulary().encode(word).tokens;
  if (tokens.size() != 1) line_error(item, std::string("\"") + field + "\" must be one word, got \"" + word + "\"");
  return tokens.front();
}

int last_occurrence(const std::vector<std::string>& tokens, const std::string& word) {
  for (size_t i = tokens.size(); i-- > 0;)
    if (tokens[i] == word) return static_cast<int>(i);
  return -1;
}

}  // namespace

int nearest_occurrence(const std::vector<std::string>& tokens, const std::string& word, int pronoun) {
  for (int i = std::min(pronoun, static_cast<int>(tokens.size())) - 1; i >= 0; --i)
    if (tokens[static_cast<size_t>(i)] == word) return i;
  for (int i = std::max(pronoun + 1, 0); i < static_cast<int>(tokens.size()); ++i)
    if (tokens[static_cast<size_t>(i)] == word) return i;
  return -1;
}

std::string decoder_prompt(const std::string& sentence) {
  CorefExample example;
  example.text = sentence;
  std::string prompt = decoder_text(example);  // "… . it = " + the (empty) referent
  while (!prompt.empty() && prompt.back() == ' ') prompt.pop_back();
  return prompt;
}

bool evaluable(const TrainedModel& model) {
  return (model.task() == Task::Coreference && !model.config().causal) || is_decoder(model);
}

SentenceReading read_sentence(const TrainedModel& model, const CorefItem& item) {
  if (!evaluable(model))
    throw std::invalid_argument("evaluate reads a coreference encoder or a next-word decoder; this model's task is " +
                                to_string(model.task()));
  std::string text = item.text;
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r')) text.pop_back();
  // The sentence's own tokens: the encoder's whole input, the start of the decoder's prompt.
  const Vocabulary::Encoded sentence = model.vocabulary().encode(text);
  SentenceReading r;
  r.line = item.line;
  r.category = item.category;
  r.pronoun = last_occurrence(sentence.tokens, model.pronoun());
  if (r.pronoun < 0) line_error(item, "the sentence has no \"" + model.pronoun() + "\"");
  const std::string referent = single_token(model, item, item.referent, "referent");
  const std::string other = single_token(model, item, item.other, "other");
  r.referent = nearest_occurrence(sentence.tokens, referent, r.pronoun);
  r.other = nearest_occurrence(sentence.tokens, other, r.pronoun);
  if (r.referent < 0) line_error(item, "the referent \"" + item.referent + "\" is not a word of the sentence");
  if (r.other < 0) line_error(item, "the other noun \"" + item.other + "\" is not a word of the sentence");
  if (r.referent == r.other) line_error(item, "the referent and the other noun are the same word");
  for (int p : sentence.unknown) r.unknown_words.push_back(sentence.tokens[static_cast<size_t>(p)]);

  Analysis a;
  try {
    a = model.analyze(is_decoder(model) ? decoder_prompt(text) : text);
  } catch (const std::invalid_argument& e) {
    line_error(item, e.what());
  }
  if (!std::equal(sentence.tokens.begin(), sentence.tokens.end(), a.tokens.begin()))
    throw std::logic_error("evaluate: the decoder prompt does not start with the sentence's tokens");
  r.row = a.prediction->position;  // the last "it" (encoder) or "=" (decoder)
  r.answer = a.prediction->top.front().word;
  r.correct = r.answer == referent;
  r.answer_in_sentence = std::find(sentence.tokens.begin(), sentence.tokens.end(), r.answer) != sentence.tokens.end();
  for (const LayerTrace& layer : a.trace.layers) {
    std::vector<HeadWeights> heads;
    for (const HeadTrace& h : layer.self_attention.heads)
      heads.push_back({h.attention.weights(r.row, r.referent), h.attention.weights(r.row, r.other)});
    r.heads.push_back(std::move(heads));
  }
  return r;
}

std::optional<HeadRef> configured_head(const TrainedModel& model) {
  const nlohmann::json& c = model.config_json();
  const auto it = c.find("coreference_head");
  if (it == c.end()) return std::nullopt;
  const auto index = [&](const char* key) {
    const auto v = it->find(key);
    if (!it->is_object() || v == it->end() || !v->is_number_integer())
      throw std::invalid_argument(std::string("config.json: \"coreference_head\" needs an integer \"") + key + "\"");
    return v->get<int>();
  };
  const HeadRef h{index("layer"), index("head")};
  const ModelConfig& m = model.config();
  if (h.layer < 0 || h.layer >= m.n_layers || h.head < 0 || h.head >= m.n_heads)
    throw std::invalid_argument("config.json: \"coreference_head\" " + std::to_string(h.layer) + ":" +
                                std::to_string(h.head) + " is outside the model (" + std::to_string(m.n_layers) +
                                " layers × " + std::to_string(m.n_heads) + " heads, 0-based)");
  return h;
}

HeadRef choose_head_by_pairs(const std::vector<SentenceReading>& readings) {
  if (readings.empty()) throw std::invalid_argument("choose_head_by_pairs: no sentences");
  const size_t layers = readings.front().heads.size(), heads = readings.front().heads.front().size();
  std::vector<std::vector<PronounAttention>> probe(layers, std::vector<PronounAttention>(heads));
  for (size_t l = 0; l < layers; ++l)
    for (size_t h = 0; h < heads; ++h) {
      PronounAttention& p = probe[l][h];
      double sum_margin = 0.0;
      int pairs = 0;
      for (size_t i = 0; i < readings.size(); i += 2, ++pairs) {
        const HeadWeights& a = readings[i].heads[l][h];
        float margin = a.referent - a.other;
        if (i + 1 < readings.size()) {
          const HeadWeights& b = readings[i + 1].heads[l][h];
          margin = std::min(margin, b.referent - b.other);
        }
        sum_margin += margin;
      }
      for (const SentenceReading& r : readings) {
        p.referent += r.heads[l][h].referent / static_cast<float>(readings.size());
        p.other += r.heads[l][h].other / static_cast<float>(readings.size());
      }
      p.pair_min_margin = static_cast<float>(sum_margin / pairs);
    }
  const HeadChoice choice = choose_coreference_head_by_pairs(probe);
  return {choice.layer, choice.head};
}

bool pair_flips(const HeadWeights& first, const HeadWeights& second) {
  const auto follows = [](const HeadWeights& w) { return w.referent >= kFlipOnReferent && w.other < kFlipOnOther; };
  return follows(first) && follows(second);
}

std::vector<CategoryStats> summarize(const std::vector<SentenceReading>& readings, HeadRef head) {
  std::vector<CategoryStats> out;
  std::map<std::string, size_t> index;  // category → position in out
  const auto stats_of = [&](const std::string& category) -> CategoryStats& {
    const auto [it, added] = index.emplace(category, out.size());
    if (added) out.push_back(CategoryStats{category});
    return out[it->second];
  };
  CategoryStats all{"all"};
  for (size_t i = 0; i < readings.size(); ++i) {
    const SentenceReading& r = readings[i];
    const HeadWeights& w = r.heads.at(static_cast<size_t>(head.layer)).at(static_cast<size_t>(head.head));
    for (CategoryStats* s : {&stats_of(r.category), &all}) {
      ++s->n;
      s->correct += r.correct;
      s->in_sentence += r.answer_in_sentence;
      s->with_unknown += !r.unknown_words.empty();
      s->mean_on_referent += w.referent;
      s->mean_on_other += w.other;
    }
    if (i % 2 == 1) {
      const SentenceReading& first = readings[i - 1];
      if (first.category != r.category)
        throw std::invalid_argument("lines " + std::to_string(first.line) + " and " + std::to_string(r.line) +
                                    " form a minimal pair but have different categories (\"" + first.category +
                                    "\", \"" + r.category + "\")");
      const bool flips = pair_flips(first.heads[static_cast<size_t>(head.layer)][static_cast<size_t>(head.head)], w);
      for (CategoryStats* s : {&stats_of(r.category), &all}) {
        ++s->pairs;
        s->flips += flips;
      }
    }
  }
  out.push_back(all);
  for (CategoryStats& s : out) {
    s.mean_on_referent /= std::max(s.n, 1);
    s.mean_on_other /= std::max(s.n, 1);
  }
  return out;
}

}  // namespace ae
