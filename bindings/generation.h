// Step-by-step generation with and without a KV cache (TrainedModel.generateSteps), as JS
// values. The method itself sits on the TrainedModel class in bindings.cpp; this file only
// converts ae::Generation (inference/trained_model.h, model/kv_cache.h).
#pragma once

#include "inference/trained_model.h"

#include <emscripten/val.h>

namespace aejs {

// {tokens, ids, unknown, promptLength, cached, nLayers, nHeads, headDim,
//  steps: [{position, inputToken, token, id, probability, end, rowsReused, rowsNew, cacheRows,
//           work: {projections, scores, weightedSums, ffn, output, total},
//           attention: [per layer: Float32Array nHeads×(position+1)], logits: Float32Array}],
//  keys, values: [per layer: [per head: Float32Array rows×headDim]]}
// Multiply-add counts cross as JS numbers (exact below 2^53).
emscripten::val generation_to_js(const ae::Generation& g, const ae::ModelConfig& config);

}  // namespace aejs
