// Definitions for generation.h.
#include "generation.h"

#include "js_values.h"

namespace aejs {

namespace {

val work_to_js(const ae::StepWork& w) {
  val o = val::object();
  o.set("projections", static_cast<double>(w.projections));
  o.set("scores", static_cast<double>(w.scores));
  o.set("weightedSums", static_cast<double>(w.weighted_sums));
  o.set("ffn", static_cast<double>(w.ffn));
  o.set("output", static_cast<double>(w.output));
  o.set("total", static_cast<double>(w.total()));
  return o;
}

val matrices_to_js(const std::vector<std::vector<ae::Matrix>>& per_layer) {
  val layers = val::array();
  for (const auto& heads : per_layer) {
    val list = val::array();
    for (const auto& m : heads) list.call<void>("push", to_js(m));
    layers.call<void>("push", list);
  }
  return layers;
}

}  // namespace

val generation_to_js(const ae::Generation& g, const ae::ModelConfig& config) {
  val out = val::object();
  out.set("tokens", to_js(g.tokens));
  out.set("ids", val::array(g.ids));
  out.set("unknown", val::array(g.unknown));
  out.set("promptLength", g.prompt_length);
  out.set("cached", g.cached);
  out.set("nLayers", config.n_layers);
  out.set("nHeads", config.n_heads);
  out.set("headDim", config.head_dim());
  val steps = val::array();
  for (const ae::GenerationStep& s : g.steps) {
    val step = val::object();
    step.set("position", s.position);
    step.set("inputToken", s.input_token);
    step.set("token", s.token);
    step.set("id", s.id);
    step.set("probability", s.probability);
    val top = val::array();
    for (const ae::WordProbability& w : s.top) {
      val entry = val::object();
      entry.set("token", w.word);
      entry.set("probability", w.probability);
      top.call<void>("push", entry);
    }
    step.set("top", top);
    step.set("end", s.end);
    step.set("rowsReused", s.rows_reused);
    step.set("rowsNew", s.rows_new);
    step.set("cacheRows", s.cache_rows);
    step.set("work", work_to_js(s.work));
    val attention = val::array();
    for (const ae::Matrix& layer : s.attention) attention.call<void>("push", to_js(layer));
    step.set("attention", attention);
    step.set("logits",
             val::global("Float32Array").new_(emscripten::typed_memory_view(s.logits.size(), s.logits.data())));
    steps.call<void>("push", step);
  }
  out.set("steps", steps);
  out.set("keys", matrices_to_js(g.keys));
  out.set("values", matrices_to_js(g.values));
  return out;
}

}  // namespace aejs
