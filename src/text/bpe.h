// GPT-2's byte-level BPE tokenizer (Radford et al. 2019; openai/gpt-2 src/encoder.py), read
// from the published vocab.json and merges.txt:
//  1. pre-tokenize with GPT-2's pattern
//       's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//     (first alternative that matches, greedy, left to right; classes as JavaScript defines them);
//  2. write each piece's UTF-8 bytes as printable characters (bytes_to_unicode: the 188
//     printable Latin-1 bytes stand for themselves, the others map to U+0100 … U+0143, so a
//     space becomes "Ġ");
//  3. merge adjacent symbols, lowest merge rank first (rank = line of merges.txt), every
//     occurrence left to right, until no adjacent pair is a merge; each symbol is a vocab.json id.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ae {

// Step 1: the pieces of a UTF-8 text, as views into it. Throws std::invalid_argument for text
// that is not UTF-8 (naming the byte offset).
std::vector<std::string_view> gpt2_pretokenize(std::string_view text);

class BpeTokenizer {
 public:
  // vocab.json: a JSON object mapping each token (in the byte-to-character form) to its id,
  // the ids exactly 0 … size − 1. merges.txt: an optional "#version" line, then one merge
  // "left right" per line. Every byte's character and every merge's result must be a token.
  // Throws std::invalid_argument("vocab.json: …" / "merges.txt: …", naming the line).
  static BpeTokenizer parse(std::string_view vocab_json, std::string_view merges_txt);

  int size() const { return static_cast<int>(tokens_.size()); }

  // Steps 1–3. Throws std::invalid_argument for text that is not UTF-8.
  std::vector<int> encode(std::string_view text) const;

  // The token as stored in vocab.json ("Ġcat").
  const std::string& token(int id) const { return tokens_.at(static_cast<size_t>(id)); }
  // The bytes the token stands for (" cat"); may be part of a UTF-8 character.
  std::string token_bytes(int id) const;
  // token_bytes as valid UTF-8 for display: a byte that is not part of a whole character
  // becomes U+FFFD.
  std::string token_text(int id) const;
  // The token of a vocab.json string, or −1.
  int id(const std::string& token) const;

 private:
  void encode_piece(std::string_view piece, std::vector<int>& ids) const;

  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int> ids_;
  std::unordered_map<std::string, int> ranks_;  // "left right" → rank
};

}  // namespace ae
