// Embind layer for the fast kernels (ops/gemm.h, ops/attention_fused.h), shaped for timing
// from JS: the operands live in wasm memory in a KernelWorkspace, JS writes them through
// Float32Array views once, and each call does the kernel's work and nothing else — no
// copies across the boundary, no result objects. Timing is done in JS (performance.now()).
//
// Buffers of a KernelWorkspace (each `capacity` floats), row-major:
//   gemm(variant, M, N, K, transposeB):  A = a (M×K), B = b (K×N, or N×K when transposeB),
//                                        C = c (M×N)
//   attentionFused / attentionTraced(n, d, causal, window):  Q = a (n×d), K = b[0, n·d),
//                                        V = b[n·d, 2·n·d), output → c (n×d); scale 1/√d
// Views: a(), b(), c() return Float32Arrays over wasm memory. They stay valid until the memory
// grows; gemm and attentionFused never make it grow, attentionTraced may (it allocates its
// n×n trace). web/lib/engine.mjs re-takes detached views for its callers.
//
// Also the memory figures the n² cost panel shows: tracedAttentionBytes(n, d), the bytes of the
// trace attention_traced keeps (ops/attention_memory.h), and fusedAttentionScratchBytes.
//
// Errors are std::invalid_argument, converted to Error by web/lib/engine.mjs (see bindings.cpp).
#include "js_values.h"
#include "ops/attention.h"
#include "ops/attention_fused.h"
#include "ops/attention_memory.h"
#include "ops/gemm.h"
#include "util/rng.h"
#include "util/wasm_malloc.h"

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using emscripten::val;

namespace {

val gemm_kernel_names() {
  val names = val::array();
  for (const ae::GemmKernel& k : ae::gemm_kernels()) names.call<void>("push", std::string(k.name));
  return names;
}

const ae::GemmKernel& kernel_named(const std::string& name) {
  if (const ae::GemmKernel* k = ae::find_gemm_kernel(name)) return *k;
  std::string known;
  for (const ae::GemmKernel& k : ae::gemm_kernels()) known += std::string(known.empty() ? "" : ", ") + k.name;
  throw std::invalid_argument("gemm: unknown variant \"" + name + "\"; this build has " + known);
}

// {heapBytes: size of wasm memory, brk: end of the malloc arena (sbrk(0)), allocatedBytes:
// bytes malloc has handed out and not taken back: this thread's cache of freed blocks is given back
// to emmalloc first (util/wasm_malloc.h)}. The growth of brk across one call, in a fresh module, is the
// memory that call needed beyond what was already allocated.
val memory_stats() {
  val o = val::object();
  o.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
  o.set("brk", static_cast<double>(reinterpret_cast<uintptr_t>(sbrk(0))));
#if AE_WASM_MALLOC_CACHE
  ae_malloc_release_cached();
#endif
  o.set("allocatedBytes", static_cast<double>(mallinfo().uordblks));
  return o;
}

class KernelWorkspace {
 public:
  explicit KernelWorkspace(int capacity) {
    if (capacity < 1)
      throw std::invalid_argument("KernelWorkspace: capacity must be ≥ 1 float, got " + std::to_string(capacity));
    const size_t n = static_cast<size_t>(capacity);
    a_.assign(n, 0.0f), b_.assign(n, 0.0f), c_.assign(n, 0.0f);
  }

  int capacity() const { return static_cast<int>(a_.size()); }
  val a() { return view(a_); }
  val b() { return view(b_); }
  val c() { return view(c_); }

  // Fills a, b and c with N(0, 1) values from a seeded generator (the same on every build).
  void fill_random(double seed) {
    ae::Rng rng(static_cast<uint64_t>(seed));
    for (auto* buffer : {&a_, &b_, &c_})
      for (float& x : *buffer) x = static_cast<float>(rng.normal());
  }

  // Reserves the packing buffer for gemm calls up to M×N×K, so that timed calls do not
  // allocate (otherwise the first call of a size does it).
  void reserve_gemm(int m, int n, int k) { pack_.resize(std::max(pack_.size(), ae::gemm_workspace_floats(m, n, k))); }

  void gemm(const val& variant, int m, int n, int k, bool transpose_b) {
    const ae::GemmKernel& kernel = kernel_named(aejs::text_from_js(variant, "variant"));
    need("gemm: A (M×K)", m, k, 1, a_);
    need("gemm: B", k, n, 1, b_);
    need("gemm: C (M×N)", m, n, 1, c_);
    ae::GemmArgs g;
    g.m = m, g.n = n, g.k = k;
    g.a = a_.data(), g.lda = k;
    g.b = b_.data(), g.ldb = transpose_b ? k : n, g.transpose_b = transpose_b;
    g.c = c_.data(), g.ldc = n;
    reserve_gemm(m, n, k);
    g.workspace = pack_.data(), g.workspace_floats = pack_.size();
    ae::validate_gemm_args(g);
    kernel.fn(g);
  }

