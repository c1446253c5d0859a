// Embind layer: maps the core to JS and nothing more. Inputs arrive as typed arrays plus
// shapes; results leave as Float32Array *copies* (new Float32Array(view)), so nothing a
// caller holds ever points into wasm memory that may move when it grows.
//
// Errors: every failure is a C++ exception derived from std::exception. Built with
// -fexceptions, such an exception reaches JS as a number (the exception's address);
// web/lib/engine.mjs turns it into an Error through takeExceptionMessage().
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "ops/attention.h"
#include "text/tokenizer.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cxxabi.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using emscripten::val;

namespace {

[[noreturn]] void argument_error(const std::string& why) { throw std::invalid_argument(why); }

// Reads the message of a caught exception and frees it (3.1.6 leaves its refcount at 0).
std::string take_exception_message(uintptr_t address) {
  void* exception = reinterpret_cast<void*>(address);
  std::string message = static_cast<std::exception*>(exception)->what();
  abi::__cxa_increment_exception_refcount(exception);
  abi::__cxa_decrement_exception_refcount(exception);
  return message;
}

bool simd_enabled() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

// --- reading JS values ------------------------------------------------------------------

template <typename T>
T option(const val& options, const char* name, T fallback) {
  if (options.isUndefined() || options.isNull()) return fallback;
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  return v.as<T>();
}

int whole_number(const val& v, const std::string& name) {
  if (!v.isNumber()) argument_error(name + " must be a number");
  const double d = v.as<double>();
  // Range first: casting NaN or an out-of-range double to int is undefined behaviour.
  if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != std::trunc(d))
    argument_error(name + " must be a whole number, got " + std::to_string(d));
  return static_cast<int>(d);
}

int int_option(const val& options, const char* name, int fallback) {
  if (options.isUndefined() || options.isNull()) return fallback;
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  return whole_number(v, name);
}

// Seeds cross as JS numbers: whole, non-negative and exactly representable (< 2^53).
uint64_t seed_option(const val& options) {
  const double v = option<double>(options, "seed", 1.0);
  if (!(v >= 0.0 && v < 9007199254740992.0) || v != static_cast<double>(static_cast<uint64_t>(v)))
    argument_error("seed must be a whole number from 0 to 2^53 − 1, got " + std::to_string(v));
  return static_cast<uint64_t>(v);
}

std::string string_option(const val& options, const char* name, const std::string& fallback) {
  return option<std::string>(options, name, fallback);
}

size_t js_length(const val& array, const char* name) {
  if (array.isUndefined() || array.isNull() || array["length"].isUndefined())
    argument_error(std::string(name) + " must be an array of numbers");
  return array["length"].as<size_t>();
}

ae::Matrix matrix_from_js(const val& array, int rows, int cols, const char* name) {
  if (rows < 0 || cols < 0) argument_error(std::string(name) + ": shape must not be negative");
  const size_t length = js_length(array, name);
  if (length != static_cast<size_t>(rows) * static_cast<size_t>(cols))
    argument_error(std::string(name) + " has " + std::to_string(length) + " values but its shape " +
                   std::to_string(rows) + "×" + std::to_string(cols) + " needs " +
                   std::to_string(static_cast<size_t>(rows) * static_cast<size_t>(cols)));
  const std::vector<float> data = emscripten::convertJSArrayToNumberVector<float>(array);
  return Eigen::Map<const ae::Matrix>(data.data(), rows, cols);
}

std::vector<uint8_t> flags_from_js(const val& options, const char* name) {
  if (options.isUndefined() || options.isNull()) return {};
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return {};
  js_length(v, name);
  return emscripten::convertJSArrayToNumberVector<uint8_t>(v);
}

// --- writing JS values ------------------------------------------------------------------

val to_js(const ae::Matrix& m) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(static_cast<size_t>(m.size()), m.data()));
}

val to_js(const std::vector<std::string>& strings) {
  val array = val::array();
  for (const auto& s : strings) array.call<void>("push", s);
  return array;
}

val trace_to_js(const ae::AttentionTrace& t) {
  val out = val::object();
  out.set("rawScores", to_js(t.raw_scores));
  out.set("scaledScores", to_js(t.scaled_scores));
  out.set("maskedScores", to_js(t.masked_scores));
  out.set("weights", to_js(t.weights));
  out.set("output", to_js(t.output));
  return out;
}

val head_to_js(const ae::HeadTrace& h) {
  val out = trace_to_js(h.attention);
  out.set("q", to_js(h.q));
  out.set("k", to_js(h.k));
  out.set("v", to_js(h.v));
  return out;
}

val multi_head_to_js(const ae::MultiHeadTrace& t) {
  val heads = val::array();
  for (const auto& h : t.heads) heads.call<void>("push", head_to_js(h));
  val out = val::object();
  out.set("heads", heads);
  out.set("concat", to_js(t.concat));
  out.set("output", to_js(t.output));
  return out;
}

