// Dropout masks on AVX-512 (dropout_avx512.cpp): the same splitmix64 draws as Rng::next_u64(),
// eight 64-bit lanes at a time, for native x86-64 builds (which target the SSE2 baseline and so
// check the CPU at run time). A mask is integer work, so it is bit for bit the scalar one.
#pragma once

#include "util/rng.h"

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && !defined(__wasm__) && (defined(__GNUC__) || defined(__clang__))
#define AE_DROPOUT_HAS_AVX512 1
namespace ae {
// AVX-512 F and DQ (the 64-bit multiply), and the OS saves the registers.
bool dropout_avx512_supported();
// row[j] = 0 where rng's j-th next draw (its top 53 bits) is below threshold, else keep; j < cols.
// rng moves past the cols draws, as cols calls of next_u64() would move it.
void fill_dropout_row_avx512(float* row, size_t cols, Rng& rng, uint64_t threshold, float keep);
}  // namespace ae
#else
#define AE_DROPOUT_HAS_AVX512 0
#endif
