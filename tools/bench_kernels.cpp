// Native timings of the fast kernels, as JSON on stdout, for the native-vs-wasm table of
// `npm run bench` (tools/bench/run.mjs). The same sources as the wasm module; built plainly
// by CMake (x86-64 baseline: SSE2) and by the benchmark with -march=native.
//
//   bench_kernels [--quick]     GEMM variants at n = 64…512, attention (fused; traced up to
//                               n = 2048) at n = 128…8192, d = 64, causal and not
//   bench_kernels --clock       only the clock estimate
//
// Each figure is the median over interleaved rounds; each round times enough calls for
// ≥ 20 ms. The clock estimate times a chain of dependent 64-bit integer multiplies, each 3
// cycles on current x86 cores, and reports the fastest of several tries (the machine is
// shared, so slower tries mean lost time slices, not a slower clock).
#include "ops/attention.h"
#include "ops/attention_fused.h"
#include "ops/f32x4.h"
#include "ops/gemm.h"
#include "util/rng.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Seconds per call: calls repeated until ≥ min_seconds have passed.
double time_call(const std::function<void()>& call, double min_seconds = 0.02) {
  int reps = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  do {
    call();
    ++reps;
    elapsed = seconds_since(start);
  } while (elapsed < min_seconds);
  return elapsed / reps;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

double clock_ghz_estimate(uint64_t factor) {
  double best = 0.0;
  for (int attempt = 0; attempt < 7; ++attempt) {
    uint64_t x = factor | 1;
    const long chain = 60'000'000;
    const auto start = Clock::now();
    for (long i = 0; i < chain; ++i) {
      x *= factor;                     // factor is unknown at compile time: a real imul
      __asm__ volatile("" : "+r"(x));  // no reassociation into a vectorised product
    }
    const double s = seconds_since(start);
    if (x == 42) std::printf(" ");  // keeps the chain alive
    best = std::max(best, 3.0 * chain / s / 1e9);
  }
  return best;
}

std::vector<float> random_values(size_t count, uint64_t seed) {
  ae::Rng rng(seed);
  std::vector<float> v(count);
  for (float& x : v) x = static_cast<float>(rng.normal());
  return v;
}

bool march_native() {
#if defined(__AVX2__)
  return true;
#else
  return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool clock_only = argc > 1 && std::strcmp(argv[1], "--clock") == 0;
  const double ghz = clock_ghz_estimate(static_cast<uint64_t>(argc) * 2 + 0x9E3779B97F4A7C15ull);
  if (clock_only) {
    std::printf("{\"clock_ghz_estimate\": %.3f}\n", ghz);
    return 0;
  }
  const int rounds = quick ? 3 : 7;

  // --- GEMM: C = A·B, n×n×n, every variant, interleaved rounds ------------------------------
  const int gemm_sizes[] = {64, 128, 256, 512};
  const std::vector<float> a = random_values(512 * 512, 1), b = random_values(512 * 512, 2);
  std::vector<float> c(512 * 512), pack(ae::gemm_workspace_floats(512, 512, 512));
  const auto kernels = ae::gemm_kernels();
  std::vector<std::vector<double>> gemm_times(std::size(gemm_sizes) * kernels.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t s = 0; s < std::size(gemm_sizes); ++s)
      for (size_t k = 0; k < kernels.size(); ++k) {
        const int n = gemm_sizes[s];
        ae::GemmArgs g;
        g.m = g.n = g.k = n;
        g.a = a.data(), g.lda = n, g.b = b.data(), g.ldb = n, g.c = c.data(), g.ldc = n;
        g.workspace = pack.data(), g.workspace_floats = pack.size();
        gemm_times[s * kernels.size() + k].push_back(time_call([&] { kernels[k].fn(g); }));
      }

  // --- attention, d = 64: fused always, traced up to n = 2048 --------------------------------
  const int d = 64;
  const int attention_sizes[] = {128, 512, 1024, 2048, 8192};
  struct Point {
    int n;
    bool causal, fused;
    std::vector<double> times;
  };
  std::vector<Point> points;
  for (int n : attention_sizes)
    for (bool causal : {false, true})
      for (bool fused : {true, false})
        if (fused || n <= 2048) points.push_back({n, causal, fused, {}});
  const std::vector<float> qkv = random_values(static_cast<size_t>(3) * 8192 * d, 3);
  std::vector<float> out(static_cast<size_t>(8192) * d);
  for (int r = 0; r < rounds; ++r)
    for (Point& p : points) {
      if (p.n >= 8192 && r >= 2) continue;  // two rounds of the largest size are plenty
      ae::AttentionOptions o;
      o.mask.causal = p.causal;
      const size_t nd = static_cast<size_t>(p.n) * d;
      const float *q = qkv.data(), *k = q + nd, *v = k + nd;
      if (p.fused) {
        p.times.push_back(time_call([&] { ae::attention_fused(q, k, v, p.n, p.n, d, d, o, out.data()); }));
      } else {
        const ae::Matrix qm = Eigen::Map<const ae::Matrix>(q, p.n, d), km = Eigen::Map<const ae::Matrix>(k, p.n, d),
                         vm = Eigen::Map<const ae::Matrix>(v, p.n, d);
        p.times.push_back(time_call([&] { ae::attention_traced(qm, km, vm, o); }));
      }
    }

  std::printf("{\n  \"isa\": \"%s\",\n  \"march_native\": %s,\n  \"clock_ghz_estimate\": %.3f,\n  \"gemm\": [",
              AE_F32X4_ISA, march_native() ? "true" : "false", ghz);
  const char* sep = "";
  for (size_t s = 0; s < std::size(gemm_sizes); ++s)
    for (size_t k = 0; k < kernels.size(); ++k) {
      const int n = gemm_sizes[s];
      const double t = median(gemm_times[s * kernels.size() + k]);
      std::printf("%s\n    {\"variant\": \"%s\", \"n\": %d, \"ms\": %.5f, \"gflops\": %.2f}", sep, kernels[k].name, n,
                  t * 1e3, 2.0 * n * n * n / t / 1e9);
      sep = ",";
    }
  std::printf("\n  ],\n  \"attention\": [");
  sep = "";
  for (const Point& p : points) {
    const double t = median(p.times);
    const double flops = 4.0 * p.n * p.n * d / (p.causal ? 2.0 : 1.0);
    std::printf("%s\n    {\"kernel\": \"%s\", \"n\": %d, \"d\": %d, \"causal\": %s, \"ms\": %.4f, \"gflops\": %.2f}",
                sep, p.fused ? "fused" : "traced", p.n, d, p.causal ? "true" : "false", t * 1e3, flops / t / 1e9);
    sep = ",";
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
