// Embind for models the user opens from disk (inference/gpt2_model.h): a byte buffer in wasm
// memory that JS fills chunk by chunk as it reads the weights file (so the file is never held
// whole in JS as well), and the GPT-2 model built from it.
#include "generation.h"
#include "js_values.h"
#include "packed.h"

#include "inference/gpt2_model.h"
#include "util/error.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

using emscripten::val;
using namespace aejs;

namespace {

// Bytes owned by C++; JS writes into them through view(offset, length), a Uint8Array over wasm
// memory taken for one chunk (memory growth detaches older views).
class ByteBuffer {
 public:
  explicit ByteBuffer(double size) {
    if (!(size >= 0) || size > 2147483647.0 || size != static_cast<double>(static_cast<size_t>(size)))
      argument_error("ByteBuffer: the size must be a whole number of bytes below 2 GiB");
    size_ = static_cast<size_t>(size);
    try {
      bytes_.reset(new char[size_ ? size_ : 1]);
    } catch (const std::bad_alloc&) {
      throw ae::ResourceError(ae::ErrorCode::OutOfMemory,
                              "out of memory: cannot hold a " + std::to_string(size_ >> 20) +
                                  " MiB file in wasm memory; close other tabs or open a smaller model");
    }
  }

  double size() const { return static_cast<double>(size_); }

  val view(double offset, double length) {
    if (!(offset >= 0) || !(length >= 0) || offset + length > static_cast<double>(size_))
      argument_error("ByteBuffer.view: [offset, offset + length) must lie within the " + std::to_string(size_) +
                     " bytes");
    return val(emscripten::typed_memory_view(
        static_cast<size_t>(length), reinterpret_cast<unsigned char*>(bytes_.get()) + static_cast<size_t>(offset)));
  }

  std::string_view bytes() const { return {bytes_.get(), size_}; }

 private:
  std::unique_ptr<char[]> bytes_;
  size_t size_ = 0;
};

// encode(text) → {ids, tokens}: ids and each token's text (token_text).
val encoded_to_js(const ae::BpeTokenizer& tokenizer, const val& text) {
  const std::vector<int> ids = tokenizer.encode(text_from_js(text, "text"));
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int id : ids) tokens.push_back(tokenizer.token_text(id));
  val out = val::object();
  out.set("ids", val::array(ids));
  out.set("tokens", to_js(tokens));
  return out;
}

// GPT-2's tokenizer alone, from vocab.json and merges.txt (checked against gpt-3-encoder).
class BpeTokenizer {
 public:
  BpeTokenizer(const val& vocab_json, const val& merges_txt)
      : tokenizer_(ae::BpeTokenizer::parse(text_from_js(vocab_json, "vocab"), text_from_js(merges_txt, "merges"))) {}
  int size() const { return tokenizer_.size(); }
  val encode(const val& text) const { return encoded_to_js(tokenizer_, text); }

 private:
  ae::BpeTokenizer tokenizer_;
};

class Gpt2Model {
 public:
  Gpt2Model(const val& config_json, const ByteBuffer& weights, const val& vocab_json, const val& merges_txt)
      : model_(text_from_js(config_json, "config"), weights.bytes(), text_from_js(vocab_json, "vocab"),
               text_from_js(merges_txt, "merges")) {}

  val config() const {
    val o = config_to_js(model_.config());
    o.set("task", std::string("next-word"));
    o.set("architecture", std::string("gpt2"));
    o.set("parameterCount", static_cast<double>(model_.parameter_count()));
    return o;
  }

  // analyzePacked(text, {causal, window, scale, scoreMultiplier, knockout, ablate, topK, layers}):
  // packed.h; layers (0-based) keeps the trace of those layers only, the rest run untraced.
  val analyze_packed(const val& text, const val& o) const {
    return packed_analysis_to_js(model_.analyze(text_from_js(text, "text"), analysis_options(o)));
  }

