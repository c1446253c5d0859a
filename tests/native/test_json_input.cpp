// Hostile files: JSON nested without bound, values too long to quote, configs that claim more
// than their weights hold, and config.json keys of the wrong type. Each must give a short error
// naming the file part and the rule — no crash, no allocation of what the file claims.
#include "error_of.h"
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "io/json_input.h"
#include "io/safetensors.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace {

using nlohmann::json;

const std::string kModel = std::string(AE_SOURCE_DIR) + "/web/models/coref-decoder";

std::string nested_arrays(int depth) {
  return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

std::string le64(uint64_t v) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
  return s;
}

std::string safetensors_with_header(const std::string& header) { return le64(header.size()) + header; }

}  // namespace

TEST_CASE("parse_json_input: nesting up to kMaxJsonDepth parses, one level more is an error") {
  CHECK(ae::parse_json_input(nested_arrays(ae::kMaxJsonDepth), "x").is_array());
  CHECK_THROWS_WITH_AS(ae::parse_json_input(nested_arrays(ae::kMaxJsonDepth + 1), "x: invalid JSON"),
                       "x: invalid JSON: nested deeper than 32 levels (is the file corrupt?)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::parse_json_input("{\"a\":{\"b\":" + nested_arrays(40) + "}}", "x"),
                       doctest::Contains("nested deeper than 32"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::parse_json_input("{\"a\":", "x"), doctest::Contains("x: [json.exception.parse_error"),
                       std::invalid_argument);
}

TEST_CASE("a 100,000-deep safetensors header or config.json is refused without recursing") {
  // The audit's crash: dump() of this header in an error message overflowed the stack.
  const std::string deep = nested_arrays(100'000);
  CHECK(error_of([&] { ae::parse_safetensors(safetensors_with_header(deep)); }) ==
        "safetensors: invalid JSON header: nested deeper than 32 levels (is the file corrupt?)");
  CHECK(error_of([&] { ae::parse_safetensors(safetensors_with_header("{\"x\":{\"dtype\":" + deep + "}}")); }) ==
        "safetensors: invalid JSON header: nested deeper than 32 levels (is the file corrupt?)");
  CHECK(error_of([&] { ae::load_checkpoint_from_memory("{\"format\":" + deep + "}", "", ""); }) ==
        "config: invalid JSON: nested deeper than 32 levels (is the file corrupt?)");
}

TEST_CASE("error messages describe large values by size instead of quoting them") {
  CHECK(ae::describe_json(json::parse("[2,-3]")) == "[2,-3]");
  CHECK(ae::describe_json(json("32")) == "\"32\"");
  CHECK(ae::describe_json(json::parse("[[1]]")) == "an array of 1 elements");
  CHECK(ae::describe_json(json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})) ==
        "an array of 17 elements");
  CHECK(ae::describe_json(json::parse(R"({"a":1,"b":[2]})")) == "an object of 2 keys");
  CHECK(ae::describe_json(json::object()) == "{}");
  // Cut at a character boundary: "é" is two bytes, 31 of them are 62 bytes.
  std::string accents;
  for (int i = 0; i < 31; ++i) accents += "\xc3\xa9";
  CHECK(ae::describe_json(json(accents)) == "\"" + accents.substr(0, 60) + "\"… (62 bytes)");
  CHECK(ae::shorten_for_message(std::string(100'000, 'x')) == std::string(60, 'x') + "… (100000 bytes)");

  // Through the parsers: a 100,000-element shape, a 1 MB dtype, a 1 MB tensor name.
  std::string shape = "[1";
  for (int i = 0; i < 100'000; ++i) shape += ",1";
  shape += "]";
  const std::string shape_error = error_of([&] {
    ae::parse_safetensors(
        safetensors_with_header(R"({"x":{"dtype":"F32","shape":)" + shape + R"(,"data_offsets":[0,1.5]}})"));
  });
  CHECK(shape_error ==
        "safetensors: tensor 'x': data_offsets must be [begin, end] with two non-negative integers, got [0,1.5]");
  const std::string long_text(1'000'000, 'q');
  const std::string dtype_error = error_of([&] {
    ae::parse_safetensors(
        safetensors_with_header(R"({"x":{"dtype":")" + long_text + R"(","shape":[1],"data_offsets":[0,4]}})"));
  });
  CHECK(dtype_error.find("unsupported dtype qqq") != std::string::npos);
  CHECK(dtype_error.size() < 200);
  const std::string name_error = error_of([&] {
    ae::parse_safetensors(
        safetensors_with_header("{\"" + long_text + R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"));
  });
  CHECK(name_error.find("safetensors: tensor 'qqq") == 0);
  CHECK(name_error.size() < 300);
  const std::string config_error = error_of([&] {
    ae::config_from_json(json{{"format", ae::kCheckpointFormat}, {"vocab_size", long_text}});
  });
  CHECK(config_error ==
        "config: \"vocab_size\" must be an integer, got \"" + std::string(60, 'q') + "\"… (1000000 bytes)");
  // nlohmann's parse error quotes the last token: here a 1 MB string that never ends.
  const std::string syntax_error = error_of([&] { ae::load_checkpoint_from_memory("{\"" + long_text, "", ""); });
  CHECK(syntax_error.find("config: invalid JSON: [json.exception.parse_error.101]") == 0);
  CHECK(syntax_error.size() < 400);
}

TEST_CASE("a config that claims more parameters than the weights file holds fails before allocating") {
  ae::Checkpoint shipped = ae::load_checkpoint(kModel);
  const std::string weights = ae::save_weights(*shipped.model, ae::DType::F16);
  // 500,000 words × 64 features, embedding and untied output: about 64 million parameters (just
  // within kMaxParameters), 256 MB to allocate, next to a file of about 400 KB.
  json huge = shipped.config_json;
  huge["vocab_size"] = 500'000;
  huge["d_model"] = 64;
  const ae::ModelConfig claimed = ae::config_from_json(huge);
  REQUIRE(claimed.parameter_count() <= ae::kMaxParameters);
  const std::string message =
      error_of([&] { ae::load_checkpoint_from_memory(huge.dump(), weights, shipped.vocab_text); });
  CHECK(message == "weights: config.json describes a model of " + std::to_string(claimed.parameter_count()) +
                       " parameters, but the file holds " + std::to_string(shipped.config.parameter_count()) +
                       " values in " + std::to_string(ae::parse_safetensors(weights).tensors.size()) +
                       " tensors (does config.json match model.safetensors?)");
  // The audit's 51 GB config is refused by validate() already.
  huge["vocab_size"] = 1 << 20;
  huge["d_model"] = 4096;
  huge["n_layers"] = 64;
  huge["d_ff"] = 16384;
  const std::string too_big =
      error_of([&] { ae::load_checkpoint_from_memory(huge.dump(), weights, shipped.vocab_text); });
  CHECK(too_big.find("config: the model would have ") == 0);
  CHECK(too_big.find("the limit is 67108864 (256 MiB)") != std::string::npos);
}

TEST_CASE("config.json's \"task\" of the wrong type names the key (was json type_error.302)") {
  ae::Checkpoint c = ae::load_checkpoint(kModel);
  c.config_json["task"] = 5;
  CHECK(error_of([&] { ae::TrainedModel model(std::move(c)); }) ==
        "config: \"task\" must be a string (coreference, word-order, next-word or none), got 5");
}
