// libFuzzer target: config.json. The bytes are loaded as the config of a checkpoint whose
// weights and vocabulary are a shipped model's, through the same path as the page
// (load_checkpoint_from_memory, then TrainedModel), so that a config claiming a huge model
// must be refused before anything is allocated (libFuzzer's -malloc_limit_mb catches that).
// Seeds: the shipped config.json files.
#include "fuzz_input.h"
#include "inference/trained_model.h"
#include "io/checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::ShippedDecoder& shipped = fuzz::shipped_decoder();
  fuzz::expect_ok_or_invalid_argument([&] {
    ae::TrainedModel model(ae::load_checkpoint_from_memory(fuzz::as_text(data, size), shipped.weights, shipped.vocab));
    model.analyze("the cat saw it");
  });
  return 0;
}
