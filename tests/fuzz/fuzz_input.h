// Shared by the libFuzzer targets (tests/fuzz/README.md). Each target feeds the fuzzer's bytes
// to one parser and catches std::invalid_argument only: that is the promised reaction to bad
// input (SECURITY.md), so any other exception — std::bad_alloc, a json::type_error, an
// out_of_range — escapes, terminates, and libFuzzer reports it as a crash with the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A file of a shipped model, read once per process (AE_SOURCE_DIR is set by CMakeLists.txt).
inline std::string shipped_file(const std::string& model, const char* file) {
  const std::string path = std::string(AE_SOURCE_DIR) + "/web/models/" + model + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("fuzz: cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The shipped decoder's checkpoint files, read once per process: a target replaces one of them
// with the fuzzer's bytes.
struct ShippedDecoder {
  std::string config = shipped_file("coref-decoder", "config.json");
  std::string weights = shipped_file("coref-decoder", "model.safetensors");
  std::string vocab = shipped_file("coref-decoder", "vocab.txt");
};

inline const ShippedDecoder& shipped_decoder() {
  static const ShippedDecoder files;
  return files;
}

// Runs f and swallows the one expected exception type.
template <typename F>
void expect_ok_or_invalid_argument(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace fuzz
