// IEEE 754 binary16 ("half", safetensors dtype F16) ↔ binary32 conversion, written out with
// integer operations so that every build (native, wasm, any compiler) rounds the same way.
//
// Half layout: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
//   exponent 0      : ±0 and subnormals, value = mantissa · 2^-24
//   exponent 1..30  : normals, value = (1 + mantissa/1024) · 2^(exponent-15); largest 65504
//   exponent 31     : ±inf (mantissa 0) and NaN (mantissa ≠ 0)
#pragma once

#include <cstdint>
#include <cstring>

namespace ae {

// The bit pattern of a float and back (std::bit_cast is missing from the wasm toolchain's libc++).
inline uint32_t float_to_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float float_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Exact: every half value is a float. NaN payloads (including the quiet bit) are kept.
float half_to_float(uint16_t h);

// Rounds to the nearest half, ties to even. Magnitudes from 65520 (the midpoint between 65504
// and 2^16) up become ±inf; magnitudes up to 2^-25 (half the smallest subnormal) become ±0.
// NaN stays NaN with the top 10 bits of its payload; a payload that would vanish becomes the
// quiet NaN 0x7e00 (with the sign kept), so float_to_half(half_to_float(h)) == h for every h.
uint16_t float_to_half(float f);

// float → half → float: the value a parameter takes when stored as F16.
inline float round_to_half(float f) { return half_to_float(float_to_half(f)); }

}  // namespace ae
