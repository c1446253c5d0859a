// Fused attention with online softmax; the algorithm is described in attention_fused.h.
//
// Layout of one query block (QB = kFusedQueryBlock queries, KB = key_block keys):
//   qt  dk × QB  the block's queries, transposed and multiplied by s (so Q·Kᵀ·s comes out
//                of one product); rows past n are 0
//   st  KB × QB  scores, then probabilities, key-major: column i belongs to query i, so the
//                per-query maximum and sum over keys are plain vertical vector ops
//   o   QB × dv  running Σ e^(score − μ)·v per query
// Scores: st[KB×QB] = K_block[KB×dk] · qt[dk×QB] — K's rows are used as they are (one
// broadcast per element), qt is the packed operand; a 4×8 register tile as in the GEMM.
// Weighted sum: o[QB×dv] = α·o + stᵀ · V_block[KB×dv] — V's rows are read as they are
// (two vectors per row for 8 channels), the probabilities broadcast from st.
// Every inner product, and the exp of the online softmax, is written with Arith::madd
// (ops/f32x4.h): the same source gives the mul + add and the fused multiply-add variants.
#include "ops/attention_fused.h"

#include "ops/f32x4.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace ae {
namespace {

using namespace simd;

constexpr int QB = kFusedQueryBlock;
static_assert(QB % 8 == 0, "the score tile is 8 queries wide");
constexpr float kMasked = -std::numeric_limits<float>::infinity();

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("attention: " + why); }

