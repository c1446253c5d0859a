// libFuzzer target: ae::parse_safetensors on arbitrary bytes (seeds: the shipped
// model.safetensors files). A file that parses must also survive a write/parse round trip, and
// is then loaded as the weights of the shipped decoder's checkpoint (load_checkpoint_from_memory,
// the page's path): every tensor name, shape and dtype check, and the dequantization of I8
// tensors with their scales.
#include "fuzz_input.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::ShippedDecoder& shipped = fuzz::shipped_decoder();
  fuzz::expect_ok_or_invalid_argument([&] {
    const ae::SafetensorsFile file = ae::parse_safetensors(fuzz::as_text(data, size));
    std::vector<ae::NamedTensor> tensors;
    for (const auto& [name, t] : file.tensors) tensors.push_back({name, t.shape, ae::DType::F32, t.values.data()});
    // Names and metadata came through the JSON parser, so they are valid UTF-8 and writable.
    const ae::SafetensorsFile back = ae::parse_safetensors(ae::write_safetensors(tensors, file.metadata));
    if (back.tensors.size() != file.tensors.size() || back.metadata != file.metadata) std::abort();
  });
  fuzz::expect_ok_or_invalid_argument(
      [&] { ae::load_checkpoint_from_memory(shipped.config, fuzz::as_text(data, size), shipped.vocab); });
  return 0;
}
