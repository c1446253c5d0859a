// libFuzzer target: the word splitter and a shipped vocabulary's encode on arbitrary text
// (seeds: the shipped vocab.txt files and a few sentences). Every id must be in range and every
// unknown position must be [UNK].
#include "fuzz_input.h"
#include "text/tokenizer.h"
#include "text/vocabulary.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ae::Vocabulary vocab = ae::Vocabulary::parse(fuzz::shipped_file("coref-encoder", "vocab.txt"));
  fuzz::expect_ok_or_invalid_argument([&] {
    const std::string_view text = fuzz::as_text(data, size);
    for (const std::string& word : ae::split_words(text))
      if (word.empty() || ae::hashed_token_id(word, 1000, 5) < 5 || ae::hashed_token_id(word, 1000, 5) >= 1000)
        std::abort();
    const ae::Vocabulary::Encoded e = vocab.encode(text, /*prepend_cls=*/false);
    if (e.ids.size() != e.tokens.size()) std::abort();
    for (int id : e.ids)
      if (id < 0 || id >= vocab.size()) std::abort();
    for (int p : e.unknown)
      if (e.ids[static_cast<size_t>(p)] != ae::Vocabulary::kUnk) std::abort();
  });
  return 0;
}