// --- exported functions -----------------------------------------------------------------

ae::AttentionOptions attention_options_from_js(const val& o) {
  ae::AttentionOptions options;
  options.mask.causal = option<bool>(o, "causal", false);
  options.mask.window = int_option(o, "window", 0);
  options.mask.query_offset = int_option(o, "queryOffset", 0);
  options.mask.key_padding = flags_from_js(o, "keyPadding");
  options.scale = option<bool>(o, "scale", true);
  options.score_multiplier = static_cast<float>(option<double>(o, "scoreMultiplier", 1.0));
  return options;
}

// attention({q, k, v, n, m, dk, dv, causal, window, queryOffset, keyPadding, scale, scoreMultiplier})
val attention(const val& args) {
  const int n = int_option(args, "n", -1), m = int_option(args, "m", -1);
  const int dk = int_option(args, "dk", -1), dv = int_option(args, "dv", dk);
  if (n < 0 || m < 0 || dk < 0 || dv < 0) argument_error("attention: give the shapes n, m, dk (and dv if ≠ dk)");
  const ae::Matrix q = matrix_from_js(args["q"], n, dk, "q");
  const ae::Matrix k = matrix_from_js(args["k"], m, dk, "k");
  const ae::Matrix v = matrix_from_js(args["v"], m, dv, "v");
  return trace_to_js(ae::attention_traced(q, k, v, attention_options_from_js(args)));
}

val tokenize(const std::string& text) { return to_js(ae::split_words(text)); }

ae::ModelConfig config_from_js(const val& o) {
  ae::ModelConfig c;
  c.vocab_size = int_option(o, "vocabSize", 512);
  c.d_model = int_option(o, "dModel", c.d_model);
  c.n_heads = int_option(o, "nHeads", c.n_heads);
  c.n_layers = int_option(o, "nLayers", c.n_layers);
  c.d_ff = int_option(o, "dFF", c.d_ff);
  c.max_len = int_option(o, "maxLen", c.max_len);
  c.positional = ae::positional_encoding_from_string(string_option(o, "positional", "sinusoidal"));
  c.norm = ae::norm_placement_from_string(string_option(o, "norm", "pre"));
  c.causal = option<bool>(o, "causal", false);
  return c;
}

val config_to_js(const ae::ModelConfig& c) {
  val o = val::object();
  o.set("vocabSize", c.vocab_size);
  o.set("dModel", c.d_model);
  o.set("nHeads", c.n_heads);
  o.set("nLayers", c.n_layers);
  o.set("dFF", c.ffn_dim());
  o.set("headDim", c.head_dim());
  o.set("maxLen", c.max_len);
  o.set("positional", ae::to_string(c.positional));
  o.set("norm", ae::to_string(c.norm));
  o.set("causal", c.causal);
  return o;
}

// {causal, window, scale, scoreMultiplier} → RunOptions; causal only when given.
ae::RunOptions run_options_from_js(const val& o) {
  ae::RunOptions options;
  if (!o.isUndefined() && !o.isNull() && !o["causal"].isUndefined()) options.causal = o["causal"].as<bool>();
  options.window = int_option(o, "window", 0);
  options.scale = option<bool>(o, "scale", true);
  options.score_multiplier = static_cast<float>(option<double>(o, "scoreMultiplier", 1.0));
  return options;
}

// The trace of a forward pass: {tokens, ids, n, embeddings, layers: [{selfAttention, output}], output}.
val forward_to_js(const std::vector<std::string>& tokens, const std::vector<int>& ids, const ae::ForwardTrace& trace) {
  val layers = val::array();
  for (const auto& layer : trace.layers) {
    val l = val::object();
    l.set("selfAttention", multi_head_to_js(layer.self_attention));
    l.set("output", to_js(layer.output));
    layers.call<void>("push", l);
  }
  val out = val::object();
  out.set("tokens", to_js(tokens));
  out.set("ids", val::array(ids));
  out.set("n", static_cast<int>(tokens.size()));
  out.set("embeddings", to_js(trace.embeddings));
  out.set("layers", layers);
  out.set("output", to_js(trace.output));
  return out;
}

std::string bytes_from_js(const val& array, const char* name) {
  if (array.isUndefined() || array.isNull() || !array.instanceof(val::global("Uint8Array")))
    argument_error(std::string(name) + " must be a Uint8Array");
  std::string bytes(array["length"].as<size_t>(), '\0');
  val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<uint8_t*>(bytes.data()))).call<void>("set", array);
  return bytes;
}

// An untrained Transformer with seeded random weights. Words map to ids by hashing, since
// such a model has no vocabulary; ids 0..4 stay reserved for the special tokens.
class RandomModel {
 public:
  RandomModel(const val& config)
      : model_(config_from_js(config)), seed_(seed_option(config)) {
    model_.init_random(seed_);
  }

