#include "packed.h"

#include "js_values.h"
#include "model/layers.h"

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

val probabilities_to_js(const ae::WordProbabilities& p, const std::string& best_text) {
  val out = val::object();
  out.set("position", p.position);
  out.set(
      "probabilities",
      val::global("Float32Array").new_(emscripten::typed_memory_view(p.probabilities.size(), p.probabilities.data())));
  out.set("best", best_text);
  return out;
}

namespace {

// One matrix of the packed layout: copied as it is, or (norms) replaced by its row lengths.
struct Segment {
  const ae::Matrix* matrix;
  bool norms;
  size_t size() const { return static_cast<size_t>(norms ? matrix->rows() : matrix->size()); }
};

}  // namespace

val packed_analysis_to_js(const ae::Analysis& a) {
  const ae::ForwardTrace& t = a.trace;
  std::vector<Segment> order{{&t.embeddings, false}};
  int n_heads = 0, head_dim = 0;
  std::vector<int> traced;  // per layer, 0 for a layer left out of the trace (RunOptions::traced_layers)
  for (const auto& layer : t.layers) {
    traced.push_back(layer.self_attention.heads.empty() ? 0 : 1);
    for (const auto& h : layer.self_attention.heads) {
      n_heads = static_cast<int>(layer.self_attention.heads.size());
      head_dim = static_cast<int>(h.q.cols());
      for (const ae::Matrix* m : {&h.q, &h.k, &h.v, &h.attention.raw_scores, &h.attention.scaled_scores,
                                  &h.attention.masked_scores, &h.attention.weights, &h.attention.output})
        order.push_back({m, false});
    }
    if (traced.back()) {
      order.push_back({&layer.self_attention.concat, false});
      order.push_back({&layer.self_attention.output, false});
    }
    order.push_back({&layer.output, false});
  }
  order.push_back({&t.output, false});
  for (size_t l = 0; l < t.layers.size(); ++l) {
    if (!traced[l]) continue;
    const std::vector<ae::LayerStage> stages = ae::layer_stages(t.layers[l], t.layer_input(l));
    for (const ae::LayerStage& s : stages) {
      const std::string name = s.name;
      if (name != "input" && name != "attention" && name != "output") order.push_back({s.value, false});
    }
    for (const ae::LayerStage& s : stages) order.push_back({s.value, true});
  }

  std::vector<int> offsets;
  offsets.reserve(order.size() + 1);
  size_t total = 0;
  for (const Segment& s : order) offsets.push_back(static_cast<int>(total)), total += s.size();
  offsets.push_back(static_cast<int>(total));
  // Each matrix is copied once into data, each norm written there directly (ae::row_norms).
  std::vector<float> data(total);
  for (size_t i = 0; i < order.size(); ++i) {
    float* to = data.data() + offsets[i];
    const ae::Matrix& m = *order[i].matrix;
    if (order[i].norms) Eigen::Map<ae::Matrix>(to, m.rows(), 1) = ae::row_norms(m);  // analyze()'s norms, bit for bit
    else std::memcpy(to, m.data(), static_cast<size_t>(m.size()) * sizeof(float));
  }

  val out = val::object();
  out.set("tokens", to_js(a.tokens));
  out.set("ids", val::array(a.ids));
  out.set("n", static_cast<int>(a.tokens.size()));
  out.set("unknown", val::array(a.unknown));
  out.set("prediction", prediction_to_js(a.prediction));
  out.set("nLayers", static_cast<int>(t.layers.size()));
  out.set("nHeads", n_heads);
  out.set("traced", val::array(traced));
  out.set("dModel", static_cast<int>(t.embeddings.cols()));
  out.set("headDim", head_dim);
  // Copies: the JS arrays own their memory (see bindings.cpp).
  out.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(data.size(), data.data())));
  out.set("offsets", val::global("Int32Array").new_(emscripten::typed_memory_view(offsets.size(), offsets.data())));
  return out;
}

}  // namespace aejs
