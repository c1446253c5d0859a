// What one attention call over n queries and m keys keeps in memory besides its inputs
// (Q: n×dk, K: m×dk, V: m×dv) — for the n² cost panel and the benchmarks, which show the
// bytes a call needs even where it is too large to run.
//   traced (ops/attention.h, attention_traced): the four n×m steps of the lesson (raw,
//     scaled, masked scores and weights) plus the n×dv output — grows as n·m.
//   fused (ops/attention_fused.h): attention_fused_scratch_bytes — constant in n, plus one
//     int per key when a mask is set.
#pragma once

#include <cstddef>

namespace ae {

// Bytes of the AttentionTrace that attention_traced returns (without dropout): 4·n·m + n·dv
// floats. Throws std::invalid_argument for a negative size.
size_t attention_trace_bytes(int n, int m, int dv);

}  // namespace ae
