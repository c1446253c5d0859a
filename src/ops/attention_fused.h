// Fused, tiled attention with an online softmax (FlashAttention): the same function as
// ae::attention (ops/attention.h — same options, masks, scale and errors), computed without
// ever holding the n×m score matrix.
//   Q: n×dk, K: m×dk, V: m×dv  →  output n×dv = softmax(mask(Q·Kᵀ · s)) · V
//
// Queries are taken in blocks of kFusedQueryBlock rows, keys in blocks of key_block rows.
// For one query block the kernel walks the key blocks and keeps, per query row, the running
// maximum μ of its scores, the running sum ℓ of e^(score − μ) and the running weighted sum O
// of V rows. A new block with maximum μ' ≥ μ rescales what was kept by e^(μ − μ') — which is
// exactly what the full softmax would have divided by had it seen all scores at once
// (Milakov & Gimelshein 2018; Dao et al. 2022, Algorithm 1). At the end O / ℓ is the output.
// Key blocks that the causal or sliding-window mask hides from the whole query block are
// skipped, so causal attention costs about half of full attention.
//
// Memory besides Q, K, V and the output: for each of the kFusedQueryGroup query blocks that
// are in flight, its queries (transposed) and ℓ, μ, O; and one block of scores — 68 KB at
// dk = dv = 64, whatever n and m are — plus one int per key for the mask check when a mask
// is set (attention_fused_scratch_bytes).
// Block sizes: a K block and a V block of 64 keys (16 KB each at d = 64) stay in L1 while
// the 8 query blocks of 16 queries of a group take turns on them, so K and V are read once
// per 128 queries: at n = 8192 they (4 MB) no longer fit in L2, and re-reading them for
// every 16 queries cost ~25 %.
#pragma once

#include <cstddef>
#include <span>

#include "ops/attention.h"
#include "tensor.h"

namespace ae {

inline constexpr int kFusedQueryBlock = 16;
inline constexpr int kFusedKeyBlock = 64;
inline constexpr int kFusedQueryGroup = 8;  // query blocks that share each K/V block in cache

// Same contract as ae::attention, including every std::invalid_argument. One difference: a
// score that overflows float is an error only where the mask lets it reach the softmax (the
// fused kernel never shows the masked scores; ae::attention's trace does).
Matrix attention_fused(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);

// On raw row-major buffers (rows packed: leading dimensions dk, dk, dv and dv), for callers
// that own their memory (the wasm bindings, benchmarks). `out` must hold n·dv floats.
// key_block (≥ 1) only changes the work split, not the result beyond rounding; tests vary it.
void attention_fused(const float* q, const float* k, const float* v, int n, int m, int dk, int dv,
                     const AttentionOptions& options, float* out, int key_block = kFusedKeyBlock);

// The variants of the raw attention_fused above, one per multiply-add form of this build
// (ops/f32x4.h), fastest first — attention_fused runs the first: "f32_attention_fused__wasmsimd"
// (mul + add) and, in the relaxed module, "f32_attention_fused__wasmrelaxedsimd" (fused); natively
// "…__sse" and "…__fma3" or "…__fmaemu". Each checks its arguments as attention_fused does.
using FusedAttentionFn = void (*)(const float* q, const float* k, const float* v, int n, int m, int dk, int dv,
                                  const AttentionOptions& options, float* out, int key_block);
struct FusedAttentionKernel {
  const char* name;
  FusedAttentionFn fn;
};
std::span<const FusedAttentionKernel> attention_fused_kernels();

// Bytes of scratch that attention_fused allocates for one call (for the memory report). Throws
// std::invalid_argument unless m, dk, dv and key_block are ≥ 1.
size_t attention_fused_scratch_bytes(int m, int dk, int dv, bool masked, int key_block = kFusedKeyBlock);

}  // namespace ae
