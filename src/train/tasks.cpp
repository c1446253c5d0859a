#include "train/tasks.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ae {

namespace {

std::vector<int> ids_of(const std::vector<std::string>& tokens, const Vocabulary& vocab) {
  std::vector<int> ids;
  ids.reserve(tokens.size());
  for (const auto& t : tokens) {
    const int id = vocab.id(t);
    if (id == Vocabulary::kUnk) throw std::invalid_argument("task: the vocabulary lacks the corpus word \"" + t + "\"");
    ids.push_back(id);
  }
  return ids;
}

}  // namespace

TrainingExample coref_encoder_example(const CorefExample& e, const Vocabulary& vocab) {
  return {ids_of(e.tokens, vocab), {e.pronoun}, {vocab.id(e.referent_word)}};
}

int decoder_answer_position(const CorefExample& e) {
  return static_cast<int>(e.tokens.size()) + 1;  // the sentence (ending in "."), "it", then "="
}

TrainingExample coref_decoder_example(const CorefExample& e, const Vocabulary& vocab) {
  const Vocabulary::Encoded encoded = vocab.encode(decoder_text(e));
  if (!encoded.unknown.empty())
    throw std::invalid_argument("task: the vocabulary lacks \"" + encoded.tokens[encoded.unknown[0]] + "\"");
  const int answer = decoder_answer_position(e);
  if (answer + 2 != static_cast<int>(encoded.ids.size()) || encoded.tokens[answer] != "=")
    throw std::logic_error("task: unexpected decoder text layout: " + decoder_text(e));
  // Next-word targets over the completion: "." → it, it → "=", "=" → referent, referent → [SEP].
  TrainingExample ex;
  ex.ids = encoded.ids;
  for (int p = answer - 2; p <= answer; ++p) {
    ex.positions.push_back(p);
    ex.targets.push_back(ex.ids[p + 1]);
  }
  ex.positions.push_back(answer + 1);
  ex.targets.push_back(Vocabulary::kSep);
  return ex;
}

namespace {

void add_words(const std::vector<TranslationPair>& split, std::vector<std::string>& english,
               std::vector<std::string>& chinese) {
  for (const auto& p : split) {
    english.insert(english.end(), p.english.tokens.begin(), p.english.tokens.end());
    chinese.insert(chinese.end(), p.resolved.begin(), p.resolved.end());
  }
}

}  // namespace

TranslationVocabularies translation_vocabularies(const TranslationCorpus& corpus) {
  std::vector<std::string> english, chinese;
  add_words(corpus.train, english, chinese);
  for (const auto& [name, split] : corpus.evaluation_splits()) add_words(*split, english, chinese);
  return {Vocabulary::from_words(english), Vocabulary::from_words(chinese)};
}

TranslationExample translation_example(const TranslationPair& p, const TranslationVocabularies& vocab) {
  TranslationExample ex{ids_of(p.english.tokens, vocab.source), {}};
  const std::vector<int> words = ids_of(p.resolved, vocab.target);
  ex.target.ids.push_back(Vocabulary::kCls);
  ex.target.ids.insert(ex.target.ids.end(), words.begin(), words.end());
  for (size_t i = 0; i < ex.target.ids.size(); ++i) ex.target.positions.push_back(static_cast<int>(i));
  ex.target.targets = words;
  ex.target.targets.push_back(Vocabulary::kSep);
  return ex;
}

TrainingExample word_order_example(const WordOrderExample& e, const Vocabulary& vocab) {
  std::vector<int> ids = {Vocabulary::kCls};
  for (int id : ids_of(e.tokens, vocab)) ids.push_back(id);
  return {ids, {0}, {vocab.id(e.agent_word)}};
}

float accuracy(const Transformer& model, const std::vector<TrainingExample>& examples) {
  if (examples.empty()) return 0.0f;
  int right = 0;
  for (const auto& ex : examples)
    right += evaluate_example(model, ex, RunOptions{}).correct == static_cast<int>(ex.targets.size());
  return static_cast<float>(right) / static_cast<float>(examples.size());
}

TrainingExample coref_example(CorefReader reader, const CorefExample& e, const Vocabulary& vocab) {
  return reader == CorefReader::Encoder ? coref_encoder_example(e, vocab) : coref_decoder_example(e, vocab);
}

int coref_query_row(CorefReader reader, const CorefExample& e) {
  return reader == CorefReader::Encoder ? e.pronoun : decoder_answer_position(e);
}