  void attention_fused(int n, int d, bool causal, int window) {
    check_attention(n, d);
    ae::attention_fused(a_.data(), b_.data(), b_.data() + static_cast<size_t>(n) * d, n, n, d, d,
                        options(causal, window), c_.data());
  }

  // The page's path: every n×n intermediate is kept (AttentionTrace), then dropped here.
  void attention_traced(int n, int d, bool causal, int window) {
    check_attention(n, d);
    using ConstMap = Eigen::Map<const ae::Matrix>;
    const size_t nd = static_cast<size_t>(n) * d;
    const ae::AttentionTrace t = ae::attention_traced(ConstMap(a_.data(), n, d), ConstMap(b_.data(), n, d),
                                                      ConstMap(b_.data() + nd, n, d), options(causal, window));
    Eigen::Map<ae::Matrix>(c_.data(), n, d) = t.output;
  }

 private:
  static val view(std::vector<float>& v) { return val(emscripten::typed_memory_view(v.size(), v.data())); }

  static void need(const char* what, int rows, int cols, int copies, const std::vector<float>& buffer) {
    if (rows < 0 || cols < 0) throw std::invalid_argument(std::string(what) + ": sizes must not be negative");
    const double floats = static_cast<double>(rows) * cols * copies;
    if (floats > static_cast<double>(buffer.size()))
      throw std::invalid_argument(std::string(what) + " needs " + std::to_string(static_cast<long long>(floats)) +
                                  " floats; the workspace buffers hold " + std::to_string(buffer.size()));
  }

  void check_attention(int n, int d) const {
    if (n < 1 || d < 1)
      throw std::invalid_argument("attention: n and d must be ≥ 1, got n = " + std::to_string(n) +
                                  ", d = " + std::to_string(d));
    need("attention: Q (n×d, buffer a)", n, d, 1, a_);
    need("attention: K and V (2 × n×d, buffer b)", n, d, 2, b_);
    need("attention: output (n×d, buffer c)", n, d, 1, c_);
  }

  static ae::AttentionOptions options(bool causal, int window) {
    ae::AttentionOptions o;
    o.mask.causal = causal;
    o.mask.window = window;
    return o;
  }

  std::vector<float> a_, b_, c_, pack_;
};

}  // namespace

// ae::attention_trace_bytes returns size_t, 32 bits in wasm: from n ≈ 16,384 it wraps
// (tracedAttentionBytes(16384, 64) gave 4,194,304 instead of 4,299,161,600). So the count is
// taken here in double — exact below 2^53 — from the same formula (4·n·m + n·dv floats, see
// ops/attention_memory.h); negative sizes get the core's message.
double traced_attention_bytes(int n, int d) {
  if (n < 0 || d < 0) ae::attention_trace_bytes(n, n, d);  // throws its message for negative sizes
  const double nn = static_cast<double>(n) * n, nd = static_cast<double>(n) * d;
  return (4.0 * nn + nd) * static_cast<double>(sizeof(float));
}

// Heap scratch of one fused attention call over m keys (d = dk = dv), from the kernel's code.
double fused_attention_scratch_bytes(int m, int d, bool masked) {
  return static_cast<double>(ae::attention_fused_scratch_bytes(m, d, d, masked));
}

EMSCRIPTEN_BINDINGS(kernels) {
  emscripten::function("gemmKernelNames", &gemm_kernel_names);
  emscripten::function("fusedAttentionScratchBytes", &fused_attention_scratch_bytes);
  emscripten::function("memoryStats", &memory_stats);
  emscripten::function("tracedAttentionBytes", &traced_attention_bytes);
  emscripten::class_<KernelWorkspace>("KernelWorkspace")
      .constructor<int>()
      .function("capacity", &KernelWorkspace::capacity)
      .function("a", &KernelWorkspace::a)
      .function("b", &KernelWorkspace::b)
      .function("c", &KernelWorkspace::c)
      .function("fillRandom", &KernelWorkspace::fill_random)
      .function("reserveGemm", &KernelWorkspace::reserve_gemm)
      .function("gemm", &KernelWorkspace::gemm)
      .function("attentionFused", &KernelWorkspace::attention_fused)
      .function("attentionTraced", &KernelWorkspace::attention_traced);
}
