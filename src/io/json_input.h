// JSON read from files the user supplies (safetensors headers, config.json): parsed with a
// bounded nesting depth, and described in error messages without dumping unbounded input.
//
// Why: nlohmann's parser itself is iterative, but dump() recurses once per level, and a
// 100,000-deep header overflowed the stack when an error message quoted it (SIGSEGV natively,
// "Maximum call stack size exceeded" in wasm). No file this project reads nests deeper than 3.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ae {

// Deeper nesting is refused. Generous: headers nest 3 levels, config.json 2.
inline constexpr int kMaxJsonDepth = 32;

// Parses text. Throws std::invalid_argument("<error_prefix>: <nlohmann's message>") for a syntax
// error and ("<error_prefix>: nested deeper than 32 levels …") for deep nesting, found while
// parsing (before anything recurses). error_prefix says where, e.g. "config: invalid JSON".
// `also` (optional) sees every parse event, as nlohmann's parser callback does, and must
// return true (keep) — e.g. to reject duplicate keys.
nlohmann::json parse_json_input(std::string_view text, const std::string& error_prefix,
                                const nlohmann::json::parser_callback_t& also = nullptr);

// A short, bounded description of a value for an error message: a scalar or a short flat
// list as JSON ("2.5", "\"32\"", "[2,-3]"), strings cut to 60 characters; larger values by
// type and size ("an array of 1000 elements", "an object of 3 keys"). Never recurses.
std::string describe_json(const nlohmann::json& value);

// A name or key from a file, as put in a message: at most max_bytes (cut at a UTF-8 boundary,
// then "…"), so that a megabyte-long tensor name cannot make a megabyte-long message.
std::string shorten_for_message(const std::string& text, size_t max_bytes = 60);

}  // namespace ae
