// The three tasks of the shipped models, as TrainingExamples, and the measurements that say
// whether a trained model shows what the page teaches. Nothing here touches attention during
// training: the probes only read it afterwards.
#pragma once

#include "model/transformer.h"
#include "text/vocabulary.h"
#include "train/corpus.h"
#include "train/trainer.h"

#include <string>
#include <vector>

namespace ae {

// Coreference encoder: at the pronoun, name the referent word itself (its identity, not
// "first or second noun"), so the model has to fetch it from the right noun.
TrainingExample coref_encoder_example(const CorefExample& example, const Vocabulary& vocab);

// Causal decoder on decoder_text(): "… too tired . it = animal [SEP]". Targets are the
// completion after the sentence: "it", "=", the referent, then [SEP] to stop.
TrainingExample coref_decoder_example(const CorefExample& example, const Vocabulary& vocab);
// Token index of "=" in the decoder text: where the model names the referent.
int decoder_answer_position(const CorefExample& example);

// The two coreference models read the answer at different rows: the encoder at "it", the causal
// decoder at "=" of decoder_text() (the row that names the referent). The nouns keep their token
// indices in both, since decoder_text() starts with the sentence's own tokens.
enum class CorefReader { Encoder, Decoder };
TrainingExample coref_example(CorefReader reader, const CorefExample& example, const Vocabulary& vocab);
int coref_query_row(CorefReader reader, const CorefExample& example);

// Word order: "[CLS] 猫 追 狗" → at [CLS], name the agent 猫.
TrainingExample word_order_example(const WordOrderExample& example, const Vocabulary& vocab);

// Translation, English → Chinese, for an encoder–decoder (make_translation_corpus). The encoder
// reads the English tokens as they are; the decoder reads [CLS] y0 … y(n−1) and must predict
// y0 … y(n−1) [SEP] (teacher forcing): [CLS] starts and [SEP] ends a translation, so the target
// vocabulary needs no tokens of its own. Only the resolved Chinese is a target: the lesson's
// translation always names the referent after the connective, and nothing in the English says
// when 它 should be kept, so the literal rendering would be a second, unmarked answer to the same
// input (a control token would choose it, but no view asks for it).
struct TranslationVocabularies {
  Vocabulary source, target;
};
// Every English and every Chinese word of the corpus (all splits, train first, first-seen order),
// so that held-out pairs never meet [UNK]: a fixed corpus gives fixed vocabularies.
TranslationVocabularies translation_vocabularies(const TranslationCorpus& corpus);

// Throws std::invalid_argument naming a word either vocabulary lacks.
TranslationExample translation_example(const TranslationPair& pair, const TranslationVocabularies& vocab);

// Fraction of examples whose every target is the arg-max prediction.
float accuracy(const Transformer& model, const std::vector<TrainingExample>& examples);

// Attention of one head from the pronoun to the two nouns, for a coreference example.
struct PronounAttention {
  float referent = 0.0f;
  float other = 0.0f;
  // Filled by probe_pronoun_heads only: the mean over minimal pairs (examples sharing a
  // pair_id) of the smaller of the pair's two margins (referent − other); an example without
  // its partner counts as a pair of one. High only for a head that follows the referent when
  // the deciding word flips it.
  float pair_min_margin = 0.0f;
};

// probe[layer][head] over the examples: mean attention from "it" to the true referent and to
// the other noun (encoder, run on coref_encoder_example's ids).
std::vector<std::vector<PronounAttention>> probe_pronoun_heads(const Transformer& model,
                                                               const std::vector<CorefExample>& examples,
                                                               const Vocabulary& vocab,
                                                               CorefReader reader = CorefReader::Encoder);

struct HeadChoice {
  int layer = -1, head = -1;
  PronounAttention mean;
};

// The documented rule: the head with the largest mean(referent) − mean(other) over the given
// (validation) examples; ties go to the later layer, then the lower head index.
HeadChoice choose_coreference_head(const std::vector<std::vector<PronounAttention>>& probe);

// A stricter rule (proposed; not yet used for the shipped model): the head with the largest
// pair_min_margin — mean over validation minimal pairs of min over the pair's two sentences of
// (weight from "it" on the referent − weight on the other noun); ties go to the later layer,
// then the lower head index. Ranking by the worse sentence of each pair rejects heads that point
// well in one sentence only: a layer-0 head sees only token embeddings, so its ratio between
// the two nouns cannot depend on the deciding word and it cannot follow the flip (it can only
// move weight onto the adjective). Needs a probe from probe_pronoun_heads.
HeadChoice choose_coreference_head_by_pairs(const std::vector<std::vector<PronounAttention>>& probe);

// Where the decision is read: the head whose query row puts the most weight, on average over the
// examples, on the deciding adjective (the decoder's "=" row must look there; "it" cannot). Ties
// go to the earlier layer, then the lower head index. Returns {layer, head, mean weight}.
struct DeciderHead {
  int layer = -1, head = -1;
  float mean_on_decider = 0.0f;
};
DeciderHead choose_decider_head(const Transformer& model, const std::vector<CorefExample>& examples,
                                const Vocabulary& vocab, CorefReader reader);

// What a split says about a coreference model, read in the chosen head at the query row:
// answer accuracy, the share of answers that are a word of the sentence, mean weight on the
// referent and on the other noun, and the flip rate: the share of minimal pairs in which the
// head puts ≥ 0.5 on the referent and < 0.2 on the other noun in both sentences.
struct CorefSplitReport {
  int examples = 0, pairs = 0;
  double accuracy = 0.0, answer_in_sentence = 0.0, weight_on_referent = 0.0, weight_on_other = 0.0, flip_rate = 0.0;
};
CorefSplitReport coref_split_report(const Transformer& model, const std::vector<CorefExample>& split,
                                    const Vocabulary& vocab, CorefReader reader, int layer, int head);

}  // namespace ae
