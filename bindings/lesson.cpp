// Embind layer for the lesson panels' own numbers (web/components/scaling.mjs, multi-head.mjs):
// the "why ÷√d" experiment on random vectors, the entropy of a weight row, and how multi-head
// attention splits d_model. Maps the core (lesson/scaling_demo.h, ops/softmax.h,
// model/head_split.h) to JS and nothing more; errors are std::invalid_argument, turned into
// Error by web/lib/engine.mjs.
#include "js_values.h"

#include "lesson/scaling_demo.h"
#include "model/head_split.h"
#include "ops/attention.h"
#include "ops/softmax.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

using emscripten::val;
using namespace aejs;

namespace {

// scalingDemo({d, keys, queries, seed, scale}) → {factor, scores, weights (queries×keys,
// Float32Array), entropy, maxWeight (one per query), scoreMean, scoreVariance, scoreStd,
// meanEntropy, meanMaxWeight, uniformEntropy, d, keys, queries}
val scaling_demo(const val& o) {
  ae::ScalingDemoOptions options;
  options.d = int_option(o, "d", options.d);
  options.n_keys = int_option(o, "keys", options.n_keys);
  options.n_queries = int_option(o, "queries", options.n_queries);
  options.seed = seed_option(o);
  options.scale = option<bool>(o, "scale", true);
  const ae::ScalingDemo demo = ae::scaling_demo(options);
  val out = val::object();
  out.set("d", options.d);
  out.set("keys", options.n_keys);
  out.set("queries", options.n_queries);
  out.set("factor", demo.factor);
  out.set("scores", to_js(demo.scores));
  out.set("weights", to_js(demo.weights));
  out.set("entropy", to_js(ae::Matrix(demo.entropy)));
  out.set("maxWeight", to_js(ae::Matrix(demo.max_weight)));
  out.set("scoreMean", demo.score_mean);
  out.set("scoreVariance", demo.score_variance);
  out.set("scoreStd", demo.score_std);
  out.set("meanEntropy", demo.mean_entropy);
  out.set("meanMaxWeight", demo.mean_max_weight);
  out.set("uniformEntropy", demo.uniform_entropy);
  return out;
}

// rowEntropy(weights) → entropy in nats of one row of attention weights (finite, ≥ 0, summing
// to 1 within 1e-3: ae::distribution_entropy).
double row_entropy(const val& weights) {
  const size_t length = js_length(weights, "weights");
  if (length == 0) argument_error("rowEntropy: weights must not be empty");
  return ae::distribution_entropy(matrix_from_js(weights, 1, static_cast<int>(length), "weights"));
}

// headSplit(dModel, headDim) → {dModel, headDim, divides, nHeads, perHead, allHeads, outputProjection, total}
val head_split(int d_model, int head_dim) {
  const ae::HeadSplit s = ae::split_heads(d_model, head_dim);
  val out = val::object();
  out.set("dModel", s.d_model);
  out.set("headDim", s.head_dim);
  out.set("divides", s.divides);
  out.set("nHeads", s.n_heads);
  out.set("perHead", static_cast<double>(s.per_head));  // < 2^53 by kHeadSplitMaxWidth
  out.set("allHeads", static_cast<double>(s.all_heads));
  out.set("outputProjection", static_cast<double>(s.output_projection));
  out.set("total", static_cast<double>(s.total));
  return out;
}

// attentionScoreScale(dk, {scale, scoreMultiplier}) → the factor attention applies to Q·Kᵀ.
double attention_score_scale(int dk, const val& o) {
  if (dk < 1) argument_error("attentionScoreScale: dk must be ≥ 1, got " + std::to_string(dk));
  return ae::attention_score_scale(dk, attention_options_from_js(o));
}

double attention_parameter_count(int d_model, int n_heads) {
  return static_cast<double>(ae::attention_parameter_count(d_model, n_heads));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_explorer_lesson) {
  emscripten::function("scalingDemo", &scaling_demo);
  emscripten::function("rowEntropy", &row_entropy);
  emscripten::function("headSplit", &head_split);
  emscripten::function("attentionParameterCount", &attention_parameter_count);
  emscripten::function("attentionScoreScale", &attention_score_scale);
}