bool finite(const float* x, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

// The checks of ae::attention (ops/attention.cpp), with the same messages, on sizes alone.
void check_options(int n, int m, const AttentionOptions& o) {
  const auto& pad = o.mask.key_padding;
  if (!pad.empty() && pad.size() != static_cast<size_t>(m))
    fail("key_padding has " + std::to_string(pad.size()) + " flags for " + std::to_string(m) + " keys");
  if (o.mask.window < 0) fail("window must be ≥ 0 (0 = no window), got " + std::to_string(o.mask.window));
  if (o.mask.query_offset < 0) fail("query_offset must be ≥ 0");
  check_query_positions(o.mask, n);
  if (!std::isfinite(o.score_multiplier)) fail("score_multiplier must be finite");
  if (!(o.dropout >= 0.0f && o.dropout < 1.0f)) fail("dropout must lie in [0, 1)");
  // Dropout belongs to training, which needs the traced weights anyway; a fused call that
  // quietly skipped it would compute something else than ae::attention with the same options.
  if (o.dropout != 0.0f)
    fail("the fused kernel is for inference and has no dropout (got " + std::to_string(o.dropout) +
         "); use ae::attention_traced for training");
}

// Visible keys of the query at absolute position p, before key padding: [lo, hi].
struct KeyRange {
  int64_t lo, hi;
};

KeyRange visible_keys(const AttentionMask& mask, int64_t p_first, int64_t p_last, int m) {
  KeyRange r{0, m - 1};
  if (mask.causal) r.hi = std::min<int64_t>(r.hi, p_last);
  if (mask.window > 0) {
    r.lo = std::max<int64_t>(r.lo, p_first - mask.window + 1);
    r.hi = std::min<int64_t>(r.hi, p_last + mask.window - 1);
  }
  return r;
}

// ae::attention rejects a query with no visible key (its softmax would be 0/0). The same
// check without the n×m mask: each query sees an interval of keys, minus the padded ones,
// so a prefix count of unpadded keys answers it in O(1) per query.
void check_no_fully_masked_query(const AttentionMask& mask, int n, int m) {
  if (mask.empty()) return;
  std::vector<int> unpadded_before(static_cast<size_t>(m) + 1, 0);
  for (int j = 0; j < m; ++j)
    unpadded_before[static_cast<size_t>(j) + 1] =
        unpadded_before[static_cast<size_t>(j)] +
        (mask.key_padding.empty() || mask.key_padding[static_cast<size_t>(j)] == 0);
  for (int i = 0; i < n; ++i) {
    const int64_t p = static_cast<int64_t>(mask.query_offset) + i;
    const KeyRange r = visible_keys(mask, p, p, m);
    if (r.lo > r.hi || unpadded_before[static_cast<size_t>(r.hi) + 1] == unpadded_before[static_cast<size_t>(r.lo)])
      throw std::invalid_argument("attention: every key is masked for query " + std::to_string(i) +
                                  ", so its softmax is undefined; unmask at least one key per query");
  }
}

// st[KR×QB] (rows r·QB) = K rows [KR×dk] · qt[dk×QB], one 8-query column group at a time.
template <int KR, class Arith>
inline void score_tile(int dk, const float* k, size_t ldk, const float* qt, float* st) {
  for (int g = 0; g < QB; g += 8) {
    f32x4 lo[KR], hi[KR];
    const float* row[KR];
    for (int r = 0; r < KR; ++r) lo[r] = hi[r] = zero(), row[r] = k + r * ldk;
    const float* q = qt + g;
    for (int t = 0; t < dk; ++t, q += QB) {
      const f32x4 q_lo = load(q), q_hi = load(q + 4);
      for (int r = 0; r < KR; ++r) {
        const f32x4 x = load_splat(row[r] + t);
        lo[r] = Arith::madd(x, q_lo, lo[r]);
        hi[r] = Arith::madd(x, q_hi, hi[r]);
      }
    }
    for (int r = 0; r < KR; ++r) store(st + r * QB + g, lo[r]), store(st + r * QB + g + 4, hi[r]);
  }
}

template <class Arith>
void scores(int kb, int dk, const float* k, size_t ldk, const float* qt, float* st) {
  int j = 0;
  for (; j + 4 <= kb; j += 4) score_tile<4, Arith>(dk, k + j * ldk, ldk, qt, st + j * QB);
  switch (kb - j) {
    case 3: score_tile<3, Arith>(dk, k + j * ldk, ldk, qt, st + j * QB); break;
    case 2: score_tile<2, Arith>(dk, k + j * ldk, ldk, qt, st + j * QB); break;
    case 1: score_tile<1, Arith>(dk, k + j * ldk, ldk, qt, st + j * QB); break;
    default: break;
  }
}

// o[4 queries × 8 channels] = α·o + Σ_j st[j][query] · v[j][channels], for queries i..i+3.
template <class Arith>
inline void weighted_sum_tile(int kb, const float* st, const float* v, size_t ldv, float* o, size_t ldo,
                              const float* alpha) {
  f32x4 lo[4], hi[4];
  for (int r = 0; r < 4; ++r) {
    const f32x4 a = splat(alpha[r]);
    lo[r] = mul(load(o + r * ldo), a);
    hi[r] = mul(load(o + r * ldo + 4), a);
  }
  for (int j = 0; j < kb; ++j, v += ldv, st += QB) {
    const f32x4 v_lo = load(v), v_hi = load(v + 4);
    for (int r = 0; r < 4; ++r) {
      const f32x4 p = load_splat(st + r);
      lo[r] = Arith::madd(p, v_lo, lo[r]);
      hi[r] = Arith::madd(p, v_hi, hi[r]);
    }
  }
  for (int r = 0; r < 4; ++r) store(o + r * ldo, lo[r]), store(o + r * ldo + 4, hi[r]);
}

template <class Arith>
void weighted_sum(int kb, int dv, const float* st, const float* v, float* o, const float* alpha) {
  const int vector_channels = dv / 8 * 8;
  for (int i = 0; i < QB; i += 4)
    for (int c = 0; c < vector_channels; c += 8)
      weighted_sum_tile<Arith>(kb, st + i, v + c, static_cast<size_t>(dv), o + i * dv + c, static_cast<size_t>(dv),
                               alpha + i);
  for (int i = 0; i < QB; ++i)  // channels past the last multiple of 8 (dv = 64 has none)
    for (int c = vector_channels; c < dv; ++c) {
      float acc = o[i * dv + c] * alpha[i];
      for (int j = 0; j < kb; ++j) acc += st[j * QB + i] * v[static_cast<size_t>(j) * dv + c];
      o[i * dv + c] = acc;
    }
}

// Online-softmax step for one block of scores: updates μ and ℓ, turns st into e^(score − μ)
// and returns in alpha the factor e^(μ_old − μ_new) by which each query's o must shrink.
template <class Arith>
void online_softmax(int kb, float* st, float* mu, float* ell, float* alpha) {
  const f32x4 minus_inf = splat(kMasked);
  for (int g = 0; g < QB; g += 4) {
    f32x4 block_max = minus_inf;
    for (int j = 0; j < kb; ++j) block_max = max(block_max, load(st + j * QB + g));
    const f32x4 mu_old = load(mu + g);
    const f32x4 mu_new = max(mu_old, block_max);
    // A query whose scores so far are all masked keeps μ = −∞; subtracting 0 instead keeps
    // (−∞) − (−∞) = NaN out: its probabilities are e^(−∞) = 0 either way.
    const f32x4 shift = clear_where(equal(mu_new, minus_inf), mu_new);
    const f32x4 a = exp_nonpositive<Arith>(sub(mu_old, shift));
    f32x4 sum = zero();
    for (int j = 0; j < kb; ++j) {
      const f32x4 e = exp_nonpositive<Arith>(sub(load(st + j * QB + g), shift));
      store(st + j * QB + g, e);
      sum = add(sum, e);
    }
    store(ell + g, Arith::madd(load(ell + g), a, sum));
    store(mu + g, mu_new);
    store(alpha + g, a);
  }
}

// One query block's running state (see the layout at the top of this file).
struct QueryBlock {
  int i0 = 0, rows = 0;             // queries i0 … i0 + rows − 1
  int64_t p_first = 0, p_last = 0;  // their absolute positions
  KeyRange keys{0, -1};             // keys visible to at least one of them
  float* qt = nullptr;              // dk × QB
  float* o = nullptr;               // QB × dv
  alignas(16) float mu[QB], ell[QB];
};

// Keys [j0, j0 + kb) against one query block: scores, mask, online softmax, weighted sum.
template <class Arith>
void process_keys(QueryBlock& b, int64_t j0, int kb, const float* k, const float* v, int dk, int dv,
                  const AttentionMask& mask, float* st) {
  const int64_t j_last = j0 + kb - 1;
  scores<Arith>(kb, dk, k + j0 * dk, static_cast<size_t>(dk), b.qt, st);
  // Mask element by element only where the block is not entirely visible to every query.
  const bool all_visible = mask.key_padding.empty() && (!mask.causal || j_last <= b.p_first) &&
                           (mask.window <= 0 || (b.p_last - j0 < mask.window && j_last - b.p_first < mask.window));
  if (!all_visible)
    for (int j = 0; j < kb; ++j)
      for (int i = 0; i < b.rows; ++i)
        if (!mask.allows(b.p_first + i, j0 + j)) st[static_cast<size_t>(j) * QB + i] = kMasked;
  alignas(16) float alpha[QB];
  online_softmax<Arith>(kb, st, b.mu, b.ell, alpha);
  weighted_sum<Arith>(kb, dv, st, v + j0 * dv, b.o, alpha);
}

template <class Arith>
void fused_kernel(const float* q, const float* k, const float* v, int n, int m, int dk, int dv,
                  const AttentionOptions& options, float* out, int key_block) {
  const AttentionMask& mask = options.mask;
  const float s = attention_score_scale(dk, options);
  const int blocks_per_group = std::min(kFusedQueryGroup, (n + QB - 1) / QB);
  std::vector<float> qt(static_cast<size_t>(blocks_per_group) * dk * QB), st(static_cast<size_t>(key_block) * QB),
      o(static_cast<size_t>(blocks_per_group) * QB * dv);
  std::vector<QueryBlock> group(static_cast<size_t>(blocks_per_group));

  // Query blocks go in groups that share every K/V block: while one K/V block is in cache,
  // each block of the group takes its turn, so K and V pass through the cache once per group
  // rather than once per query block (which matters once they no longer fit in L2).
  for (int g0 = 0; g0 < n; g0 += QB * blocks_per_group) {
    const int count = std::min(blocks_per_group, (n - g0 + QB - 1) / QB);
    KeyRange all{INT64_MAX, -1};
    for (int b = 0; b < count; ++b) {
      QueryBlock& qb = group[static_cast<size_t>(b)];
      qb.i0 = g0 + b * QB;
      qb.rows = std::min(QB, n - qb.i0);
      qb.qt = qt.data() + static_cast<size_t>(b) * dk * QB;
      qb.o = o.data() + static_cast<size_t>(b) * QB * dv;
      for (int t = 0; t < dk; ++t)
        for (int i = 0; i < QB; ++i)
          qb.qt[static_cast<size_t>(t) * QB + i] = i < qb.rows ? s * q[static_cast<size_t>(qb.i0 + i) * dk + t] : 0.0f;
      std::fill(qb.o, qb.o + static_cast<size_t>(QB) * dv, 0.0f);
      std::fill(qb.mu, qb.mu + QB, kMasked);
      std::fill(qb.ell, qb.ell + QB, 0.0f);
      qb.p_first = static_cast<int64_t>(mask.query_offset) + qb.i0;
      qb.p_last = qb.p_first + qb.rows - 1;
      qb.keys = visible_keys(mask, qb.p_first, qb.p_last, m);
      all.lo = std::min(all.lo, qb.keys.lo), all.hi = std::max(all.hi, qb.keys.hi);
    }
    for (int64_t j0 = all.lo; j0 <= all.hi; j0 += key_block) {
      const int64_t j_last = std::min<int64_t>(j0 + key_block - 1, all.hi);
      for (int b = 0; b < count; ++b) {  // each block takes the part of [j0, j_last] it can see
        QueryBlock& qb = group[static_cast<size_t>(b)];
        const int64_t lo = std::max(j0, qb.keys.lo), hi = std::min(j_last, qb.keys.hi);
        if (lo <= hi) process_keys<Arith>(qb, lo, static_cast<int>(hi - lo + 1), k, v, dk, dv, mask, st.data());
      }
    }
    for (int b = 0; b < count; ++b) {
      const QueryBlock& qb = group[static_cast<size_t>(b)];
      for (int i = 0; i < qb.rows; ++i) {
        const float inv = 1.0f / qb.ell[i];  // ℓ ≥ 1: the maximum's own term is e⁰
        for (int c = 0; c < dv; ++c)
          out[static_cast<size_t>(qb.i0 + i) * dv + c] = qb.o[static_cast<size_t>(i) * dv + c] * inv;
      }
    }
  }
}

// Finite inputs give a finite output unless a score overflowed float (the online softmax then
// computes ∞ − ∞). Checking the n×dv output afterwards keeps the kernel's inner loops as they
// are; the row that failed is recomputed to name the key, as ae::attention does.
void check_output_finite(const float* q, const float* k, int n, int m, int dk, int dv, const AttentionOptions& options,
                         const float* out) {
  const float s = attention_score_scale(dk, options);
  for (int i = 0; i < n; ++i) {
    if (finite(out + static_cast<size_t>(i) * dv, static_cast<size_t>(dv))) continue;
    for (int j = 0; j < m; ++j) {
      float dot = 0.0f;
      for (int t = 0; t < dk; ++t) dot += q[static_cast<size_t>(i) * dk + t] * k[static_cast<size_t>(j) * dk + t];
      if (!std::isfinite(dot * s)) throw_score_overflow(i, j);
    }
    throw_score_overflow(i, 0);  // summed in another order, the overflow may hide: name the row
  }
}

// attention_fused on raw buffers with the multiply-add form Arith: checks, kernel, check.
template <class Arith>
void attention_fused_with(const float* q, const float* k, const float* v, int n, int m, int dk, int dv,
                          const AttentionOptions& options, float* out, int key_block) {
  if (n <= 0 || m <= 0)  // the same words as attention.cpp
    throw InputError(ErrorCode::EmptyInput, "attention: empty sequence (Q has " + std::to_string(n) + " rows, K has " +
                                                std::to_string(m) + ")");
  if (dk <= 0) fail("key width dk is " + std::to_string(dk));
  if (dv < 0) fail("value width dv is " + std::to_string(dv));
  if (key_block < 1) fail("key_block must be ≥ 1, got " + std::to_string(key_block));
  if (!q || !k || (!v && dv > 0) || (!out && dv > 0)) fail("a buffer is null");
  if (!finite(q, static_cast<size_t>(n) * dk) || !finite(k, static_cast<size_t>(m) * dk) ||
      !finite(v, static_cast<size_t>(m) * dv))
    fail("Q, K or V contains NaN or infinity");
  check_options(n, m, options);
  check_no_fully_masked_query(options.mask, n, m);
  fused_kernel<Arith>(q, k, v, n, m, dk, dv, options, out, key_block);
  check_output_finite(q, k, n, m, dk, dv, options, out);
}

// Fastest first (attention_fused runs the first), as gemm_kernels().
constexpr FusedAttentionKernel kKernels[] = {
#if AE_F32X4_FMA_FAST
    {"f32_attention_fused__" AE_F32X4_FMA_ISA, &attention_fused_with<Fma>},
#endif
    {"f32_attention_fused__" AE_F32X4_ISA, &attention_fused_with<MulAdd>},
#if AE_F32X4_HAS_FMA && !AE_F32X4_FMA_FAST
    {"f32_attention_fused__" AE_F32X4_FMA_ISA, &attention_fused_with<Fma>},
#endif
};

}  // namespace