  val generate_steps(const val& prompt, int max_new_tokens, bool use_cache) const {
    return generation_to_js(model_.generate_steps(text_from_js(prompt, "prompt"), max_new_tokens, use_cache),
                            model_.config());
  }

  // probabilities(text, options) → {position, probabilities: Float32Array over the vocabulary,
  // best: the most probable token's text, bestId}: analyze()'s next token without the trace.
  val probabilities(const val& text, const val& o) const {
    const ae::WordProbabilities p = model_.probabilities(text_from_js(text, "text"), analysis_options(o));
    val out = probabilities_to_js(p, model_.tokenizer().token_text(p.best));
    out.set("bestId", p.best);
    return out;
  }

  // The id of the first token whose text (token_text, as analyze shows tokens) is `text`, or −1:
  // the index into probabilities() of a token read from a prediction. Ids that show alike (bytes
  // of a split character all show as U+FFFD) give the first of them.
  int word_id(const val& text) {
    if (ids_by_text_.empty())
      for (int id = model_.tokenizer().size() - 1; id >= 0; --id) ids_by_text_[model_.tokenizer().token_text(id)] = id;
    const auto found = ids_by_text_.find(text_from_js(text, "word"));
    return found == ids_by_text_.end() ? -1 : found->second;
  }

  // logits(text) → Float32Array n×V, row-major: every position's next-token logits.
  val logits(const val& text) const { return to_js(model_.logits(text_from_js(text, "text"))); }

  val encode(const val& text) const { return encoded_to_js(model_.tokenizer(), text); }

 private:
  ae::AnalysisOptions analysis_options(const val& o) const {
    ae::AnalysisOptions options;
    options.run = run_options_from_js(o);
    options.top_k = int_option(o, "topK", 5);
    if (o.isUndefined() || o.isNull()) return options;
    if (!o["knockout"].isUndefined()) {
      js_length(o["knockout"], "knockout");
      options.knockout = emscripten::convertJSArrayToNumberVector<int>(o["knockout"]);
    }
    if (!o["ablate"].isUndefined()) options.run.head_active = head_mask_from_js(o["ablate"], model_.config());
    if (!o["layers"].isUndefined()) options.run.traced_layers = traced_layers_from_js(o["layers"]);
    return options;
  }

  // layers: [l, …] → one flag per layer, 1 for each layer to trace (the others run untraced).
  std::vector<uint8_t> traced_layers_from_js(const val& layers) const {
    const int n_layers = model_.config().n_layers;
    std::vector<uint8_t> flags(static_cast<size_t>(n_layers), 0);
    const size_t count = js_length(layers, "layers");
    for (size_t i = 0; i < count; ++i) {
      const int l = whole_number(layers[i], "layers");
      if (l < 0 || l >= n_layers)
        argument_error("layers: " + std::to_string(l) + " is not a layer of this model (0.." +
                       std::to_string(n_layers - 1) + ")");
      flags[static_cast<size_t>(l)] = 1;
    }
    return flags;
  }

  ae::Gpt2Model model_;
  std::unordered_map<std::string, int> ids_by_text_;  // word_id's index, built on its first call
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_explorer_gpt2) {
  emscripten::class_<ByteBuffer>("ByteBuffer")
      .constructor<double>()
      .function("size", &ByteBuffer::size)
      .function("view", &ByteBuffer::view);
  emscripten::class_<Gpt2Model>("Gpt2Model")
      .constructor<const val&, const ByteBuffer&, const val&, const val&>()
      .function("config", &Gpt2Model::config)
      .function("analyzePacked", &Gpt2Model::analyze_packed)
      .function("generateSteps", &Gpt2Model::generate_steps)
      .function("probabilities", &Gpt2Model::probabilities)
      .function("wordId", &Gpt2Model::word_id)
      .function("logits", &Gpt2Model::logits)
      .function("encode", &Gpt2Model::encode);
  emscripten::class_<BpeTokenizer>("BpeTokenizer")
      .constructor<const val&, const val&>()
      .function("size", &BpeTokenizer::size)
      .function("encode", &BpeTokenizer::encode);
}
