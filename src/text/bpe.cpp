#include "text/bpe.h"

#include "io/json_input.h"
#include "text/tokenizer.h"
#include "text/unicode_classes.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <queue>
#include <stdexcept>

namespace ae {

namespace {

// One code point of a UTF-8 text and where its bytes start.
struct CodePoint {
  char32_t value;
  size_t offset;
};

// Length of the UTF-8 sequence at text[i], or 0 if none starts there (overlong forms,
// surrogates and values above U+10FFFF are not UTF-8).
size_t utf8_length(std::string_view text, size_t i, char32_t* value) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) {
    *value = b;
    return 1;
  }
  const size_t n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
  if (n == 0 || b > 0xf4 || i + n > text.size()) return 0;
  char32_t c = b & (0x7f >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    c = (c << 6) | (byte(i + k) & 0x3f);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < smallest[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
  *value = c;
  return n;
}

std::vector<CodePoint> decode_utf8(std::string_view text) {
  std::vector<CodePoint> out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const size_t n = utf8_length(text, i, &c);
    if (n == 0) throw std::invalid_argument("the text is not valid UTF-8 (at byte " + std::to_string(i) + ")");
    out.push_back({c, i});
    i += n;
  }
  return out;
}

// GPT-2's bytes_to_unicode: the character (as UTF-8) that stands for each byte.
const std::array<std::string, 256>& byte_characters() {
  static const std::array<std::string, 256> table = [] {
    std::array<std::string, 256> t;
    const auto printable = [](int b) {
      return (b >= '!' && b <= '~') || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    };
    int next = 256;
    for (int b = 0; b < 256; ++b)
      append_utf8(t[static_cast<size_t>(b)], static_cast<char32_t>(printable(b) ? b : next++));
    return t;
  }();
  return table;
}

bool is_other(char32_t c) { return !is_unicode_space(c) && !is_unicode_letter(c) && !is_unicode_number(c); }

// Where the piece starting at code point i ends (one past its last code point).
size_t piece_end(const std::vector<CodePoint>& cps, size_t i) {
  const size_t n = cps.size();
  const auto at = [&](size_t k) { return k < n ? cps[k].value : char32_t{0}; };
  const char32_t c = at(i), next = at(i + 1);
  // 's 't 're 've 'm 'll 'd
  if (c == U'\'' && i + 1 < n) {
    if (next == U's' || next == U't' || next == U'm' || next == U'd') return i + 2;
    const char32_t third = at(i + 2);
    if (i + 2 < n &&
        ((next == U'r' && third == U'e') || (next == U'v' && third == U'e') || (next == U'l' && third == U'l')))
      return i + 3;
  }
  // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: the class of the first character after the optional space.
  for (bool (*in_class)(char32_t) : {is_unicode_letter, is_unicode_number, is_other}) {
    size_t k = i;
    if (c == U' ' && i + 1 < n && in_class(next)) k = i + 1;
    if (!in_class(cps[k].value)) continue;
    while (k < n && in_class(cps[k].value)) ++k;
    return k;
  }
  // `\s+(?!\S)` leaves the last space of a run to the word after it; `\s+` takes a lone one.
  size_t k = i;
  while (k < n && is_unicode_space(cps[k].value)) ++k;
  if (k < n && k - i >= 2) return k - 1;
  return k;
}

}  // namespace

std::vector<std::string_view> gpt2_pretokenize(std::string_view text) {
  const std::vector<CodePoint> cps = decode_utf8(text);
  std::vector<std::string_view> pieces;
  for (size_t i = 0; i < cps.size();) {
    const size_t end = piece_end(cps, i);
    const size_t begin_byte = cps[i].offset, end_byte = end < cps.size() ? cps[end].offset : text.size();
    pieces.push_back(text.substr(begin_byte, end_byte - begin_byte));
    i = end;
  }
  return pieces;
}

BpeTokenizer BpeTokenizer::parse(std::string_view vocab_json, std::string_view merges_txt) {
  // Every refusal here is about the files: bad-model.
  return recode_input_errors(ErrorCode::BadModel, [&] {
    BpeTokenizer t;
    const nlohmann::json vocab = parse_json_input(vocab_json, "vocab.json: invalid JSON");
    if (!vocab.is_object()) throw std::invalid_argument("vocab.json: expected a JSON object of token → id");
    t.tokens_.assign(vocab.size(), std::string());
    std::vector<bool> seen(vocab.size(), false);
    for (const auto& [token, id] : vocab.items()) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= static_cast<int64_t>(vocab.size()))
        throw std::invalid_argument("vocab.json: the id of \"" + shorten_for_message(token) +
                                    "\" must be an integer in [0, " + std::to_string(vocab.size()) + "), got " +
                                    describe_json(id));
      const size_t i = id.get<size_t>();
      if (seen[i]) throw std::invalid_argument("vocab.json: id " + std::to_string(i) + " is given to two tokens");
      seen[i] = true;
      t.tokens_[i] = token;
      t.ids_.emplace(token, static_cast<int>(i));
    }
    for (int b = 0; b < 256; ++b)
      if (!t.ids_.count(byte_characters()[static_cast<size_t>(b)]))
        throw std::invalid_argument("vocab.json: no token for byte " + std::to_string(b) + " (\"" +
                                    byte_characters()[static_cast<size_t>(b)] +
                                    "\"); is this a byte-level BPE vocabulary?");

    int rank = 0;
    size_t line_number = 0;
    for (size_t start = 0; start < merges_txt.size(); ++line_number) {
      size_t end = merges_txt.find('\n', start);
      if (end == std::string_view::npos) end = merges_txt.size();
      std::string_view line = merges_txt.substr(start, end - start);
      start = end + 1;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || (line_number == 0 && line.rfind("#version", 0) == 0)) continue;
      const size_t space = line.find(' ');
      if (space == 0 || space == std::string_view::npos || space + 1 == line.size() ||
          line.find(' ', space + 1) != std::string_view::npos)
        throw std::invalid_argument("merges.txt: line " + std::to_string(line_number + 1) +
                                    " must be two tokens separated by one space, got \"" +
                                    shorten_for_message(std::string(line)) + "\"");
      const std::string merged = std::string(line.substr(0, space)) + std::string(line.substr(space + 1));
      if (!t.ids_.count(merged))
        throw std::invalid_argument("merges.txt: line " + std::to_string(line_number + 1) + ": the merged token \"" +
                                    shorten_for_message(merged) + "\" is not in vocab.json");
      // encoder.py's dict would keep a repeated merge's last rank; GPT-2's files have none, so a
      // repeat means a damaged file.
      if (const auto [it, added] = t.ranks_.emplace(std::string(line), rank); !added)
        throw std::invalid_argument("merges.txt: line " + std::to_string(line_number + 1) + " repeats the merge \"" +
                                    shorten_for_message(std::string(line)) + "\" of rank " +
                                    std::to_string(it->second));
      ++rank;
    }
    if (rank == 0) throw std::invalid_argument("merges.txt: no merges (an empty file, or only its #version line)");
    return t;
  });
}

