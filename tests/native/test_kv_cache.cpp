// Incremental decoding with a KV cache: stepping one token at a time through the cache gives
// what the full forward pass gives (outputs, attention rows, keys and values, logits, tokens),
// the cache holds exactly p + 1 rows after position p, the counted work equals the closed form
// of model/kv_cache.h, and the models and inputs a cache cannot serve are refused by name.
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "model/kv_cache.h"
#include "model/transformer.h"
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace ae;

namespace doctest {
template <>
struct StringMaker<StepWork> {
  static String convert(const StepWork& w) {
    return ("{projections " + std::to_string(w.projections) + ", scores " + std::to_string(w.scores) +
            ", weighted sums " + std::to_string(w.weighted_sums) + ", ffn " + std::to_string(w.ffn) + ", output " +
            std::to_string(w.output) + "}")
        .c_str();
  }
};
}  // namespace doctest

namespace {

// A step computes one row with a matrix–vector product where the full pass uses a matrix–matrix
// product, so the two differ by float rounding only (measured ≤ ~1e-6 through 2–3 layers).
constexpr float kRowTolerance = 1e-5f;
// Logits are ~10× larger than LayerNorm'd rows; the same rounding, relative to their size.
constexpr float kLogitTolerance = 1e-4f;

const std::string kModels = std::string(AE_SOURCE_DIR) + "/web/models/";
const std::string kLesson = "the animal didn't cross the street because it was too tired .";

ModelConfig causal_config(PositionalEncoding pe, NormPlacement norm) {
  ModelConfig c;
  c.vocab_size = 30, c.d_model = 16, c.n_heads = 4, c.n_layers = 2, c.max_len = 20;
  c.causal = true, c.positional = pe, c.norm = norm;
  return c;
}

std::vector<int> sample_ids(int n, int vocab) {
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) ids.push_back(5 + (7 * i + 3) % (vocab - 5));
  return ids;
}

float max_abs(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return a.size() == 0 ? 0.0f : (a - b).cwiseAbs().maxCoeff();
}

// step_work without the output head: forward_cached stops before the logits.
StepWork layers_work(const ModelConfig& c, int new_rows, int keys) {
  StepWork w = step_work(c, new_rows, keys);
  w.output = 0;
  return w;
}

// A TrainedModel over a random causal Transformer: words w0, w1, … after the special tokens.
TrainedModel random_decoder(const ModelConfig& c, uint64_t seed) {
  Checkpoint ck;
  ck.config = c;
  ck.model = std::make_unique<Transformer>(c);
  ck.model->init_random(seed);
  std::vector<std::string> words;
  for (int i = Vocabulary::kNumSpecial; i < c.vocab_size; ++i) words.push_back("w" + std::to_string(i));
  ck.vocab_text = Vocabulary::from_words(words).serialize();
  ck.config_json = config_to_json(c);
  ck.config_json["task"] = "next-word";
  return TrainedModel(std::move(ck));
}

