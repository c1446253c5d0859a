// A trained model ready to answer questions about a sentence: tokenise with its vocabulary,
// run with the full trace, read the prediction its task defines, optionally with heads
// ablated or tokens knocked out, and (for a decoder) generate a completion. The inspect tool,
// the bindings and the page all go through this one class.
#pragma once

#include "io/checkpoint.h"
#include "model/kv_cache.h"
#include "model/transformer.h"
#include "text/vocabulary.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

// What the model was trained to predict, from config.json's "task".
enum class Task {
  Coreference,  // "coreference": at the pronoun "it", name the word it refers to
  WordOrder,    // "word-order": at a prepended [CLS], name the agent of the sentence
  NextWord,     // "next-word": a causal decoder predicting the following word
  None,         // no task: attention only
};

Task task_from_string(const std::string& name);  // throws std::invalid_argument for unknown names
std::string to_string(Task task);

struct WordProbability {
  std::string word;
  int id = 0;
  float probability = 0.0f;
};

struct Prediction {
  int position = -1;                 // the token whose output is read
  std::vector<WordProbability> top;  // most probable words first
};

struct AnalysisOptions {
  RunOptions run;             // causal override, scale, temperature, head ablation (run.head_active)
  std::vector<int> knockout;  // token positions hidden from every query (their keys are masked)
  int top_k = 5;
};

// The model's probability for every word of its vocabulary at the row its task reads.
struct WordProbabilities {
  int position = -1;                 // the token whose output is read
  std::vector<float> probabilities;  // V, in vocabulary id order
  int best = 0;                      // the id of the most probable word
};

struct Analysis {
  std::vector<std::string> tokens;  // as the model sees them ([CLS] included when the task adds it)
  std::vector<int> ids;
  std::vector<int> unknown;  // positions that became [UNK]
  ForwardTrace trace;
  std::optional<Prediction> prediction;
};

// One greedy decoding step of generate_steps(): the sequence holds positions 0 … p, the
// model reads row p and chooses the token for position p + 1.
struct GenerationStep {
  int position = 0;         // p
  std::string input_token;  // the token at position p (the newest row of the cache)
  std::string token;        // the greedy choice for position p + 1
  int id = 0;
  float probability = 0.0f;       // softmax of the logits at the choice
  bool end = false;               // the choice is [SEP]: generation stops and it is not appended
  int rows_reused = 0;            // cached rows read, not recomputed (always 0 without a cache)
  int rows_new = 0;               // rows computed: the prompt's n at step 0, then 1; p + 1 without a cache
  int cache_rows = 0;             // rows in the cache after the step: p + 1 (0 without a cache)
  StepWork work;                  // multiply-adds of this step (model/kv_cache.h)
  std::vector<float> logits;      // V: the logits of row p
  std::vector<Matrix> attention;  // per layer, h×(p + 1): row j = head j's weights of row p
  // The kStepTop most probable next tokens (softmax of logits), most probable first: what the
  // greedy choice was picked from.
  std::vector<WordProbability> top;
};
inline constexpr int kStepTop = 5;

struct Generation {
  std::vector<std::string> tokens;  // the prompt's tokens, then the generated ones ([SEP] excluded)
  std::vector<int> ids;
  std::vector<int> unknown;  // prompt positions that became [UNK]
  int prompt_length = 0;
  bool cached = false;
  std::vector<GenerationStep> steps;
  // [layer][head]: the keys (after RoPE) and values of rows 0 … p of the last step, (p + 1)×dh:
  // the cache at the end, or the last full pass's without a cache. Empty when no step ran.
  std::vector<std::vector<Matrix>> keys, values;
};

// Greedy decoding for any causal Transformer (TrainedModel, Gpt2Model): extends g, whose ids,
// tokens and prompt_length hold the prompt, by up to max_new tokens (one GenerationStep each,
// with or without a KV cache), stopping at max_len or when it chooses end_id, which is not
// appended; token_text(id) spells a chosen id.
void decode_greedily(const Transformer& model, Generation& g, int max_new, bool use_cache, int end_id,
                     const std::function<std::string(int)>& token_text);

class TrainedModel {
 public:
  explicit TrainedModel(Checkpoint checkpoint);

  const ModelConfig& config() const { return model_->config(); }
  const Vocabulary& vocabulary() const { return vocab_; }
  Task task() const { return task_; }
  // The word a coreference model resolves at its last occurrence ("it", "它").
  const std::string& pronoun() const { return pronoun_; }
  const nlohmann::json& config_json() const { return config_json_; }
  size_t parameter_count() const { return model_->parameter_count(); }

  // Throws std::invalid_argument for an empty text, one longer than max_len, text that is
  // not UTF-8, a coreference sentence without "it", or knockout positions out of range.
  Analysis analyze(std::string_view text, const AnalysisOptions& options = {}) const;
  // analyze()'s answer as bare numbers, for callers that read a few words' probabilities over
  // many runs (the page's knock-outs): no prediction list; the trace is made and dropped, so
  // the numbers are analyze()'s to the bit. analyze()'s errors, and one for a model without a task.
  WordProbabilities probabilities(std::string_view text, const AnalysisOptions& options = {}) const;

  // Greedy completion for a next-word model: appends the most probable word until [SEP],
  // max_new_words words, or max_len. Returns the new words. Throws wrong-task for another
  // model, empty-input or too-long for the prompt (check_token_count).
  std::vector<std::string> generate(std::string_view prompt, int max_new_words) const;

  // generate() step by step, with a KV cache (each step computes only the newest row) or
  // without (each step re-runs the full forward pass), keeping what each step computed and
  // the work it did. Both give the same tokens; logits and attention agree to float rounding.
  // The same errors as generate(), plus max_new_words < 0.
  Generation generate_steps(std::string_view prompt, int max_new_words, bool use_cache) const;
  // generate() with a KV cache and nothing kept but the words (what the page times).
  std::vector<std::string> generate_cached(std::string_view prompt, int max_new_words) const;

 private:
  // The prompt of generate/generate_steps/generate_cached as ids; throws for the errors they list.
  Vocabulary::Encoded encode_prompt(std::string_view prompt) const;
  std::optional<Prediction> predict(const Analysis& analysis, int top_k) const;
  // analyze() without the prediction: the tokens and the traced forward pass.
  Analysis run_traced(std::string_view text, const AnalysisOptions& options) const;
  // The row the task reads (−1 for Task::None; throws for a coreference sentence without "it").
  int answer_position(const Analysis& analysis) const;
  Matrix answer_probabilities(const Analysis& analysis, int position) const;  // 1×V

  std::unique_ptr<Transformer> model_;
  Vocabulary vocab_;
  Task task_;
  std::string pronoun_ = "it";  // the word a coreference model resolves (config.json "pronoun")
  nlohmann::json config_json_;
};

}  // namespace ae
