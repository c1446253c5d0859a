#include "packed.h"

#include "js_values.h"
#include "model/layers.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <iterator>
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

// One matrix of the trace: copied as it is, or (a stage norm) replaced by its row lengths.
struct Entry {
  std::string name;
  const ae::Matrix* matrix;
  bool norms = false;
  Eigen::Index rows() const { return matrix->rows(); }
  Eigen::Index cols() const { return norms ? 1 : matrix->cols(); }
};

const char* const kHeadMatrices[] = {"q", "k", "v", "rawScores", "scaledScores", "maskedScores", "weights", "output"};

// The trace's matrices with their names (packed.h).
std::vector<Entry> trace_entries(const ae::ForwardTrace& t) {
  std::vector<Entry> entries{{"embeddings", &t.embeddings}};
  for (size_t l = 0; l < t.layers.size(); ++l) {
    const ae::LayerTrace& layer = t.layers[l];
    const std::string prefix = "layer." + std::to_string(l) + ".";
    for (size_t h = 0; h < layer.self_attention.heads.size(); ++h) {
      const ae::HeadTrace& head = layer.self_attention.heads[h];
      const ae::Matrix* matrices[] = {&head.q,
                                      &head.k,
                                      &head.v,
                                      &head.attention.raw_scores,
                                      &head.attention.scaled_scores,
                                      &head.attention.masked_scores,
                                      &head.attention.weights,
                                      &head.attention.output};
      for (size_t i = 0; i < std::size(matrices); ++i)
        entries.push_back({prefix + "head." + std::to_string(h) + "." + kHeadMatrices[i], matrices[i]});
    }
    entries.push_back({prefix + "output", &layer.output});
    if (layer.self_attention.heads.empty()) continue;  // left out of the trace: its output only
    entries.push_back({prefix + "concat", &layer.self_attention.concat});
    entries.push_back({prefix + "attention", &layer.self_attention.output});
    const std::vector<ae::LayerStage> stages = ae::layer_stages(layer, t.layer_input(l));
    for (const ae::LayerStage& s : stages) {
      const std::string name = s.name;
      // input, attention and output are matrices named above (or the previous layer's output).
      if (name != "input" && name != "attention" && name != "output")
        entries.push_back({prefix + "stage." + name, s.value});
    }
    for (const ae::LayerStage& s : stages) entries.push_back({prefix + "stageNorm." + s.name, s.value, true});
  }
  entries.push_back({"output", &t.output});
  return entries;
}

// {header, data}: the header as JSON text, every matrix copied once into data.
val trace_to_packed(const ae::ForwardTrace& t) {
  const std::vector<Entry> entries = trace_entries(t);
  nlohmann::json matrices = nlohmann::json::array();
  size_t total = 0;
  for (const Entry& e : entries) {
    matrices.push_back({{"name", e.name}, {"rows", e.rows()}, {"cols", e.cols()}, {"offset", total}});
    total += static_cast<size_t>(e.rows() * e.cols());
  }
  const nlohmann::json header{{"format", kTraceFormat},
                              {"version", kTraceVersion},
                              {"nLayers", t.layers.size()},
                              {"matrices", std::move(matrices)}};
  std::vector<float> data(total);
  float* to = data.data();
  for (const Entry& e : entries) {
    const ae::Matrix& m = *e.matrix;
    if (e.norms) Eigen::Map<ae::Matrix>(to, m.rows(), 1) = ae::row_norms(m);  // analyze()'s norms, bit for bit
    else std::memcpy(to, m.data(), static_cast<size_t>(m.size()) * sizeof(float));
    to += e.rows() * e.cols();
  }
  val out = val::object();
  out.set("header", header.dump());
  // A copy: the JS array owns its memory (see bindings.cpp).
  out.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(data.size(), data.data())));
  return out;
}

}  // namespace

val packed_run_to_js(const std::vector<std::string>& tokens, const std::vector<int>& ids,
                     const ae::ForwardTrace& trace) {
  val out = val::object();
  out.set("tokens", to_js(tokens));
  out.set("ids", val::array(ids));
  out.set("n", static_cast<int>(tokens.size()));
  out.set("trace", trace_to_packed(trace));
  return out;
}

val packed_analysis_to_js(const ae::Analysis& a) {
  val out = packed_run_to_js(a.tokens, a.ids, a.trace);
  out.set("unknown", val::array(a.unknown));
  out.set("prediction", prediction_to_js(a.prediction));
  return out;
}

}  // namespace aejs
