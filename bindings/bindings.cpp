// Embind layer: maps the core to JS and nothing more. Inputs arrive as typed arrays plus
// shapes; results leave as Float32Array *copies* (new Float32Array(view)), so nothing a
// caller holds ever points into wasm memory that may move when it grows.
//
// Errors: every failure is a C++ exception derived from std::exception, most carrying an
// ae::ErrorCode (util/error.h). Built with -fexceptions, such an exception reaches JS as a number
// (the exception's address); web/lib/guarded.mjs turns it into an EngineError through
// takeException(), which returns the core's code, message and field.
#include "generation.h"
#include "js_values.h"
#include "packed.h"

#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "ops/attention.h"
#include "text/tokenizer.h"
#include "util/error.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cxxabi.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using emscripten::val;
using namespace aejs;

namespace {

// {code, message, field} of an exception that reached JS (JS caught its address), then frees
// it. Every exception the core throws derives from std::exception first (util/error.h's
// CodedError puts its standard base first), so the address is that of a std::exception; the
// code comes from the core (ae::error_code), never from the message. 3.1.6 leaves the refcount
// at 0 after a throw, so an increment and a decrement run the destructor and free the memory.
// An exception rethrown with `throw;` would stay (its runtime waits for a next handler): the
// core does not rethrow on paths JS reaches (checkpoint.cpp), and tests/wasm/leaks.test.mjs
// watches the heap across failed loads.
val take_exception(uintptr_t address) {
  void* thrown = reinterpret_cast<void*>(address);
  const auto& e = *static_cast<const std::exception*>(thrown);
  const ae::ErrorCode code = ae::error_code(e);
  std::string message = e.what();
  // A bare std::bad_alloc or length_error says only its type ("std::bad_alloc", "vector").
  if (code == ae::ErrorCode::OutOfMemory && !dynamic_cast<const ae::ErrorInfo*>(&e))
    message = "out of memory (" + message + "): the input needs more memory than wasm can have";
  val out = val::object();
  out.set("code", std::string(ae::to_string(code)));
  out.set("message", message);
  out.set("field", ae::error_field(e));
  abi::__cxa_increment_exception_refcount(thrown);
  abi::__cxa_decrement_exception_refcount(thrown);
  return out;
}

bool simd_enabled() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

// --- exported functions -----------------------------------------------------------------

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

val tokenize(const val& text) { return to_js(ae::split_words(text_from_js(text, "text"))); }

// An untrained Transformer with seeded random weights. Words map to ids by hashing, since
// such a model has no vocabulary; ids 0..4 stay reserved for the special tokens.
class RandomModel {
 public:
  RandomModel(const val& config) : model_(config_from_js(config)), seed_(seed_option(config)) {
    model_.init_random(seed_);
  }

  val config() const {
    val o = config_to_js(model_.config());
    o.set("seed", static_cast<double>(seed_));
    return o;
  }
  double parameter_count() const { return static_cast<double>(model_.parameter_count()); }

  // run(text, {causal, window, scale, scoreMultiplier}) → {tokens, ids, n, trace} (packed.h)
  val run(const std::string& text, const val& o) const {
    const std::vector<std::string> words = ae::split_words(text);
    std::vector<int> ids;
    ids.reserve(words.size());
    for (const auto& w : words) ids.push_back(ae::hashed_token_id(w, model_.config().vocab_size, kFirstWordId));

    ae::ForwardTrace trace;
    model_.forward(ids, run_options_from_js(o), &trace);
    return packed_run_to_js(words, ids, trace);
  }

 private:
  static constexpr int kFirstWordId = 5;
  ae::Transformer model_;
  uint64_t seed_;
};

// A model trained by tools/train, loaded from the three files of its directory.
class TrainedModel {
 public:
  TrainedModel(const val& config_json, const val& weights, const val& vocab_text)
      : model_(ae::load_checkpoint_from_memory(text_from_js(config_json, "config"), bytes_from_js(weights, "weights"),
                                               text_from_js(vocab_text, "vocab"))) {}

  val config() const {
    val o = config_to_js(model_.config());
    o.set("task", ae::to_string(model_.task()));
    o.set("configJson", model_.config_json().dump());
    o.set("parameterCount", static_cast<double>(model_.parameter_count()));
    return o;
  }