std::vector<int> BpeTokenizer::encode(std::string_view text) const {
  std::vector<int> ids;
  for (std::string_view piece : gpt2_pretokenize(text)) encode_piece(piece, ids);
  return ids;
}

// Step 3 with a heap of candidate pairs ordered by (rank, position), over a linked list of
// symbols: O(m log m) for a piece of m bytes where encoder.py's loop is O(m²) (a long run of
// letters or spaces is one piece). It merges in encoder.py's order: all pairs of lower rank
// are gone before a rank is taken, and one rank's occurrences go left to right; a merge only
// creates pairs containing its result, which BPE training ranks after the merge itself.
void BpeTokenizer::encode_piece(std::string_view piece, std::vector<int>& ids) const {
  const size_t m = piece.size();
  std::vector<std::string> symbol(m);
  std::vector<int> prev(m), next(m);
  for (size_t i = 0; i < m; ++i) {
    symbol[i] = byte_characters()[static_cast<unsigned char>(piece[i])];
    prev[i] = static_cast<int>(i) - 1;
    next[i] = i + 1 < m ? static_cast<int>(i) + 1 : -1;
  }
  struct Candidate {
    int rank, left, right;
    bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
  const auto rank_of = [&](int left, int right) {
    const auto it = ranks_.find(symbol[static_cast<size_t>(left)] + ' ' + symbol[static_cast<size_t>(right)]);
    return it == ranks_.end() ? -1 : it->second;
  };
  const auto push = [&](int left, int right) {
    if (left < 0 || right < 0) return;
    if (const int r = rank_of(left, right); r >= 0) heap.push({r, left, right});
  };
  for (size_t i = 0; i + 1 < m; ++i) push(static_cast<int>(i), static_cast<int>(i) + 1);
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    // Stale: one side was merged away or changed since the pair was pushed.
    if (symbol[static_cast<size_t>(c.left)].empty() || next[static_cast<size_t>(c.left)] != c.right ||
        rank_of(c.left, c.right) != c.rank)
      continue;
    const size_t l = static_cast<size_t>(c.left), r = static_cast<size_t>(c.right);
    symbol[l] += symbol[r];
    symbol[r].clear();
    next[l] = next[r];
    if (next[r] >= 0) prev[static_cast<size_t>(next[r])] = c.left;
    push(prev[l], c.left);
    push(c.left, next[l]);
  }
  for (int i = m ? 0 : -1; i >= 0; i = next[static_cast<size_t>(i)])
    ids.push_back(ids_.at(symbol[static_cast<size_t>(i)]));
}

std::string BpeTokenizer::token_bytes(int id) const {
  static const std::unordered_map<std::string, char> byte_of = [] {
    std::unordered_map<std::string, char> map;
    for (int b = 0; b < 256; ++b) map.emplace(byte_characters()[static_cast<size_t>(b)], static_cast<char>(b));
    return map;
  }();
  const std::string& t = token(id);
  std::string bytes;
  for (size_t i = 0; i < t.size();) {
    char32_t c = 0;
    const size_t n = utf8_length(t, i, &c);
    const auto it = n ? byte_of.find(t.substr(i, n)) : byte_of.end();
    if (it == byte_of.end()) return t;  // not byte-level (a special token such as <|endoftext|>): as written
    bytes += it->second;
    i += n;
  }
  return bytes;
}

std::string BpeTokenizer::token_text(int id) const {
  const std::string bytes = token_bytes(id);
  std::string out;
  for (size_t i = 0; i < bytes.size();) {
    char32_t c = 0;
    const size_t n = utf8_length(bytes, i, &c);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD for a byte of a character split across tokens
      ++i;
    } else {
      out.append(bytes, i, n);
      i += n;
    }
  }
  return out;
}

int BpeTokenizer::id(const std::string& token) const {
  const auto it = ids_.find(token);
  return it == ids_.end() ? -1 : it->second;
}

}  // namespace ae
