#include "packed.h"

#include "js_values.h"

#include <cstring>
#include <string>
#include <vector>

using emscripten::val;

namespace aejs {

val prediction_to_js(const std::optional<ae::Prediction>& prediction) {
  if (!prediction) return val::null();
  val top = val::array();
  for (const auto& w : prediction->top) {
    val entry = val::object();
    entry.set("token", w.word);
    entry.set("probability", w.probability);
    top.call<void>("push", entry);
  }
  val p = val::object();
  p.set("position", prediction->position);
  p.set("token", prediction->top.front().word);
  p.set("probability", prediction->top.front().probability);
  p.set("top", top);
  return p;
}

val packed_analysis_to_js(const ae::Analysis& a) {
  const ae::ForwardTrace& t = a.trace;
  std::vector<const ae::Matrix*> order{&t.embeddings};
  int n_heads = 0, head_dim = 0;
  for (const auto& layer : t.layers) {
    n_heads = static_cast<int>(layer.self_attention.heads.size());
    for (const auto& h : layer.self_attention.heads) {
      head_dim = static_cast<int>(h.q.cols());
      for (const ae::Matrix* m : {&h.q, &h.k, &h.v, &h.attention.raw_scores, &h.attention.scaled_scores,
                                  &h.attention.masked_scores, &h.attention.weights, &h.attention.output})
        order.push_back(m);
    }
    order.push_back(&layer.self_attention.concat);
    order.push_back(&layer.self_attention.output);
    order.push_back(&layer.output);
  }
  order.push_back(&t.output);
  std::vector<ae::Matrix> norms;  // kept alive until copied
  norms.reserve(t.layers.size() * ae::kLayerStageCount);
  for (const auto& layer : t.layers) {
    const std::vector<ae::LayerStage> stages = ae::layer_stages(layer);
    for (const ae::LayerStage& s : stages) {
      const std::string name = s.name;
      if (name != "input" && name != "attention" && name != "output") order.push_back(s.value);
    }
    for (const ae::LayerStage& s : stages) {
      norms.push_back(ae::row_norms(*s.value));  // reserved above: no reallocation moves them
      order.push_back(&norms.back());
    }
  }

  std::vector<int> offsets;
  offsets.reserve(order.size() + 1);
  size_t total = 0;
  for (const ae::Matrix* m : order) offsets.push_back(static_cast<int>(total)), total += static_cast<size_t>(m->size());
  offsets.push_back(static_cast<int>(total));
  std::vector<float> data(total);
  for (size_t i = 0; i < order.size(); ++i)
    std::memcpy(data.data() + offsets[i], order[i]->data(), static_cast<size_t>(order[i]->size()) * sizeof(float));

  val out = val::object();
  out.set("tokens", to_js(a.tokens));
  out.set("ids", val::array(a.ids));
  out.set("n", static_cast<int>(a.tokens.size()));
  out.set("unknown", val::array(a.unknown));
  out.set("prediction", prediction_to_js(a.prediction));
  out.set("nLayers", static_cast<int>(t.layers.size()));
  out.set("nHeads", n_heads);
  out.set("dModel", static_cast<int>(t.embeddings.cols()));
  out.set("headDim", head_dim);
  // Copies: the JS arrays own their memory (see bindings.cpp).
  out.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(data.size(), data.data())));
  out.set("offsets", val::global("Int32Array").new_(emscripten::typed_memory_view(offsets.size(), offsets.data())));
  return out;
}

}  // namespace aejs