  // analyze(text, {causal, window, scale, scoreMultiplier, knockout: [positions],
  //                ablate: [[layer, head], …], topK}) → {tokens, ids, n, trace, unknown, prediction}
  // (packed.h; JS's analyze and analyzePacked both read it).
  val analyze(const val& text, const val& o) const {
    return packed_analysis_to_js(model_.analyze(text_from_js(text, "text"), analysis_options_from_js(o)));
  }

  // probabilities(text, options) → {position, probabilities: Float32Array (vocabulary order),
  // best: the most probable word}: analyze()'s answer without the trace or a prediction list.
  val probabilities(const val& text, const val& o) const {
    const ae::WordProbabilities p = model_.probabilities(text_from_js(text, "text"), analysis_options_from_js(o));
    return probabilities_to_js(p, model_.vocabulary().token(p.best));
  }

  // The id of `word` in the vocabulary (the index into probabilities()), or -1 for a word it lacks.
  int word_id(const val& word) const {
    const std::string w = text_from_js(word, "word");
    return model_.vocabulary().contains(w) ? model_.vocabulary().id(w) : -1;
  }

  val generate(const val& prompt, int max_new_words) const {
    return to_js(model_.generate(text_from_js(prompt, "prompt"), max_new_words));
  }

  // The page's vocabulary help: the words it knows (no special tokens), the k known words
  // nearest to `word` ([{word, distance}], distance ≤ maxDistance; < 0: any), and how the
  // vocabulary reads a text ({tokens, unknown}, no [CLS]) even when analyze() refuses it.
  val vocabulary_words() const { return to_js(model_.vocabulary().words()); }
  val nearest_words(const val& word, int k, int max_distance) const {
    val out = val::array();
    for (const auto& n : model_.vocabulary().nearest(text_from_js(word, "word"), k, max_distance)) {
      val item = val::object();
      item.set("word", n.word);
      item.set("distance", n.distance);
      out.call<void>("push", item);
    }
    return out;
  }
  val encode_words(const val& text) const {
    const ae::Vocabulary::Encoded e = model_.vocabulary().encode(text_from_js(text, "text"));
    val out = val::object();
    out.set("tokens", to_js(e.tokens));
    out.set("unknown", val::array(e.unknown));
    return out;
  }

  // generateSteps(prompt, maxNew, useCache) → generation.h; generateCached(prompt, maxNew) → words.
  val generate_steps(const val& prompt, int max_new_words, bool use_cache) const {
    return generation_to_js(model_.generate_steps(text_from_js(prompt, "prompt"), max_new_words, use_cache),
                            model_.config());
  }
  val generate_cached(const val& prompt, int max_new_words) const {
    return to_js(model_.generate_cached(text_from_js(prompt, "prompt"), max_new_words));
  }

 private:
  ae::AnalysisOptions analysis_options_from_js(const val& o) const {
    ae::AnalysisOptions options;
    options.run = run_options_from_js(o);
    options.top_k = int_option(o, "topK", 5);
    if (!o.isUndefined() && !o.isNull() && !o["knockout"].isUndefined()) {
      js_length(o["knockout"], "knockout");
      options.knockout = emscripten::convertJSArrayToNumberVector<int>(o["knockout"]);
    }
    if (!o.isUndefined() && !o.isNull() && !o["ablate"].isUndefined())
      options.run.head_active = head_mask_from_js(o["ablate"], model_.config());
    return options;
  }

  // [[layer, head], …] → per-layer flags with 0 for each ablated head.

  ae::TrainedModel model_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_explorer) {
  emscripten::function("takeException", &take_exception);
  emscripten::function("simdEnabled", &simd_enabled);
  emscripten::function("attention", &attention);
  emscripten::function("tokenize", &tokenize);
  emscripten::class_<RandomModel>("RandomModel")
      .constructor<const val&>()
      .function("config", &RandomModel::config)
      .function("parameterCount", &RandomModel::parameter_count)
      .function("run", &RandomModel::run);
  emscripten::class_<TrainedModel>("TrainedModel")
      .constructor<const val&, const val&, const val&>()
      .function("config", &TrainedModel::config)
      .function("analyze", &TrainedModel::analyze)
      .function("probabilities", &TrainedModel::probabilities)
      .function("wordId", &TrainedModel::word_id)
      .function("generate", &TrainedModel::generate)
      .function("vocabularyWords", &TrainedModel::vocabulary_words)
      .function("nearestWords", &TrainedModel::nearest_words)
      .function("encodeWords", &TrainedModel::encode_words)
      .function("generateSteps", &TrainedModel::generate_steps)
      .function("generateCached", &TrainedModel::generate_cached);
}
