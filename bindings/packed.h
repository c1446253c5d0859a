// The one form in which a forward pass's trace crosses to JS (docs/trace-format.md): every
// matrix copied once into one Float32Array `data`, and a header (a JSON string) that names
// each matrix with its shape and offset, plus the format's name and version. JS finds a matrix
// by its name ("layer.2.head.1.weights"; web/lib/trace.mjs) and never by its position, so the
// order below may change without a reader noticing; a change of names or meaning is a new
// kTraceVersion. Building ~100 nested typed arrays instead cost more than the forward pass
// itself (docs/benchmarks.md).
//
// Names (n tokens, d = dModel, dh = headDim, f = dFF):
//   embeddings                                   n×d
//   layer.{l}.head.{h}.{q,k,v}                   n×dh
//   layer.{l}.head.{h}.{rawScores,scaledScores,maskedScores,weights}   n×n
//   layer.{l}.head.{h}.output                    n×dh
//   layer.{l}.concat, layer.{l}.attention        n×d (heads side by side; after W_O)
//   layer.{l}.output                             n×d
//   layer.{l}.stage.{norm1,residual1,norm2,ffn,residual2}   n×d; layer.{l}.stage.ffnHidden n×f
//   layer.{l}.stageNorm.{input,norm1,attention,residual1,norm2,ffnHidden,ffn,residual2,output}
//                                                n×1: each stage's row lengths (ae::row_norms)
//   output                                       n×d
// A layer left out of the trace (RunOptions::traced_layers) has only layer.{l}.output.
#pragma once

#include "inference/trained_model.h"
#include "model/transformer.h"

#include <emscripten/val.h>

#include <optional>
#include <string>
#include <vector>

namespace aejs {

inline constexpr const char* kTraceFormat = "attention-explorer-trace";
inline constexpr int kTraceVersion = 1;

// {position, token, probability, top: [{token, probability}]} or null.
emscripten::val prediction_to_js(const std::optional<ae::Prediction>& prediction);

// probabilities() of both model kinds: {position, probabilities: a Float32Array over the
// vocabulary (a copy), best: the most probable token as `best_text` shows it}.
emscripten::val probabilities_to_js(const ae::WordProbabilities& p, const std::string& best_text);

// RandomModel.run: {tokens, ids, n, trace: {header, data}}.
emscripten::val packed_run_to_js(const std::vector<std::string>& tokens, const std::vector<int>& ids,
                                 const ae::ForwardTrace& trace);

// analyze() of both model kinds: packed_run_to_js plus {unknown, prediction}.
emscripten::val packed_analysis_to_js(const ae::Analysis& analysis);

}  // namespace aejs
