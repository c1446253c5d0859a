#include "inference/gpt2_model.h"

#include "io/gpt2.h"
#include "ops/softmax.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error(const std::string& why) { throw std::invalid_argument(why); }

// Multiply-adds of one full forward pass over n tokens (kv_cache.h's closed form with r = m = n).
StepWork full_pass_work(const ModelConfig& c, int n) { return step_work(c, n, n); }

// The full trace keeps, per head, q, k, v and the attention output (n×dh each) and four n×n
// score and weight matrices, and per layer about 12 n×d stages and two n×f FFN ones. A big
// model over a long text would need gigabytes (GPT-2 124M at 1024 tokens: 2.4 GB), so analyze()
// refuses a trace above this budget with the length that fits.
constexpr int64_t kMaxTraceBytes = int64_t{512} << 20;

int64_t trace_bytes(const ModelConfig& c, int64_t n) {
  const int64_t per_head = 4 * n * c.head_dim() + 4 * n * n;
  const int64_t per_layer = c.n_heads * per_head + 12 * n * c.d_model + 2 * n * c.ffn_dim();
  return 4 * c.n_layers * per_layer;
}

}  // namespace

Gpt2Model::Gpt2Model(std::string_view config_json, std::string_view safetensors, std::string_view vocab_json,
                     std::string_view merges_txt) {
  const ModelConfig config = gpt2_config_from_json(config_json);
  tokenizer_ = BpeTokenizer::parse(vocab_json, merges_txt);
  if (tokenizer_.size() != config.vocab_size)
    input_error("vocab.json has " + std::to_string(tokenizer_.size()) + " tokens but config.json's vocab_size is " +
                std::to_string(config.vocab_size));
  model_ = load_gpt2_weights(config, safetensors);
  end_of_text_ = tokenizer_.id("<|endoftext|>");
}

std::vector<int> Gpt2Model::encode_checked(std::string_view text, const char* what) const {
  std::vector<int> ids = tokenizer_.encode(text);
  if (ids.empty()) input_error(std::string("the ") + what + " is empty; type a few words");
  if (static_cast<int>(ids.size()) > config().max_len)
    input_error(std::string("the ") + what + " has " + std::to_string(ids.size()) +
                " tokens; this model reads at most " + std::to_string(config().max_len));
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
  if (trace_bytes(config(), n) > kMaxTraceBytes) {
    int fits = n;
    while (fits > 1 && trace_bytes(config(), fits) > kMaxTraceBytes) --fits;
    input_error("the full trace of " + std::to_string(n) + " tokens would need " +
                std::to_string(trace_bytes(config(), n) >> 20) + " MiB; this model reads at most " +
                std::to_string(fits) + " tokens with every head traced");
  }
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
  model_->forward(a.ids, run, &a.trace);

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

Matrix Gpt2Model::logits(std::string_view text) const {
  return model_->logits(model_->forward(encode_checked(text, "text"), RunOptions{}, nullptr));
}

Generation Gpt2Model::generate_steps(std::string_view prompt, int max_new_tokens, bool use_cache) const {
  if (max_new_tokens < 0) input_error("the number of new tokens must be ≥ 0, got " + std::to_string(max_new_tokens));
  const ModelConfig& c = config();
  Generation g;
  g.ids = encode_checked(prompt, "prompt");
  g.tokens = texts(g.ids);
  g.prompt_length = static_cast<int>(g.ids.size());
  g.cached = use_cache;
  std::optional<KvCache> cache;
  if (use_cache) cache.emplace(c);
  ForwardTrace full;
  for (int i = 0; i < max_new_tokens && static_cast<int>(g.ids.size()) < c.max_len; ++i) {
    const int p = static_cast<int>(g.ids.size()) - 1;
    GenerationStep s;
    s.position = p;
    s.input_token = g.tokens[static_cast<size_t>(p)];
    s.attention.assign(static_cast<size_t>(c.n_layers), Matrix(c.n_heads, p + 1));
    Matrix hidden;
    if (cache) {
      const std::vector<int> fresh(g.ids.begin() + cache->rows(), g.ids.end());
      s.rows_reused = cache->rows();
      s.rows_new = static_cast<int>(fresh.size());
      CachedTrace t;
      hidden = model_->forward_cached(fresh, *cache, &t).bottomRows(1);
      s.cache_rows = cache->rows();
      s.work = t.work;
      for (int l = 0; l < c.n_layers; ++l)
        for (int h = 0; h < c.n_heads; ++h)
          s.attention[static_cast<size_t>(l)].row(h) =
              t.weights[static_cast<size_t>(l)][static_cast<size_t>(h)].bottomRows(1);
    } else {
      hidden = model_->forward(g.ids, RunOptions{}, &full).bottomRows(1);
      s.rows_new = p + 1;
      s.work = full_pass_work(c, p + 1);
      for (int l = 0; l < c.n_layers; ++l)
        for (int h = 0; h < c.n_heads; ++h)
          s.attention[static_cast<size_t>(l)].row(h) =
              full.layers[static_cast<size_t>(l)].self_attention.heads[static_cast<size_t>(h)].attention.weights.row(p);
    }
    const Matrix logits = model_->logits(hidden);  // 1×V
    s.work.output = static_cast<int64_t>(hidden.cols()) * logits.cols();
    s.logits.assign(logits.data(), logits.data() + logits.size());
    Matrix probabilities = logits;
    softmax_rows_inplace(probabilities);
    Eigen::Index best = 0;
    logits.row(0).maxCoeff(&best);
    s.id = static_cast<int>(best);
    s.token = tokenizer_.token_text(s.id);
    s.probability = probabilities(0, best);
    s.end = s.id == end_of_text_;
    g.steps.push_back(std::move(s));
    if (g.steps.back().end) break;
    g.ids.push_back(static_cast<int>(best));
    g.tokens.push_back(g.steps.back().token);
  }
  if (!g.steps.empty()) {
    g.keys.assign(static_cast<size_t>(c.n_layers), std::vector<Matrix>(static_cast<size_t>(c.n_heads)));
    g.values = g.keys;
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h) {
        const size_t li = static_cast<size_t>(l), hi = static_cast<size_t>(h);
        if (cache) {
          g.keys[li][hi] = cache->keys(l, h);
          g.values[li][hi] = cache->values(l, h);
        } else {
          g.keys[li][hi] = full.layers[li].self_attention.heads[hi].k;
          g.values[li][hi] = full.layers[li].self_attention.heads[hi].v;
        }
      }
  }
  return g;
}

}  // namespace ae
