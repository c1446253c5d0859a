// A lighter form of TrainedModel.analyze's result: the whole trace packed into one
// Float32Array plus an Int32Array of offsets, instead of ~100 typed arrays in nested objects
// (building those costs more than the forward pass itself; docs/benchmarks.md). JS gets views
// into that one array (web/lib/engine.mjs, unpackTrace), so the shape seen by callers is the
// same as analyze's.
//
// Layout of `data`, matrices row-major, in this order (n tokens, d = dModel, dh = headDim):
//   embeddings                                        n×d
//   for each layer:
//     for each head: q, k, v (n×dh), rawScores, scaledScores, maskedScores, weights (n×n),
//                    output (n×dh)                    8 matrices per head
//     concat, selfAttention output, layer output      n×d each
//   output                                            n×d
//   for each layer (the layer stages, ae::layer_stages; the others are views of the above):
//     norm1, residual1, norm2 (n×d), ffnHidden (n×d_ff), ffn, residual2 (n×d)
//     the 9 stage norms (input … output), n each
// A layer left out of the trace (traced[l] = 0) has only its layer output, and no stages.
// offsets[i] is where the i-th matrix starts; offsets[last] = data.length.
#pragma once

#include "inference/trained_model.h"

#include <emscripten/val.h>

#include <optional>
#include <string>

namespace aejs {

inline constexpr int kPackedPerHead = 8;   // q, k, v, rawScores, scaledScores, maskedScores, weights, output
inline constexpr int kPackedPerLayer = 3;  // concat, selfAttention output, layer output
inline constexpr int kPackedStagesPerLayer = 6 + ae::kLayerStageCount;  // new stages, then all norms

// {position, token, probability, top: [{token, probability}]} or null.
emscripten::val prediction_to_js(const std::optional<ae::Prediction>& prediction);

// probabilities() of both model kinds: {position, probabilities: a Float32Array over the
// vocabulary (a copy), best: the most probable token as `best_text` shows it}.
emscripten::val probabilities_to_js(const ae::WordProbabilities& p, const std::string& best_text);

// {tokens, ids, n, unknown, prediction, nLayers, nHeads, traced, dModel, headDim, data, offsets}.
emscripten::val packed_analysis_to_js(const ae::Analysis& analysis);

}  // namespace aejs
