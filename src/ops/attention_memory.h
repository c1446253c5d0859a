// What one attention call over n queries and m keys keeps in memory besides its inputs
// (Q: n×dk, K: m×dk, V: m×dv) — for the n² cost panel and the benchmarks, which show the
// bytes a call needs even where it is too large to run.
//   traced (ops/attention.h, attention_traced): the four n×m steps of the lesson (raw,
//     scaled, masked scores and weights) plus the n×dv output — grows as n·m.
//   fused (ops/attention_fused.h): attention_fused_scratch_bytes — constant in n, plus one
//     int per key when a mask is set.
#pragma once

#include <cstdint>

namespace ae {

// The largest trace attention_traced allocates: 1 GiB, half of what wasm32 can address with
// memory growth (2 GiB), so that a too-large n is an error naming the sizes instead of a
// std::bad_alloc after memory has grown. Reached at n = m = 8192 with dv = 64 (1.07 GB).
inline constexpr uint64_t kMaxTraceBytes = uint64_t{1} << 30;

// Bytes of the AttentionTrace that attention_traced returns (without dropout): 4·n·m + n·dv
// floats, exact in 64 bits (size_t would wrap at 2³² in wasm); UINT64_MAX when the true count
// does not fit (only near n = m = 2³¹). Throws std::invalid_argument for a negative size.
uint64_t attention_trace_bytes(int n, int m, int dv);

// Throws std::invalid_argument("attention: n = 30000 queries × m = 30000 keys need 14.41 GB
// (14407680000 bytes) for the trace; the limit is 1.07 GB (1073741824 bytes) …") when
// attention_trace_bytes(n, m, dv) > kMaxTraceBytes.
void check_trace_fits(int n, int m, int dv);

}  // namespace ae