CorefSplitReport coref_split_report(const Transformer& model, const std::vector<CorefExample>& split,
                                    const Vocabulary& vocab, CorefReader reader, int layer, int head) {
  CorefSplitReport r;
  std::map<int, int> pair_flips;  // pair_id → sentences of the pair the head follows (of 2)
  for (const auto& e : split) {
    const TrainingExample ex = coref_example(reader, e, vocab);
    const int row = coref_query_row(reader, e);
    ForwardTrace trace;
    const Matrix hidden = model.forward(ex.ids, RunOptions{}, &trace);
    Eigen::Index best = 0;
    model.logits(hidden.row(row)).row(0).maxCoeff(&best);
    const std::string& answer = vocab.token(static_cast<int>(best));
    r.accuracy += answer == e.referent_word;
    r.answer_in_sentence += std::find(e.tokens.begin(), e.tokens.end(), answer) != e.tokens.end();
    const Matrix& w = trace.layers.at(layer).self_attention.heads.at(head).attention.weights;
    const int other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
    const float on_referent = w(row, e.referent), on_other = w(row, other);
    r.weight_on_referent += on_referent;
    r.weight_on_other += on_other;
    pair_flips[e.pair_id] += on_referent >= 0.5f && on_other < 0.2f;
  }
  r.examples = static_cast<int>(split.size());
  r.pairs = static_cast<int>(pair_flips.size());
  const double n = std::max(1, r.examples);
  r.accuracy /= n;
  r.answer_in_sentence /= n;
  r.weight_on_referent /= n;
  r.weight_on_other /= n;
  for (const auto& [id, follows] : pair_flips) r.flip_rate += follows == 2;
  r.flip_rate /= std::max(1, r.pairs);
  return r;
}

std::vector<std::vector<PronounAttention>> probe_pronoun_heads(const Transformer& model,
                                                               const std::vector<CorefExample>& examples,
                                                               const Vocabulary& vocab, CorefReader reader) {
  const ModelConfig& c = model.config();
  std::vector<std::vector<PronounAttention>> sum(c.n_layers, std::vector<PronounAttention>(c.n_heads));
  // Per pair_id and head: the smallest margin seen so far among the pair's sentences.
  std::map<int, std::vector<float>> pair_min;
  const size_t n_heads_total = static_cast<size_t>(c.n_layers) * static_cast<size_t>(c.n_heads);
  for (const auto& e : examples) {
    std::vector<float>& mins = pair_min.try_emplace(e.pair_id, n_heads_total, 2.0f).first->second;
    ForwardTrace trace;
    model.forward(coref_example(reader, e, vocab).ids, RunOptions{}, &trace);
    const int other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
    const int row = coref_query_row(reader, e);
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h) {
        const Matrix& w = trace.layers[l].self_attention.heads[h].attention.weights;
        sum[l][h].referent += w(row, e.referent);
        sum[l][h].other += w(row, other);
        float& m = mins[static_cast<size_t>(l * c.n_heads + h)];
        m = std::min(m, w(row, e.referent) - w(row, other));
      }
  }
  for (const auto& [id, mins] : pair_min)
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h) sum[l][h].pair_min_margin += mins[static_cast<size_t>(l * c.n_heads + h)];
  const float n = static_cast<float>(std::max<size_t>(1, examples.size()));
  for (auto& layer : sum)
    for (auto& h : layer) {
      h.referent /= n;
      h.other /= n;
      h.pair_min_margin /= static_cast<float>(std::max<size_t>(1, pair_min.size()));
    }
  return sum;
}

HeadChoice choose_coreference_head(const std::vector<std::vector<PronounAttention>>& probe) {
  HeadChoice best;
  float best_margin = -2.0f;
  for (int l = 0; l < static_cast<int>(probe.size()); ++l)
    for (int h = 0; h < static_cast<int>(probe[l].size()); ++h) {
      const float margin = probe[l][h].referent - probe[l][h].other;
      if (margin >= best_margin + 1e-6f || (margin > best_margin - 1e-6f && l > best.layer)) {
        best_margin = margin;
        best = {l, h, probe[l][h]};
      }
    }
  return best;
}

HeadChoice choose_coreference_head_by_pairs(const std::vector<std::vector<PronounAttention>>& probe) {
  HeadChoice best;
  float best_margin = -2.0f;
  for (int l = 0; l < static_cast<int>(probe.size()); ++l)
    for (int h = 0; h < static_cast<int>(probe[l].size()); ++h) {
      const float margin = probe[l][h].pair_min_margin;
      if (margin >= best_margin + 1e-6f || (margin > best_margin - 1e-6f && l > best.layer)) {
        best_margin = margin;
        best = {l, h, probe[l][h]};
      }
    }
  return best;
}

DeciderHead choose_decider_head(const Transformer& model, const std::vector<CorefExample>& examples,
                                const Vocabulary& vocab, CorefReader reader) {
  const ModelConfig& c = model.config();
  std::vector<double> sum(static_cast<size_t>(c.n_layers * c.n_heads), 0.0);
  for (const auto& e : examples) {
    const auto decider = std::find(e.tokens.begin() + e.pronoun, e.tokens.end(), e.decider);
    if (decider == e.tokens.end()) throw std::logic_error("task: no decider after \"it\" in " + e.text);
    const int column = static_cast<int>(decider - e.tokens.begin());
    ForwardTrace trace;
    model.forward(coref_example(reader, e, vocab).ids, RunOptions{}, &trace);
    const int row = coref_query_row(reader, e);
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h)
        sum[static_cast<size_t>(l * c.n_heads + h)] +=
            trace.layers[l].self_attention.heads[h].attention.weights(row, column);
  }
  DeciderHead best;
  for (int l = 0; l < c.n_layers; ++l)
    for (int h = 0; h < c.n_heads; ++h) {
      const float mean = static_cast<float>(sum[static_cast<size_t>(l * c.n_heads + h)] /
                                            static_cast<double>(std::max<size_t>(1, examples.size())));
      if (mean > best.mean_on_decider + 1e-6f || best.layer < 0) best = {l, h, mean};
    }
  return best;
}

}  // namespace ae
