#include "io/half.h"

namespace ae {

namespace {

constexpr uint32_t kFloatAbsMask = 0x7fffffffu;
constexpr uint32_t kFloatInf = 0x7f800000u;
// |f| at or above this (65520 = 0x1.ffep15, midpoint between 65504 and 2^16) rounds to inf.
constexpr uint32_t kHalfOverflow = 0x477ff000u;
// |f| below this (2^-14, the smallest normal half) becomes a subnormal half or zero.
constexpr uint32_t kHalfMinNormal = 0x38800000u;
// |f| at or below this (2^-25, half the smallest subnormal) rounds to zero: the tie goes to even.
constexpr uint32_t kHalfUnderflow = 0x33000000u;

// value >> shift, rounded to nearest with ties to even. shift in [1, 31].
uint32_t shift_right_round_even(uint32_t value, int shift) {
  const uint32_t kept = value >> shift;
  const uint32_t dropped = value & ((1u << shift) - 1u);
  const uint32_t half_way = 1u << (shift - 1);
  if (dropped > half_way || (dropped == half_way && (kept & 1u))) return kept + 1u;
  return kept;
}

}  // namespace

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // ±0 or subnormal: mantissa · 2^-24 is exact in float (mantissa has at most 10 bits).
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return float_from_bits(float_to_bits(magnitude) | sign);
  }
  if (exponent == 31) return float_from_bits(sign | kFloatInf | (mantissa << 13));
  // Re-bias the exponent from 15 to 127 and widen the mantissa from 10 to 23 bits.
  return float_from_bits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t float_to_half(float f) {
  const uint32_t bits = float_to_bits(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & kFloatAbsMask;

  if (magnitude > kFloatInf) {  // NaN
    uint16_t payload = static_cast<uint16_t>((magnitude >> 13) & 0x3ffu);
    if (payload == 0) payload = 0x200u;  // the payload lived in the dropped bits: keep it a NaN
    return static_cast<uint16_t>(sign | 0x7c00u | payload);
  }
  if (magnitude >= kHalfOverflow) return static_cast<uint16_t>(sign | 0x7c00u);  // includes inf
  if (magnitude >= kHalfMinNormal) {
    // Subtracting (127 - 15) << 23 re-biases the exponent; the 13 low mantissa bits are
    // rounded away. A carry out of the mantissa correctly bumps the exponent (it cannot reach
    // 31 because of the overflow test above).
    return static_cast<uint16_t>(sign | shift_right_round_even(magnitude - 0x38000000u, 13));
  }
  if (magnitude <= kHalfUnderflow) return sign;
  // Subnormal half: the result counts units of 2^-24. The float is m · 2^(e-150) with the
  // implicit bit in m, so in those units it is m · 2^(e-126); e ≤ 112 here, so shift ≥ 14,
  // and e ≥ 102 (magnitude > 2^-25), so shift ≤ 24. Rounding up to 0x400 gives the smallest
  // normal, which is the right encoding.
  const uint32_t exponent = magnitude >> 23;
  const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  const int shift = 126 - static_cast<int>(exponent);
  return static_cast<uint16_t>(sign | shift_right_round_even(mantissa, shift));
}

}  // namespace ae