// Cached and uncached generation of the same prompt agree step by step.
void check_generations_agree(const TrainedModel& model, const std::string& prompt, int max_new) {
  const Generation cached = model.generate_steps(prompt, max_new, true);
  const Generation full = model.generate_steps(prompt, max_new, false);
  const ModelConfig& c = model.config();
  REQUIRE(cached.steps.size() == full.steps.size());
  REQUIRE(!cached.steps.empty());
  CHECK(cached.tokens == full.tokens);
  for (size_t i = 0; i < cached.steps.size(); ++i) {
    const GenerationStep& a = cached.steps[i];
    const GenerationStep& b = full.steps[i];
    CAPTURE(i);
    const int p = cached.prompt_length - 1 + static_cast<int>(i);
    CHECK(a.position == p);
    CHECK(b.position == p);
    CHECK(a.input_token == cached.tokens[static_cast<size_t>(p)]);
    CHECK(a.id == b.id);
    CHECK(a.token == b.token);
    CHECK(a.end == b.end);
    CHECK(a.probability == doctest::Approx(b.probability).epsilon(1e-5));
    REQUIRE(a.logits.size() == b.logits.size());
    for (size_t v = 0; v < a.logits.size(); ++v)
      CHECK(std::abs(a.logits[v] - b.logits[v]) <= kLogitTolerance * std::max(1.0f, std::abs(b.logits[v])));
    for (int l = 0; l < c.n_layers; ++l) {
      const Matrix& wa = a.attention[static_cast<size_t>(l)];
      CHECK(wa.rows() == c.n_heads);
      CHECK(wa.cols() == p + 1);
      CHECK(max_abs(wa, b.attention[static_cast<size_t>(l)]) <= kRowTolerance);
      for (int h = 0; h < c.n_heads; ++h) CHECK(wa.row(h).sum() == doctest::Approx(1.0).epsilon(1e-5));
    }
    // Which rows are reused and which are new, and how many the cache holds afterwards.
    CHECK(a.rows_reused == (i == 0 ? 0 : p));
    CHECK(a.rows_new == (i == 0 ? cached.prompt_length : 1));
    CHECK(a.cache_rows == p + 1);
    CHECK(b.rows_reused == 0);
    CHECK(b.rows_new == p + 1);
    CHECK(b.cache_rows == 0);
    // Work: with the cache, r new rows against p + 1 keys; without, everything again.
    CHECK(a.work == step_work(c, a.rows_new, p + 1));
    CHECK(b.work == step_work(c, p + 1, p + 1));
  }
  // The cache at the end holds the keys and values the last full pass computed.
  REQUIRE(cached.keys.size() == static_cast<size_t>(c.n_layers));
  for (int l = 0; l < c.n_layers; ++l)
    for (int h = 0; h < c.n_heads; ++h) {
      const size_t li = static_cast<size_t>(l), hi = static_cast<size_t>(h);
      CHECK(cached.keys[li][hi].rows() == cached.steps.back().position + 1);
      CHECK(max_abs(cached.keys[li][hi], full.keys[li][hi]) <= kRowTolerance);
      CHECK(max_abs(cached.values[li][hi], full.values[li][hi]) <= kRowTolerance);
    }
  // The same words as generate() (full passes) and generate_cached().
  std::vector<std::string> words(cached.tokens.begin() + cached.prompt_length, cached.tokens.end());
  CHECK(words == model.generate(prompt, max_new));
  CHECK(words == model.generate_cached(prompt, max_new));
}

}  // namespace

