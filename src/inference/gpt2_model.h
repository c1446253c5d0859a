// A GPT-2-layout checkpoint opened from its four published files (config.json,
// model.safetensors, vocab.json, merges.txt; io/gpt2.h, text/bpe.h), answering the same
// questions as a TrainedModel with next-word task: the full trace of a text with the next
// token's probabilities, and greedy generation step by step with or without the KV cache.
// The results are the same structs (Analysis, Generation), so the bindings and the page's
// causal panels read both kinds of model alike.
#pragma once

#include "inference/trained_model.h"
#include "text/bpe.h"

#include <memory>
#include <string_view>

namespace ae {

class Gpt2Model {
 public:
  // Reads config.json and the tokenizer first, so that a vocabulary that disagrees with the
  // config is refused before the weights are allocated. Errors: std::invalid_argument naming
  // the file ("config.json: …", "vocab.json: …", "merges.txt: …", "model.safetensors: …").
  Gpt2Model(std::string_view config_json, std::string_view safetensors, std::string_view vocab_json,
            std::string_view merges_txt);

  const ModelConfig& config() const { return model_->config(); }
  const BpeTokenizer& tokenizer() const { return tokenizer_; }
  const Transformer& transformer() const { return *model_; }
  size_t parameter_count() const { return model_->parameter_count(); }

  // tokens are the tokens' text (token_text), unknown is always empty (byte-level BPE reads
  // everything), prediction the next token after the last one. Throws for an empty text, one
  // over max_len tokens, text that is not UTF-8, or knockout positions out of range.
  // options.run.traced_layers keeps the trace of the layers on view only (the others run
  // untraced, their matrices bit-identical to a full trace's); the 512 MiB trace budget
  // applies to what is traced, so a long text fits when fewer layers are traced.
  Analysis analyze(std::string_view text, const AnalysisOptions& options = {}) const;

  // The next token's probabilities after the last one, analyze()'s numbers bit for bit (the
  // same forward pass, untraced): what the knock-out panel reads per run. Options as analyze's
  // (top_k and traced_layers ignored).
  WordProbabilities probabilities(std::string_view text, const AnalysisOptions& options = {}) const;

  // The logits of every position (n×V), from a forward pass without trace.
  Matrix logits(std::string_view text) const;

  // Greedy decoding as TrainedModel::generate_steps; a step ends generation when it chooses
  // <|endoftext|>.
  Generation generate_steps(std::string_view prompt, int max_new_tokens, bool use_cache) const;

 private:
  std::vector<int> encode_checked(std::string_view text, const char* what) const;
  std::vector<std::string> texts(const std::vector<int>& ids) const;
  RunOptions run_options(const AnalysisOptions& options, int n) const;  // knockout → key_padding

  BpeTokenizer tokenizer_;
  std::unique_ptr<Transformer> model_;
  int end_of_text_ = -1;
};

}  // namespace ae
