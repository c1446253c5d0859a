// Embind for the trained encoder–decoder (inference/translation_model.h): built from the pair's
// seven files in memory, translate(text) → {source, unknown, tokens, text, steps, head}. In the
// full module only: greedy decoding lives with the trainer (train/trainer.h), and the page opens
// the translation panel after its first view, so it need not grow the page's module.
#include "js_values.h"

#include "inference/translation_model.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

using emscripten::val;
using namespace aejs;

namespace {

class TranslationModel {
 public:
  // files: {pair, encoderConfig, encoderWeights, encoderVocab, decoderConfig, decoderWeights, decoderVocab}
  explicit TranslationModel(const val& f)
      : model_(ae::TranslationModel::from_memory(
            text_from_js(f["pair"], "pair"), text_from_js(f["encoderConfig"], "encoderConfig"),
            bytes_from_js(f["encoderWeights"], "encoderWeights"), text_from_js(f["encoderVocab"], "encoderVocab"),
            text_from_js(f["decoderConfig"], "decoderConfig"), bytes_from_js(f["decoderWeights"], "decoderWeights"),
            text_from_js(f["decoderVocab"], "decoderVocab"))) {}

  val head() const {
    val h = val::object();
    h.set("layer", model_.head().layer);
    h.set("head", model_.head().head);
    return h;
  }

  val translate(const val& text) const {
    const ae::Translation t = model_.translate(text_from_js(text, "text"));
    val steps = val::array();
    for (const auto& s : t.steps) {
      const auto nested = [](const std::vector<std::vector<std::vector<float>>>& weights) {
        val layers = val::array();
        for (const auto& heads : weights) {
          val hs = val::array();
          for (const auto& w : heads) hs.call<void>("push", val::array(w));
          layers.call<void>("push", hs);
        }
        return layers;
      };
      val step = val::object();
      step.set("token", s.token);
      step.set("id", s.id);
      step.set("probability", s.probability);
      step.set("crossAttention", nested(s.cross_attention));
      step.set("selfAttention", nested(s.self_attention));
      steps.call<void>("push", step);
    }
    val out = val::object();
    out.set("source", to_js(t.source));
    out.set("unknown", val::array(t.unknown));
    out.set("tokens", to_js(t.tokens));
    out.set("text", t.text);
    out.set("steps", steps);
    out.set("head", head());
    return out;
  }

 private:
  ae::TranslationModel model_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(translation) {
  emscripten::class_<TranslationModel>("TranslationModel")
      .constructor<const val&>()
      .function("head", &TranslationModel::head)
      .function("translate", &TranslationModel::translate);
}