TEST_CASE("KV cache: stepping one token at a time equals the full causal forward pass") {
  struct Variant {
    PositionalEncoding pe;
    NormPlacement norm;
  };
  for (const Variant v :
       {Variant{PositionalEncoding::Sinusoidal, NormPlacement::Pre},
        Variant{PositionalEncoding::Learned, NormPlacement::Pre}, Variant{PositionalEncoding::Rope, NormPlacement::Pre},
        Variant{PositionalEncoding::Rope, NormPlacement::Post},
        Variant{PositionalEncoding::None, NormPlacement::Post}}) {
    const ModelConfig c = causal_config(v.pe, v.norm);
    CAPTURE(to_string(v.pe));
    CAPTURE(to_string(v.norm));
    Transformer model(c);
    model.init_random(7);
    const std::vector<int> ids = sample_ids(c.max_len, c.vocab_size);
    ForwardTrace full;
    const Matrix expected = model.forward(ids, {}, &full);

    KvCache cache(c);
    CHECK(cache.rows() == 0);
    for (int p = 0; p < c.max_len; ++p) {
      CAPTURE(p);
      CachedTrace t;
      const Matrix row = model.forward_cached({ids[static_cast<size_t>(p)]}, cache, &t);
      CHECK(cache.rows() == p + 1);
      CHECK(t.first_position == p);
      CHECK(max_abs(row, expected.middleRows(p, 1)) <= kRowTolerance);
      CHECK(t.work == layers_work(c, 1, p + 1));
      for (int l = 0; l < c.n_layers; ++l)
        for (int h = 0; h < c.n_heads; ++h) {
          const Matrix& w = t.weights[static_cast<size_t>(l)][static_cast<size_t>(h)];
          REQUIRE(w.rows() == 1);
          REQUIRE(w.cols() == p + 1);
          const auto& head = full.layers[static_cast<size_t>(l)].self_attention.heads[static_cast<size_t>(h)];
          CHECK(max_abs(w, head.attention.weights.row(p).head(p + 1)) <= kRowTolerance);
          // Row p of the cache is written once and equals the full pass's key and value of p.
          CHECK(max_abs(cache.keys(l, h).bottomRows(1), head.k.row(p)) <= kRowTolerance);
          CHECK(max_abs(cache.values(l, h).bottomRows(1), head.v.row(p)) <= kRowTolerance);
        }
    }
    // Logits of the last row, through the output head, agree as well.
    KvCache again(c);
    const Matrix prefix = model.forward_cached(std::vector<int>(ids.begin(), ids.end() - 1), again, nullptr);
    CHECK(max_abs(prefix, expected.topRows(c.max_len - 1)) <= kRowTolerance);  // a block prefill
    const Matrix last = model.forward_cached({ids.back()}, again, nullptr);
    const Matrix a = model.logits(last), b = model.logits(expected.bottomRows(1));
    CHECK(max_abs(a, b) <= kLogitTolerance * std::max(1.0f, b.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("KV cache: the counted work is the closed form, and the cache saves a factor of about p + 1") {
  const ModelConfig c = causal_config(PositionalEncoding::Learned, NormPlacement::Pre);
  Transformer model(c);
  model.init_random(3);
  KvCache cache(c);
  CachedTrace t;
  model.forward_cached(sample_ids(5, c.vocab_size), cache, &t);  // r = 5 new rows, m = 5 keys
  const int64_t L = c.n_layers, d = c.d_model, f = c.ffn_dim();
  CHECK(t.work.projections == L * 4 * 5 * d * d);
  CHECK(t.work.scores == L * 5 * 5 * d);
  CHECK(t.work.weighted_sums == L * 5 * 5 * d);
  CHECK(t.work.ffn == L * 2 * 5 * d * f);
  CHECK(t.work.output == 0);             // forward_cached computes no logits
  model.forward_cached({9}, cache, &t);  // position 5: one row against 6 keys
  CHECK(t.work.projections == L * 4 * d * d);
  CHECK(t.work.scores == L * 6 * d);
  CHECK(t.work.total() == L * (4 * d * d + 2 * 6 * d + 2 * d * f));
  // Against recomputing all 6 rows: every term but the output head grows by ≥ 6×.
  const StepWork without = step_work(c, 6, 6), with = step_work(c, 1, 6);
  CHECK(without.projections == 6 * with.projections);
  CHECK(without.scores == 6 * with.scores);
  CHECK(without.ffn == 6 * with.ffn);
  CHECK(without.output == with.output);
  CHECK(with.output == d * c.vocab_size);
  StepWork sum = with;
  sum += without;
  CHECK(sum.total() == with.total() + without.total());
}

TEST_CASE("KV cache: the shipped decoder generates the same words, logits and attention with and without it") {
  const TrainedModel model(load_checkpoint(kModels + "coref-decoder"));
  check_generations_agree(model, kLesson, 6);
  check_generations_agree(model, "the trophy didn't fit in the suitcase because it was too big . it =", 3);
  // The lesson's completion: "it = animal", then [SEP] ends the generation.
  const Generation g = model.generate_steps(kLesson, 8, true);
  REQUIRE(g.steps.size() >= 3);
  CHECK(g.steps[0].token == "it");
  CHECK(g.steps[1].token == "=");
  CHECK(g.steps[2].token == "animal");
  const Generation wide = model.generate_steps("the animal didn't cross the street because it was too wide .", 8, true);
  REQUIRE(wide.steps.size() >= 3);
  CHECK(wide.steps[2].token == "street");
}

TEST_CASE("KV cache: random causal decoders (RoPE, post-LN, untied head) generate the same way") {
  ModelConfig c = causal_config(PositionalEncoding::Rope, NormPlacement::Post);
  c.tie_output = false;
  check_generations_agree(random_decoder(c, 11), "w5 w9 w12 w7", 10);
  c = causal_config(PositionalEncoding::Sinusoidal, NormPlacement::Pre);
  check_generations_agree(random_decoder(c, 5), "w20 w6", 12);
}

TEST_CASE("KV cache: generation stops at max_len, and a prompt of max_len tokens has no step") {
  const ModelConfig c = causal_config(PositionalEncoding::Learned, NormPlacement::Pre);
  const TrainedModel model = random_decoder(c, 2);
  std::string prompt;
  for (int i = 0; i < c.max_len - 2; ++i) prompt += "w" + std::to_string(5 + i % 20) + " ";
  const Generation g = model.generate_steps(prompt, 50, true);
  CHECK(g.steps.size() <= 2u);
  for (const auto& s : g.steps) CHECK(s.cache_rows <= c.max_len);
  std::string full = prompt + "w5 w6";
  CHECK(model.generate_steps(full, 5, true).steps.empty());
  CHECK(model.generate_steps("w5", 0, true).steps.empty());
}

TEST_CASE("KV cache: an encoder's earlier rows change when a token is appended, so the cache refuses it") {
  ModelConfig c = causal_config(PositionalEncoding::Sinusoidal, NormPlacement::Pre);
  c.causal = false;
  Transformer encoder(c);
  encoder.init_random(4);
  const std::vector<int> ids = sample_ids(6, c.vocab_size);
  ForwardTrace shorter, longer;
  encoder.forward(std::vector<int>(ids.begin(), ids.end() - 1), {}, &shorter);
  encoder.forward(ids, {}, &longer);
  // Layer 0's keys come from the embeddings alone; from layer 1 on, row 0 has seen the new token.
  const auto key0 = [](const ForwardTrace& t, int layer) {
    return Matrix(t.layers[static_cast<size_t>(layer)].self_attention.heads[0].k.row(0));
  };
  CHECK(max_abs(key0(shorter, 0), key0(longer, 0)) <= kRowTolerance);
  CHECK(max_abs(key0(shorter, 1), key0(longer, 1)) > 1e-3f);

  CHECK_THROWS_WITH_AS(KvCache{c}, doctest::Contains("not causal"), std::invalid_argument);
  c.causal = true;
  KvCache cache(c);
  CHECK_THROWS_WITH_AS(encoder.forward_cached(ids, cache, nullptr), doctest::Contains("not causal"),
                       std::invalid_argument);
  c.cross_attention = true;
  CHECK_THROWS_WITH_AS(KvCache{c}, doctest::Contains("cross-attention"), std::invalid_argument);
}

TEST_CASE("KV cache: bad input is refused with a message, and the cache is left as it was") {
  const ModelConfig c = causal_config(PositionalEncoding::Learned, NormPlacement::Pre);
  Transformer model(c);
  model.init_random(1);
  KvCache cache(c);
  model.forward_cached(sample_ids(c.max_len - 1, c.vocab_size), cache, nullptr);
  CHECK(cache.rows() == c.max_len - 1);
  CHECK_THROWS_WITH_AS(model.forward_cached({5, 6}, cache, nullptr), doctest::Contains("maximum length of 20"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(model.forward_cached({}, cache, nullptr), doctest::Contains("no new token"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(model.forward_cached({c.vocab_size}, cache, nullptr),
                       doctest::Contains("outside the vocabulary"), std::invalid_argument);
  CHECK(cache.rows() == c.max_len - 1);
  CHECK_THROWS_WITH_AS((void)cache.keys(c.n_layers, 0), doctest::Contains("no layer"), std::invalid_argument);
  ModelConfig other = c;
  other.n_heads = 2;
  KvCache wrong(other);
  CHECK_THROWS_WITH_AS(model.forward_cached({5}, wrong, nullptr), doctest::Contains("another model"),
                       std::invalid_argument);
  cache.clear();
  CHECK(cache.rows() == 0);

  const TrainedModel decoder = random_decoder(c, 9);
  std::string long_prompt;
  for (int i = 0; i < c.max_len + 1; ++i) long_prompt += "w6 ";
  for (bool use_cache : {true, false}) {
    CHECK_THROWS_WITH_AS(decoder.generate_steps(long_prompt, 3, use_cache),
                         doctest::Contains("the prompt has 21 tokens; this model reads at most 20"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(decoder.generate_steps("  ", 3, use_cache), doctest::Contains("empty"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(decoder.generate_steps("w6", -1, use_cache), doctest::Contains("≥ 0"), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(decoder.generate_cached(long_prompt, 3), doctest::Contains("reads at most 20"),
                       std::invalid_argument);
  const TrainedModel encoder(load_checkpoint(kModels + "coref-encoder"));
  CHECK_THROWS_WITH_AS(encoder.generate_steps(kLesson, 3, true), doctest::Contains("next-word"), std::invalid_argument);
}
