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

PronounAttention pronoun_attention(const Transformer& model, const CorefExample& e, const Vocabulary& vocab,
                                   int layer, int head) {
  ForwardTrace trace;
  model.forward(coref_encoder_example(e, vocab).ids, RunOptions{}, &trace);
  const Matrix& w = trace.layers.at(layer).self_attention.heads.at(head).attention.weights;
  const int other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
  return {w(e.pronoun, e.referent), w(e.pronoun, other)};
}

std::vector<std::vector<PronounAttention>> probe_pronoun_heads(const Transformer& model,
                                                               const std::vector<CorefExample>& examples,
                                                               const Vocabulary& vocab) {
  const ModelConfig& c = model.config();
  std::vector<std::vector<PronounAttention>> sum(c.n_layers, std::vector<PronounAttention>(c.n_heads));
  // Per pair_id and head: the smallest margin seen so far among the pair's sentences.
  std::map<int, std::vector<float>> pair_min;
  const size_t n_heads_total = static_cast<size_t>(c.n_layers) * static_cast<size_t>(c.n_heads);
  for (const auto& e : examples) {
    std::vector<float>& mins = pair_min.try_emplace(e.pair_id, n_heads_total, 2.0f).first->second;
    ForwardTrace trace;
    model.forward(coref_encoder_example(e, vocab).ids, RunOptions{}, &trace);
    const int other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h) {
        const Matrix& w = trace.layers[l].self_attention.heads[h].attention.weights;
        sum[l][h].referent += w(e.pronoun, e.referent);
        sum[l][h].other += w(e.pronoun, other);
        float& m = mins[static_cast<size_t>(l * c.n_heads + h)];
        m = std::min(m, w(e.pronoun, e.referent) - w(e.pronoun, other));
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

}  // namespace ae
