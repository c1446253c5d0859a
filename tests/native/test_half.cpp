// float ↔ binary16: exhaustive over the 65536 half patterns, every rounding boundary between
// neighbouring halves, and a strided sweep of float bit patterns against a double-precision
// nearest-value search.
#include "io/half.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>

namespace {

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

bool is_nan_half(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

// The half nearest to f (ties to even), found by searching the ordered positive halves in
// double precision: an oracle that shares no code path with float_to_half's bit arithmetic.
uint16_t reference_float_to_half(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000u : 0u;
  const double x = std::fabs(static_cast<double>(f));
  if (x >= 65520.0) return sign | 0x7c00u;  // 65520 is the tie between 65504 and 2^16: even is inf
  // Largest h in [0, 0x7bff] with value(h) <= x.
  uint32_t lo = 0, hi = 0x7bffu;
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    if (static_cast<double>(ae::half_to_float(static_cast<uint16_t>(mid))) <= x) lo = mid;
    else hi = mid - 1;
  }
  if (lo == 0x7bffu) return sign | 0x7bffu;  // between 65504 and 65520
  const double below = ae::half_to_float(static_cast<uint16_t>(lo));
  const double above = ae::half_to_float(static_cast<uint16_t>(lo + 1));
  // Differences of a float and a half are exact in double (both have ≤ 24 significant bits
  // within a few dozen binades of each other).
  const double d_below = x - below, d_above = above - x;
  uint32_t nearest = lo;
  if (d_above < d_below || (d_above == d_below && (lo & 1u))) nearest = lo + 1;
  return static_cast<uint16_t>(sign | nearest);
}

}  // namespace