size_t attention_fused_scratch_bytes(int m, int dk, int dv, bool masked, int key_block) {
  if (m < 1 || dk < 1 || dv < 1 || key_block < 1)
    throw std::invalid_argument("fused attention scratch: m, dk, dv and key_block must be ≥ 1, got " +
                                std::to_string(m) + ", " + std::to_string(dk) + ", " + std::to_string(dv) + ", " +
                                std::to_string(key_block));
  // Per query block of a group: Qᵀ and O; shared: one block of scores. An upper bound: for
  // n < kFusedQueryGroup·kFusedQueryBlock fewer query blocks are allocated. In 64 bits: wasm's
  // size_t would wrap for widths near INT_MAX.
  const uint64_t floats =
      uint64_t{QB} * (uint64_t{kFusedQueryGroup} * (uint64_t(dk) + uint64_t(dv)) + uint64_t(key_block));
  const uint64_t bytes = floats * sizeof(float) + (masked ? (uint64_t(m) + 1) * sizeof(int) : 0);
  if (bytes > std::numeric_limits<size_t>::max())
    throw std::invalid_argument("fused attention scratch: " + std::to_string(bytes) +
                                " bytes exceed the address space");
  return static_cast<size_t>(bytes);
}

std::span<const FusedAttentionKernel> attention_fused_kernels() { return kKernels; }

void attention_fused(const float* q, const float* k, const float* v, int n, int m, int dk, int dv,
                     const AttentionOptions& options, float* out, int key_block) {
  kKernels[0].fn(q, k, v, n, m, dk, dv, options, out, key_block);
}

Matrix attention_fused(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
  check_attention_shapes(q, k, v);  // ae::attention's checks, in its order and words
  Matrix out(q.rows(), v.cols());
  attention_fused(q.data(), k.data(), v.data(), static_cast<int>(q.rows()), static_cast<int>(k.rows()),
                  static_cast<int>(q.cols()), static_cast<int>(v.cols()), options, out.data());
  return out;
}

}  // namespace ae
