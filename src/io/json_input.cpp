#include "io/json_input.h"

#include <stdexcept>

namespace ae {

namespace {

using nlohmann::json;

constexpr size_t kMaxQuotedBytes = 60;  // of a string quoted in a message
constexpr size_t kMaxListedElements = 16;
constexpr size_t kMaxParserMessageBytes = 300;  // nlohmann's own messages run to about 150

// Thrown from the parser callback to stop at the first level too deep; caught in parse_json_input.
struct TooDeep {};

// Invalid UTF-8 can only come from values built in code (the parser refuses it); replace it
// rather than throw from inside an error message.
std::string dump_scalar(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The first `limit` bytes of s, shortened further so that no UTF-8 sequence is cut.
std::string utf8_prefix(const std::string& s, size_t limit) {
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::string describe_scalar(const json& j) {
  if (!j.is_string() || j.get_ref<const std::string&>().size() <= kMaxQuotedBytes) return dump_scalar(j);
  const std::string& s = j.get_ref<const std::string&>();
  return dump_scalar(json(utf8_prefix(s, kMaxQuotedBytes))) + "… (" + std::to_string(s.size()) + " bytes)";
}

bool short_flat_list(const json& j) {
  if (!j.is_array() || j.size() > kMaxListedElements) return false;
  for (const json& element : j)
    if (!element.is_primitive()) return false;
  return true;
}

}  // namespace

json parse_json_input(std::string_view text, const std::string& error_prefix, const json::parser_callback_t& also) {
  // depth counts the containers around the one starting: 0 for the top-level value.
  const json::parser_callback_t limit_depth = [&](int depth, json::parse_event_t event, json& parsed) {
    const bool opens = event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth) throw TooDeep{};
    return also ? also(depth, event, parsed) : true;
  };
  try {
    return json::parse(text.begin(), text.end(), limit_depth);
  } catch (const TooDeep&) {
    throw std::invalid_argument(error_prefix + ": nested deeper than " + std::to_string(kMaxJsonDepth) +
                                " levels (is the file corrupt?)");
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e999
    // The message quotes the token read last, which may be a whole (huge) string literal.
    throw std::invalid_argument(error_prefix + ": " + shorten_for_message(e.what(), kMaxParserMessageBytes));
  }
}

std::string describe_json(const json& j) {
  if (j.is_primitive()) return describe_scalar(j);
  if (short_flat_list(j)) {
    std::string s = "[";
    for (size_t i = 0; i < j.size(); ++i) {
      if (i) s += ',';
      s += describe_scalar(j[i]);
    }
    return s + "]";
  }
  if (j.is_object() && j.empty()) return "{}";
  if (j.is_array()) return "an array of " + std::to_string(j.size()) + " elements";
  return "an object of " + std::to_string(j.size()) + " keys";
}

std::string shorten_for_message(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  return utf8_prefix(text, max_bytes) + "… (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace ae