TEST_CASE("half: every one of the 65536 bit patterns survives half → float → half") {
  int mismatches = 0;
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    const float f = ae::half_to_float(bits);
    const uint16_t back = ae::float_to_half(f);
    if (back != bits) {
      if (++mismatches <= 5) FAIL_CHECK("half " << hex(h) << " → " << f << " → " << hex(back));
      continue;
    }
    // NaN classes agree with the float's, and the sign bit is the float's sign bit.
    CHECK(std::isnan(f) == is_nan_half(bits));
    CHECK(std::signbit(f) == ((bits & 0x8000u) != 0));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("half: known values") {
  struct Case {
    uint16_t bits;
    float value;
  };
  const Case cases[] = {
      {0x0000, 0.0f},
      {0x3c00, 1.0f},
      {0xc000, -2.0f},
      {0x3555, 0.333251953125f},  // nearest half to 1/3
      {0x3bff, 0.99951171875f},
      {0x7bff, 65504.0f},  // largest finite
      {0x0400, 0x1p-14f},
      {0x0001, 0x1p-24f},  // smallest normal, smallest subnormal
      {0x03ff, 1023 * 0x1p-24f},
      {0x8001, -0x1p-24f},  // largest subnormal, negative subnormal
      {0x3e00, 1.5f},
      {0x4248, 3.140625f},
  };
  for (const Case& c : cases) {
    CAPTURE(c.bits);
    CHECK(ae::half_to_float(c.bits) == c.value);
    CHECK(ae::float_to_half(c.value) == c.bits);
  }
  constexpr float kInf = std::numeric_limits<float>::infinity();
  CHECK(ae::half_to_float(0x7c00) == kInf);
  CHECK(ae::half_to_float(0xfc00) == -kInf);
  CHECK(std::isnan(ae::half_to_float(0x7e00)));
  CHECK(std::signbit(ae::half_to_float(0x8000)));
  CHECK(ae::half_to_float(0x8000) == 0.0f);

  CHECK(ae::float_to_half(1.0f / 3.0f) == 0x3555);
  CHECK(ae::float_to_half(kInf) == 0x7c00);
  CHECK(ae::float_to_half(-kInf) == 0xfc00);
  CHECK(ae::float_to_half(-0.0f) == 0x8000);
  CHECK(is_nan_half(ae::float_to_half(std::numeric_limits<float>::quiet_NaN())));
  // A NaN whose payload sits only in the 13 bits the narrowing drops must not become inf.
  CHECK(is_nan_half(ae::float_to_half(ae::float_from_bits(0x7f800001u))));
  CHECK(ae::float_to_half(ae::float_from_bits(0xff800001u)) == 0xfe00);

  // Overflow: 65520 is the midpoint between 65504 (odd mantissa) and 2^16, so it rounds to inf.
  CHECK(ae::float_to_half(65519.996f) == 0x7bff);
  CHECK(ae::float_to_half(65520.0f) == 0x7c00);
  CHECK(ae::float_to_half(1e6f) == 0x7c00);
  CHECK(ae::float_to_half(-1e6f) == 0xfc00);
  CHECK(ae::float_to_half(std::numeric_limits<float>::max()) == 0x7c00);

  // Ties to even among normals: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  CHECK(ae::float_to_half(1.0f + 0x1p-11f) == 0x3c00);
  CHECK(ae::float_to_half(1.0f + 3 * 0x1p-11f) == 0x3c02);
  CHECK(ae::float_to_half(std::nextafter(1.0f + 0x1p-11f, 2.0f)) == 0x3c01);

  // Underflow and subnormal ties: 2^-25 is halfway between 0 and 2^-24 → 0 (even).
  CHECK(ae::float_to_half(0x1p-25f) == 0x0000);
  CHECK(ae::float_to_half(-0x1p-25f) == 0x8000);
  CHECK(ae::float_to_half(std::nextafter(0x1p-25f, 1.0f)) == 0x0001);
  CHECK(ae::float_to_half(1.5f * 0x1p-24f) == 0x0002);
  CHECK(ae::float_to_half(2.5f * 0x1p-24f) == 0x0002);
  CHECK(ae::float_to_half(std::numeric_limits<float>::denorm_min()) == 0x0000);
  // The largest subnormal plus half a unit rounds up into the smallest normal.
  CHECK(ae::float_to_half(1023.5f * 0x1p-24f) == 0x0400);
}

TEST_CASE("half: each midpoint between neighbouring halves rounds to even and its neighbours to nearest") {
  int failures = 0;
  for (uint32_t h = 0; h < 0x7bffu; ++h) {
    const float lo = ae::half_to_float(static_cast<uint16_t>(h));
    const float hi = ae::half_to_float(static_cast<uint16_t>(h + 1));
    const float mid = (lo + hi) / 2;  // exact: one bit more than a half has
    const uint16_t even = static_cast<uint16_t>((h & 1u) ? h + 1 : h);
    for (float sign : {1.0f, -1.0f}) {
      const uint16_t s = sign < 0 ? 0x8000u : 0u;
      const bool ok = ae::float_to_half(sign * mid) == (s | even) &&
                      ae::float_to_half(sign * std::nextafter(mid, 0.0f)) == (s | h) &&
                      ae::float_to_half(sign * std::nextafter(mid, 1e9f)) == (s | (h + 1));
      if (!ok && ++failures <= 5) FAIL_CHECK("between halves " << hex(h) << " and " << hex(h + 1));
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("half: a sweep of float bit patterns agrees with the nearest-half search") {
  int failures = 0;
  // A prime stride visits every exponent and many mantissa patterns in ~4 million steps.
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 1021) {
    const float f = ae::float_from_bits(static_cast<uint32_t>(bits));
    const uint16_t got = ae::float_to_half(f);
    const bool ok = std::isnan(f) ? is_nan_half(got) : got == reference_float_to_half(f);
    if (!ok && ++failures <= 5)
      FAIL_CHECK("float " << hex(bits) << " (" << f << ") → " << hex(got) << ", expected "
                          << hex(reference_float_to_half(f)));
  }
  CHECK(failures == 0);
}
