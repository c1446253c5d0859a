#include "inference/gpt2_model.h"

#include "io/gpt2.h"
#include "ops/softmax.h"
#include "util/error.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error(const std::string& why) { throw std::invalid_argument(why); }

// The full trace keeps, per head, q, k, v and the attention output (n×dh each) and four n×n
// score and weight matrices, and per layer about 12 n×d stages and two n×f FFN ones. A big
// model over a long text would need gigabytes (GPT-2 124M at 1024 tokens: 2.4 GB), so analyze()
// refuses a trace above this budget with the length that fits. A layer left out of the trace
// (RunOptions::traced_layers) keeps only its n×d output.
constexpr int64_t kMaxTraceBytes = int64_t{512} << 20;

int64_t trace_bytes(const ModelConfig& c, int64_t n, int traced_layers) {
  const int64_t per_head = 4 * n * c.head_dim() + 4 * n * n;
  const int64_t per_layer = c.n_heads * per_head + 12 * n * c.d_model + 2 * n * c.ffn_dim();
  return 4 * (traced_layers * per_layer + (c.n_layers - traced_layers) * n * c.d_model);
}

int traced_layer_count(const ModelConfig& c, const RunOptions& run) {
  if (run.traced_layers.empty()) return c.n_layers;
  return static_cast<int>(
      std::count_if(run.traced_layers.begin(), run.traced_layers.end(), [](uint8_t on) { return on != 0; }));
}

}  // namespace

Gpt2Model::Gpt2Model(std::string_view config_json, std::string_view safetensors, std::string_view vocab_json,
                     std::string_view merges_txt) {
  recode_input_errors(ErrorCode::BadModel, [&] {  // every refusal here is about the files
    const ModelConfig config = gpt2_config_from_json(config_json);
    tokenizer_ = BpeTokenizer::parse(vocab_json, merges_txt);
    if (tokenizer_.size() != config.vocab_size)
      input_error("vocab.json has " + std::to_string(tokenizer_.size()) + " tokens but config.json's vocab_size is " +
                  std::to_string(config.vocab_size));
    model_ = load_gpt2_weights(config, safetensors);
    end_of_text_ = tokenizer_.id("<|endoftext|>");
  });
}

std::vector<int> Gpt2Model::encode_checked(std::string_view text, const char* what) const {
  std::vector<int> ids = tokenizer_.encode(text);
  check_token_count(static_cast<int>(ids.size()), config().max_len, what);
  return ids;
}

std::vector<std::string> Gpt2Model::texts(const std::vector<int>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (int id : ids) out.push_back(tokenizer_.token_text(id));
  return out;
}

Analysis Gpt2Model::analyze(std::string_view text, const AnalysisOptions& options) const {
  Analysis a;
  a.ids = encode_checked(text, "text");
  a.tokens = texts(a.ids);
  const int n = static_cast<int>(a.ids.size());
  const int traced = traced_layer_count(config(), options.run);
  if (trace_bytes(config(), n, traced) > kMaxTraceBytes) {
    int fits = n;
    while (fits > 1 && trace_bytes(config(), fits, traced) > kMaxTraceBytes) --fits;
    throw InputError(ErrorCode::TooLong,
                     "the trace of " + std::to_string(n) + " tokens in " + std::to_string(traced) +
                         " layers would need " + std::to_string(trace_bytes(config(), n, traced) >> 20) +
                         " MiB; this model reads at most " + std::to_string(fits) + " tokens with " +
                         std::to_string(traced) + " layers traced (trace fewer layers for a longer text)",
                     "text");
  }
  model_->forward(a.ids, run_options(options, n), &a.trace);

  Matrix probabilities = model_->logits(a.trace.output.bottomRows(1));
  softmax_rows_inplace(probabilities);
  std::vector<int> order(static_cast<size_t>(probabilities.cols()));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  const int k = std::clamp(options.top_k, 1, static_cast<int>(order.size()));
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int x, int y) { return probabilities(0, x) > probabilities(0, y); });
  Prediction p;
  p.position = n - 1;
  for (int i = 0; i < k; ++i) p.top.push_back({tokenizer_.token_text(order[i]), order[i], probabilities(0, order[i])});
  a.prediction = std::move(p);
  return a;
}

RunOptions Gpt2Model::run_options(const AnalysisOptions& options, int n) const {
  RunOptions run = options.run;
  if (!options.knockout.empty()) {
    run.key_padding.assign(static_cast<size_t>(n), 0);
    for (int p : options.knockout) {
      if (p < 0 || p >= n)
        input_error("knockout position " + std::to_string(p) + " is outside the text (0.." + std::to_string(n - 1) +
                    ")");
      run.key_padding[static_cast<size_t>(p)] = 1;
    }
  }
  return run;
}

WordProbabilities Gpt2Model::probabilities(std::string_view text, const AnalysisOptions& options) const {
  const std::vector<int> ids = encode_checked(text, "text");
  const int n = static_cast<int>(ids.size());
  RunOptions run = run_options(options, n);
  run.traced_layers.clear();
  Matrix p = model_->logits(model_->forward(ids, run, nullptr).bottomRows(1));
  softmax_rows_inplace(p);
  WordProbabilities out;
  out.position = n - 1;
  out.probabilities.assign(p.data(), p.data() + p.size());
  Eigen::Index best = 0;
  p.row(0).maxCoeff(&best);
  out.best = static_cast<int>(best);
  return out;
}

Matrix Gpt2Model::logits(std::string_view text) const {
  return model_->logits(model_->forward(encode_checked(text, "text"), RunOptions{}, nullptr));
}

Generation Gpt2Model::generate_steps(std::string_view prompt, int max_new_tokens, bool use_cache) const {
  if (max_new_tokens < 0) input_error("the number of new tokens must be ≥ 0, got " + std::to_string(max_new_tokens));
  Generation g;
  g.ids = encode_checked(prompt, "prompt");
  g.tokens = texts(g.ids);
  g.prompt_length = static_cast<int>(g.ids.size());
  decode_greedily(*model_, g, max_new_tokens, use_cache, end_of_text_,
                  [this](int id) { return tokenizer_.token_text(id); });
  return g;
}

}  // namespace ae
