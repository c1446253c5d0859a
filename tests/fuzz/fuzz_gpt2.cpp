// libFuzzer target: the GPT-2 loaders on arbitrary bytes. The first byte chooses what the rest
// is: 0 config.json (gpt2_config_from_json), 1 model.safetensors for the tiny fixture's config
// (load_gpt2_weights), 2 text for the fixture's BPE tokenizer, 3 vocab.json + "\n\n" +
// merges.txt (BpeTokenizer::parse). Seeds: tests/fixtures/gpt2-tiny (scripts/fuzz.sh).
#include "fuzz_input.h"
#include "io/gpt2.h"
#include "text/bpe.h"

#include <fstream>
#include <sstream>

namespace {

std::string fixture_file(const char* file) {
  const std::string path = std::string(AE_SOURCE_DIR) + "/tests/fixtures/gpt2-tiny/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("fuzz: cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ae::ModelConfig config = ae::gpt2_config_from_json(fixture_file("config.json"));
  static const ae::BpeTokenizer tokenizer =
      ae::BpeTokenizer::parse(fixture_file("vocab.json"), fixture_file("merges.txt"));
  if (size == 0) return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  fuzz::expect_ok_or_invalid_argument([&] {
    switch (data[0] % 4) {
      case 0: ae::gpt2_config_from_json(rest); break;
      case 1: ae::load_gpt2_weights(config, rest); break;
      case 2: tokenizer.encode(rest); break;
      default: {
        const size_t split = rest.find("\n\n");
        ae::BpeTokenizer::parse(rest.substr(0, split), split == std::string_view::npos ? "" : rest.substr(split + 2));
      }
    }
  });
  return 0;
}
