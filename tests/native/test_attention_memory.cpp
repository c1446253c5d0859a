// attention_trace_bytes against the sizes of the matrices attention_traced really returns,
// and its growth law (n² for self-attention; ×4 when n doubles, up to the n·dv term).
#include "ops/attention.h"
#include "ops/attention_memory.h"
#include "reference.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace {

size_t bytes_of(const ae::Matrix& m) { return static_cast<size_t>(m.size()) * sizeof(float); }

}  // namespace

TEST_CASE("attention_trace_bytes equals the bytes of the trace attention_traced returns") {
  ae::Rng rng(7);
  for (const int n : {1, 3, 16, 17, 64}) {
    for (const int m : {1, 5, 64}) {
      for (const int dv : {1, 8, 64}) {
        const int dk = 4;
        const ae::AttentionTrace t =
            ae::attention_traced(ref::random_matrix(n, dk, rng), ref::random_matrix(m, dk, rng),
                                 ref::random_matrix(m, dv, rng), ae::AttentionOptions{});
        const size_t actual = bytes_of(t.raw_scores) + bytes_of(t.scaled_scores) + bytes_of(t.masked_scores) +
                              bytes_of(t.weights) + bytes_of(t.output) + bytes_of(t.dropout_mask);
        CAPTURE(n);
        CAPTURE(m);
        CAPTURE(dv);
        CHECK(ae::attention_trace_bytes(n, m, dv) == actual);
      }
    }
  }
}

TEST_CASE("attention_trace_bytes grows as n² for self-attention") {
  // 4·n² + n·d floats: doubling n multiplies the n² part by 4 and the n·d part by 2.
  for (const int n : {128, 1024, 8192}) {
    const size_t a = ae::attention_trace_bytes(n, n, 64), b = ae::attention_trace_bytes(2 * n, 2 * n, 64);
    CHECK(b == 4 * a - 2 * static_cast<size_t>(n) * 64 * sizeof(float));
  }
  // n = 8192, d = 64: four 256 MiB matrices and a 2 MiB output.
  CHECK(ae::attention_trace_bytes(8192, 8192, 64) == 4 * (size_t{256} << 20) + (size_t{2} << 20));
  CHECK(ae::attention_trace_bytes(0, 10, 8) == 0);
  CHECK_THROWS_AS(ae::attention_trace_bytes(-1, 4, 4), std::invalid_argument);
}

TEST_CASE("attention_trace_bytes is exact in 64 bits and saturates instead of wrapping") {
  // The audit's case: 4,299,161,600 bytes, which wrapped to 4,194,304 in a 32-bit size_t.
  CHECK(ae::attention_trace_bytes(16384, 16384, 64) == uint64_t{4'299'161'600});
  CHECK(ae::attention_trace_bytes(1 << 29, 1 << 29, 0) == uint64_t{1} << 62);  // 16·2⁵⁸: still exact
  CHECK(ae::attention_trace_bytes(1 << 30, 1 << 30, 0) == UINT64_MAX);         // 16·2⁶⁰ = 2⁶⁴ does not fit
  constexpr int kLargest = std::numeric_limits<int>::max();
  CHECK(ae::attention_trace_bytes(kLargest, kLargest, kLargest) == UINT64_MAX);
}

TEST_CASE("attention_traced refuses a trace above kMaxTraceBytes before allocating it") {
  // 4·8192² floats are exactly 1 GiB: allowed; one more output column is not.
  CHECK_NOTHROW(ae::check_trace_fits(8192, 8192, 0));
  CHECK_THROWS_WITH_AS(ae::check_trace_fits(8192, 8192, 1),
                       "attention: n = 8192 queries × m = 8192 keys need 1.07 GB (1073774592 bytes) for the trace; "
                       "the limit is 1.07 GB (1073741824 bytes) (use fewer tokens, or the fused kernel)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::check_trace_fits(30000, 30000, 64),
                       doctest::Contains("need 14.41 GB (14407680000 bytes) for the trace"), std::invalid_argument);
  // Through attention_traced: the inputs are small (dk = 1), the trace would be 14.4 GB.
  ae::Rng rng(3);
  const ae::Matrix q = ref::random_matrix(30000, 1, rng);
  CHECK_THROWS_WITH_AS(ae::attention_traced(q, q, q, {}),
                       doctest::Contains("30000 keys need 14.40 GB (14400120000 bytes)"), std::invalid_argument);
}
