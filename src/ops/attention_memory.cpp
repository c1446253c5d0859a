#include "ops/attention_memory.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace ae {

namespace {

// "14.41 GB (14407680000 bytes)": decimal units for the reader, the exact count for a size
// just above the limit (which rounds to the same figure).
std::string format_bytes(uint64_t bytes) {
  char text[64];
  const double b = static_cast<double>(bytes);
  if (bytes >= 1'000'000'000) std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  else std::snprintf(text, sizeof text, "%.2f MB", b / 1e6);
  return std::string(text) + " (" + std::to_string(bytes) + " bytes)";
}

}  // namespace

uint64_t attention_trace_bytes(int n, int m, int dv) {
  if (n < 0 || m < 0 || dv < 0)
    throw std::invalid_argument("attention_trace_bytes: sizes must not be negative (n = " + std::to_string(n) +
                                ", m = " + std::to_string(m) + ", dv = " + std::to_string(dv) + ")");
  // n, m, dv < 2³¹ keep each product below 2⁶², but 4·(4·n·m + n·dv) can still pass 2⁶⁴
  // (n = m = 2³¹ − 1): saturate there rather than wrap, so no size ever looks small.
  const uint64_t nm = static_cast<uint64_t>(n) * static_cast<uint64_t>(m);
  const uint64_t n_dv = static_cast<uint64_t>(n) * static_cast<uint64_t>(dv);
  // raw_scores, scaled_scores, masked_scores, weights (n×m each) and output (n×dv).
  uint64_t floats = 0, bytes = 0;
  if (__builtin_mul_overflow(nm, uint64_t{4}, &floats) || __builtin_add_overflow(floats, n_dv, &floats) ||
      __builtin_mul_overflow(floats, uint64_t{sizeof(float)}, &bytes))
    return UINT64_MAX;
  return bytes;
}

void check_trace_fits(int n, int m, int dv) {
  const uint64_t bytes = attention_trace_bytes(n, m, dv);
  if (bytes > kMaxTraceBytes)
    throw std::invalid_argument("attention: n = " + std::to_string(n) + " queries × m = " + std::to_string(m) +
                                " keys need " + format_bytes(bytes) + " for the trace; the limit is " +
                                format_bytes(kMaxTraceBytes) + " (use fewer tokens, or the fused kernel)");
}

}  // namespace ae
