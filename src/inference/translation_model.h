// A trained encoder–decoder (web/models/translate-en-zh/, written by the trainer's
// translate-en-zh recipe): pair.json names the encoder/ and decoder/ checkpoints (each in the
// checkpoint format of io/checkpoint.h, with its own vocabulary), the start and end tokens and
// the cross-attention head chosen on validation. translate() decodes greedily and returns every
// step's cross-attention and the decoder's causal self-attention: what `inspect --model DIR`
// prints and the bindings hand to JS.
#pragma once

#include "io/checkpoint.h"
#include "text/vocabulary.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

inline constexpr char kEncoderDecoderFormat[] = "attention-explorer/encoder-decoder/1";

struct TranslationStep {
  std::string token;  // the word written at this step ("[SEP]" ends the translation)
  int id = 0;
  float probability = 0.0f;  // softmax of the step's logits at the choice
  // cross_attention[layer][head][j]: the weight this step's query puts on source word j.
  std::vector<std::vector<std::vector<float>>> cross_attention;
  // self_attention[layer][head][k]: the decoder's causal self-attention of this step's query over
  // the prefix: k = 0 is the start token, k ≥ 1 the words written at steps 0 … k−1.
  std::vector<std::vector<std::vector<float>>> self_attention;
};

struct Translation {
  std::vector<std::string> source;     // the English words as the encoder reads them
  std::vector<int> unknown;            // source positions that became [UNK]
  std::vector<std::string> tokens;     // the words written, without the final [SEP]
  std::string text;                    // tokens joined (Chinese: no spaces)
  std::vector<TranslationStep> steps;  // one per word written, the final [SEP] included
};

struct CrossAttentionHead {
  int layer = 0, head = 0;
};

class TranslationModel {
 public:
  // Every refusal (a missing file, a bad pair.json, a checkpoint that does not load or does not
  // fit the other) is an InputError with code bad-model; the message names the file.
  static TranslationModel load(const std::string& dir);
  // The in-memory form (the wasm build has no file system).
  static TranslationModel from_memory(std::string_view pair_json, std::string_view encoder_config,
                                      std::string_view encoder_safetensors, std::string_view encoder_vocab,
                                      std::string_view decoder_config, std::string_view decoder_safetensors,
                                      std::string_view decoder_vocab);

  // Greedy decoding of an English sentence. Throws InputError: empty-input for a sentence
  // without words, too-long for more words than the encoder reads.
  Translation translate(std::string_view text) const;

  CrossAttentionHead head() const { return head_; }
  const nlohmann::json& pair_json() const { return pair_; }
  const ModelConfig& encoder_config() const { return encoder_->config(); }
  const ModelConfig& decoder_config() const { return decoder_->config(); }

 private:
  TranslationModel(nlohmann::json pair, Checkpoint encoder, Checkpoint decoder);
  nlohmann::json pair_;
  std::unique_ptr<Transformer> encoder_, decoder_;
  Vocabulary source_, target_;
  CrossAttentionHead head_;
  int start_ = Vocabulary::kCls, end_ = Vocabulary::kSep, max_output_ = 40;
};

}  // namespace ae
