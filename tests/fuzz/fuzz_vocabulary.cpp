// libFuzzer target: ae::Vocabulary::parse on arbitrary text (seeds: the shipped vocab.txt
// files). A vocabulary that parses must serialize to text that parses to the same tokens, and
// must encode its own text without an unexpected exception.
#include "fuzz_input.h"
#include "text/vocabulary.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_ok_or_invalid_argument([&] {
    const ae::Vocabulary vocab = ae::Vocabulary::parse(fuzz::as_text(data, size));
    if (ae::Vocabulary::parse(vocab.serialize()).tokens() != vocab.tokens()) std::abort();
    vocab.encode(fuzz::as_text(data, size), /*prepend_cls=*/true);
  });
  return 0;
}