  val config() const {
    val o = config_to_js(model_.config());
    o.set("seed", static_cast<double>(seed_));
    return o;
  }
  double parameter_count() const { return static_cast<double>(model_.parameter_count()); }

  // run(text, {causal, window, scale, scoreMultiplier}) → {tokens, ids, n, layers: [{self: {heads: [...]}}]}
  val run(const std::string& text, const val& o) const {
    const std::vector<std::string> words = ae::split_words(text);
    std::vector<int> ids;
    ids.reserve(words.size());
    for (const auto& w : words) ids.push_back(ae::hashed_token_id(w, model_.config().vocab_size, kFirstWordId));

    ae::ForwardTrace trace;
    model_.forward(ids, run_options_from_js(o), &trace);
    return forward_to_js(words, ids, trace);
  }

 private:
  static constexpr int kFirstWordId = 5;
  ae::Transformer model_;
  uint64_t seed_;
};

// A model trained by tools/train, loaded from the three files of its directory.
class TrainedModel {
 public:
  TrainedModel(const std::string& config_json, const val& weights, const std::string& vocab_text)
      : model_(ae::load_checkpoint_from_memory(config_json, bytes_from_js(weights, "weights"), vocab_text)) {}

  val config() const {
    val o = config_to_js(model_.config());
    o.set("task", ae::to_string(model_.task()));
    o.set("configJson", model_.config_json().dump());
    o.set("parameterCount", static_cast<double>(model_.parameter_count()));
    return o;
  }

  // analyze(text, {causal, window, scale, scoreMultiplier, knockout: [positions],
  //                ablate: [[layer, head], …], topK}) → forward_to_js(…) + {unknown, prediction}
  val analyze(const std::string& text, const val& o) const {
    ae::AnalysisOptions options;
    options.run = run_options_from_js(o);
    options.top_k = int_option(o, "topK", 5);
    if (!o.isUndefined() && !o.isNull() && !o["knockout"].isUndefined()) {
      js_length(o["knockout"], "knockout");
      options.knockout = emscripten::convertJSArrayToNumberVector<int>(o["knockout"]);
    }
    if (!o.isUndefined() && !o.isNull() && !o["ablate"].isUndefined()) options.run.head_active = head_mask_from_js(o["ablate"]);
    const ae::Analysis a = model_.analyze(text, options);
    val out = forward_to_js(a.tokens, a.ids, a.trace);
    out.set("unknown", val::array(a.unknown));
    if (a.prediction) {
      val top = val::array();
      for (const auto& w : a.prediction->top) {
        val entry = val::object();
        entry.set("token", w.word);
        entry.set("probability", w.probability);
        top.call<void>("push", entry);
      }
      val p = val::object();
      p.set("position", a.prediction->position);
      p.set("token", a.prediction->top.front().word);
      p.set("probability", a.prediction->top.front().probability);
      p.set("top", top);
      out.set("prediction", p);
    } else {
      out.set("prediction", val::null());
    }
    return out;
  }

  val generate(const std::string& prompt, int max_new_words) const { return to_js(model_.generate(prompt, max_new_words)); }

 private:
  // [[layer, head], …] → per-layer flags with 0 for each ablated head.
  std::vector<std::vector<uint8_t>> head_mask_from_js(const val& pairs) const {
    const auto& c = model_.config();
    std::vector<std::vector<uint8_t>> mask(static_cast<size_t>(c.n_layers), std::vector<uint8_t>(static_cast<size_t>(c.n_heads), 1));
    const size_t count = js_length(pairs, "ablate");
    for (size_t i = 0; i < count; ++i) {
      const val pair = pairs[i];
      const int layer = whole_number(pair[0], "ablate layer");
      const int head = whole_number(pair[1], "ablate head");
      if (layer < 0 || layer >= c.n_layers || head < 0 || head >= c.n_heads)
        argument_error("ablate: [" + std::to_string(layer) + ", " + std::to_string(head) + "] is not a head of this model (" +
                       std::to_string(c.n_layers) + " layers × " + std::to_string(c.n_heads) + " heads)");
      mask[static_cast<size_t>(layer)][static_cast<size_t>(head)] = 0;
    }
    return mask;
  }

  ae::TrainedModel model_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_explorer) {
  emscripten::function("takeExceptionMessage", &take_exception_message);
  emscripten::function("simdEnabled", &simd_enabled);
  emscripten::function("attention", &attention);
  emscripten::function("tokenize", &tokenize);
  emscripten::class_<RandomModel>("RandomModel")
      .constructor<const val&>()
      .function("config", &RandomModel::config)
      .function("parameterCount", &RandomModel::parameter_count)
      .function("run", &RandomModel::run);
  emscripten::class_<TrainedModel>("TrainedModel")
      .constructor<const std::string&, const val&, const std::string&>()
      .function("config", &TrainedModel::config)
      .function("analyze", &TrainedModel::analyze)
      .function("generate", &TrainedModel::generate);
}
