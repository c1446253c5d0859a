// The safetensors writer and reader: byte layout against the reference implementation's own
// expected outputs, round trips, every rejection with its message, and a truncation/bit-flip
// sweep that may only ever produce std::invalid_argument.
#include "error_of.h"
#include "io/half.h"
#include "io/safetensors.h"
#include "reference.h"
#include "util/rng.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

std::string le64(uint64_t v) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
  return s;
}

uint64_t read_le64(const std::string& s) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[static_cast<size_t>(i)]);
  return v;
}

// A file from a header text (not padded: the format does not require it) and a data buffer.
std::string make_file(const std::string& header, const std::string& buffer) {
  return le64(header.size()) + header + buffer;
}

std::string zeros(size_t n) { return std::string(n, '\0'); }

// The message of the std::invalid_argument that parsing throws ("" if none is thrown).
std::string parse_error(const std::string& bytes) {
  return error_of<std::invalid_argument>([&] { ae::parse_safetensors(bytes); });
}

std::string write_error(const std::vector<ae::NamedTensor>& tensors) {
  return error_of<std::invalid_argument>([&] { ae::write_safetensors(tensors); });
}

}  // namespace

// Expected bytes from the reference implementation's unit tests (huggingface/safetensors,
// safetensors/src/tensor.rs: test_empty, test_serialization, test_serialization_forced_alignement),
// written here as text plus the little-endian length.
TEST_CASE("safetensors: the writer reproduces the reference implementation's bytes") {
  SUBCASE("no tensors, no metadata") { CHECK(ae::write_safetensors({}) == le64(8) + "{}      "); }
  SUBCASE("no tensors, one metadata entry") {
    CHECK(ae::write_safetensors({}, {{"framework", "pt"}}) ==
          le64(40) + "{\"__metadata__\":{\"framework\":\"pt\"}}     ");
  }
  const std::vector<float> values = {0, 1, 2, 3, 4, 5};
  std::string data;
  for (float v : values) {
    const uint32_t bits = ae::float_to_bits(v);
    for (int i = 0; i < 4; ++i) data.push_back(static_cast<char>((bits >> (8 * i)) & 0xffu));
  }
  CHECK(data.substr(4, 4) == std::string("\x00\x00\x80\x3f", 4));  // 1.0f little-endian
  SUBCASE("one F32 tensor, header exactly 64 bytes") {
    CHECK(ae::write_safetensors({{"attn.0", {1, 2, 3}, ae::DType::F32, values.data()}}) ==
          le64(64) + "{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}" + data);
  }
  SUBCASE("one F32 tensor, header padded with 7 spaces") {
    CHECK(ae::write_safetensors({{"attn0", {1, 1, 2, 3}, ae::DType::F32, values.data()}}) ==
          le64(72) + "{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}       " + data);
  }
}

TEST_CASE(
    "safetensors: the byte layout checked by hand (length field and keys and order and alignment and endianness)") {
  const std::vector<float> a = {1.0f, -2.0f, 0.5f};
  const std::vector<float> b = {1.0f, 65504.0f};
  const std::vector<float> c = {3.0f, 4.0f, 5.0f, 6.0f};
  // Given out of order and with mixed dtypes: F32 tensors first (by name), then F16 (by name).
  const std::string file = ae::write_safetensors({{"zeta", {3}, ae::DType::F16, a.data()},
                                                  {"beta", {2}, ae::DType::F16, b.data()},
                                                  {"alpha.weight", {2, 2}, ae::DType::F32, c.data()}},
                                                 {{"format", "test"}});
  const uint64_t n = read_le64(file);
  REQUIRE(file.size() >= 8 + n);
  CHECK(n % 8 == 0);
  const std::string header = file.substr(8, n);
  CHECK(header.front() == '{');
  const size_t close = header.find_last_of('}');
  CHECK(header.find_first_not_of(' ', close + 1) == std::string::npos);  // padding is spaces only
  CHECK(header.rfind("{\"__metadata__\":{\"format\":\"test\"},\"alpha.weight\":", 0) == 0);

  const json j = json::parse(header);
  CHECK(j.size() == 4);
  CHECK(j["alpha.weight"] == json::parse(R"({"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})"));
  CHECK(j["beta"] == json::parse(R"({"dtype":"F16","shape":[2],"data_offsets":[16,20]})"));
  CHECK(j["zeta"] == json::parse(R"({"dtype":"F16","shape":[3],"data_offsets":[20,26]})"));
  CHECK(file.size() == 8 + n + 26);

  const std::string buffer = file.substr(8 + n);
  CHECK(buffer.substr(0, 4) == std::string("\x00\x00\x40\x40", 4));   // 3.0f
  CHECK(buffer.substr(16, 4) == std::string("\x00\x3c\xff\x7b", 4));  // F16 1.0, 65504
  CHECK(buffer.substr(20, 2) == std::string("\x00\x3c", 2));
}

TEST_CASE("safetensors: I8 tensors are one two's-complement byte per value, after F32 and F16") {
  const std::vector<float> q = {-128.0f, -1.0f, 0.0f, 1.0f, 127.0f};
  const std::vector<float> f = {2.0f};
  const std::string file =
      ae::write_safetensors({{"a.q", {5}, ae::DType::I8, q.data()}, {"z.f16", {1}, ae::DType::F16, f.data()}});
  const uint64_t n = read_le64(file);
  const json j = json::parse(file.substr(8, n));
  CHECK(j["z.f16"] == json::parse(R"({"dtype":"F16","shape":[1],"data_offsets":[0,2]})"));  // larger first
  CHECK(j["a.q"] == json::parse(R"({"dtype":"I8","shape":[5],"data_offsets":[2,7]})"));
  CHECK(file.substr(8 + n + 2) == std::string("\x80\xff\x00\x01\x7f", 5));
  const ae::SafetensorsFile back = ae::parse_safetensors(file);
  CHECK(back.tensors.at("a.q").dtype == ae::DType::I8);
  CHECK(back.tensors.at("a.q").values == q);  // widened to the integers
}

TEST_CASE("safetensors: round trips") {
  const std::vector<float> w = ref::random_values(12, 1, 3.0);
  const std::vector<float> v = ref::random_values(5, 2, 3.0);
  const std::vector<float> s = {42.5f};
  const std::vector<ae::NamedTensor> tensors = {
      {"layers.0.w", {3, 4}, ae::DType::F32, w.data()},
      {"layers.0.v", {5}, ae::DType::F16, v.data()},
      {"scalar", {}, ae::DType::F32, s.data()},    // shape [] holds one value
      {"empty", {0, 7}, ae::DType::F32, nullptr},  // no elements, no bytes
  };
  const std::map<std::string, std::string> metadata = {{"format", "attention-explorer/1"}, {"note", "héllo\n\"q\""}};
  const ae::SafetensorsFile file = ae::parse_safetensors(ae::write_safetensors(tensors, metadata));

  CHECK(file.metadata == metadata);
  REQUIRE(file.tensors.size() == 4);
  const ae::StoredTensor& tw = file.tensors.at("layers.0.w");
  CHECK(tw.dtype == ae::DType::F32);
  CHECK(tw.shape == std::vector<int64_t>{3, 4});
  CHECK(tw.values == w);  // F32 is bit-exact
  const ae::StoredTensor& tv = file.tensors.at("layers.0.v");
  CHECK(tv.dtype == ae::DType::F16);
  CHECK(tv.shape == std::vector<int64_t>{5});
  for (size_t i = 0; i < v.size(); ++i) CHECK(tv.values[i] == ae::round_to_half(v[i]));
  CHECK(file.tensors.at("scalar").shape.empty());
  CHECK(file.tensors.at("scalar").values == s);
  CHECK(file.tensors.at("empty").shape == std::vector<int64_t>{0, 7});
  CHECK(file.tensors.at("empty").values.empty());

  // Parsing accepts the reference's layout in any key order and without padding.
  const std::string reordered = make_file(
      R"({"b":{"data_offsets":[4,8],"shape":[1],"dtype":"F32"},"a":{"shape":[2],"dtype":"F16","data_offsets":[0,4]}})",
      std::string("\x00\x3c\x00\xc0\x00\x00\x80\x3f", 8));
  const ae::SafetensorsFile r = ae::parse_safetensors(reordered);
  CHECK(r.tensors.at("a").values == std::vector<float>{1.0f, -2.0f});
  CHECK(r.tensors.at("b").values == std::vector<float>{1.0f});
  CHECK(r.metadata.empty());
}

TEST_CASE("safetensors: the writer refuses what it cannot write faithfully") {
  const float x = 1.0f;
  CHECK_CONTAINS(write_error({{"a", {1}, ae::DType::F32, &x}, {"a", {1}, ae::DType::F16, &x}}),
                 "two tensors are named 'a'");
  CHECK_CONTAINS(write_error({{"", {1}, ae::DType::F32, &x}}), "a tensor name is empty");
  CHECK_CONTAINS(write_error({{"__metadata__", {1}, ae::DType::F32, &x}}), "reserved");
  CHECK_CONTAINS(write_error({{"a", {2, -1}, ae::DType::F32, &x}}),
                 "safetensors: tensor 'a': shape [2,-1] has a negative dimension");
  CHECK_CONTAINS(write_error({{"a", {2}, ae::DType::F32, nullptr}}), "tensor 'a': no data");
  CHECK_CONTAINS(write_error({{"bad\xff", {1}, ae::DType::F32, &x}}), "not valid UTF-8");
  // I8 stores integers; anything else would be changed on the way out.
  for (const float bad : {0.5f, 128.0f, -129.0f, std::numeric_limits<float>::quiet_NaN()}) {
    const std::vector<float> values = {3.0f, bad};
    CHECK_CONTAINS(write_error({{"q", {2}, ae::DType::I8, values.data()}}), "safetensors: tensor 'q': I8 element 1 = ");
  }
  CHECK(ae::dtype_from_string("F16") == ae::DType::F16);
  CHECK(ae::to_string(ae::DType::F32) == "F32");
  CHECK(ae::dtype_from_string("I8") == ae::DType::I8);
  CHECK(ae::to_string(ae::DType::I8) == "I8");
  CHECK(ae::dtype_size(ae::DType::I8) == 1);
  CHECK_THROWS_WITH_AS(ae::dtype_from_string("f32"), "unsupported dtype f32 (expected F32, F16 or I8)",
                       std::invalid_argument);
}

TEST_CASE("safetensors: malformed files are rejected with a message that names the problem") {
  struct Case {
    const char* what;
    std::string bytes;
    const char* message;
  };
  const std::string f32x4 = R"("dtype":"F32","shape":[4])";
  const Case cases[] = {
      {"empty file", "", "safetensors: file shorter than 8 bytes (0)"},
      {"7 bytes", std::string(7, '\0'), "file shorter than 8 bytes (7)"},
      {"header beyond the file", le64(999999) + std::string(1226, ' '),
       "safetensors: header length 999999 exceeds the file size 1234"},
      {"length field of 2^64-1", le64(~0ull), "exceeds the file size 8"},
      {"not JSON", make_file("{\"a\":", ""), "safetensors: invalid JSON header: "},
      {"not UTF-8", make_file("{\"\xc3\x28\":1}", ""), "invalid JSON header"},
      {"number overflow", make_file(R"({"a":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}})", zeros(4)),
       "invalid JSON header"},
      {"array header", make_file("[1,2]", ""), "the header must be a JSON object, got array"},
      {"duplicate names",
       make_file(
           R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
           zeros(4)),
       "the header names 'x' twice"},
      {"entry not an object", make_file(R"({"x":[1]})", ""), "tensor 'x': the entry must be an object"},
      {"missing dtype", make_file(R"({"x":{"shape":[1],"data_offsets":[0,4]}})", zeros(4)),
       "tensor 'x': missing \"dtype\""},
      {"missing shape", make_file(R"({"x":{"dtype":"F32","data_offsets":[0,4]}})", zeros(4)), "missing \"shape\""},
      {"missing offsets", make_file(R"({"x":{"dtype":"F32","shape":[1]}})", zeros(4)), "missing \"data_offsets\""},
      {"BF16", make_file(R"({"x":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})", zeros(4)),
       "safetensors: tensor 'x': unsupported dtype BF16 (expected F32, F16 or I8)"},
      {"I8 size mismatch", make_file(R"({"x":{"dtype":"I8","shape":[3],"data_offsets":[0,4]}})", zeros(4)),
       "do not match dtype I8 and shape [3] (3 bytes)"},
      {"dtype not a string", make_file(R"({"x":{"dtype":32,"shape":[1],"data_offsets":[0,4]}})", zeros(4)),
       "dtype must be a string, got 32"},
      {"fractional shape", make_file(R"({"x":{"dtype":"F32","shape":[2.5],"data_offsets":[0,4]}})", zeros(4)),
       "tensor 'x': shape must be a list of non-negative integers, got [2.5]"},
      {"negative shape", make_file(R"({"x":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", zeros(4)),
       "shape must be a list of non-negative integers, got [-1]"},
      {"string shape", make_file(R"({"x":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}})", zeros(8)),
       "shape must be a list of non-negative integers"},
      {"shape not a list", make_file(R"({"x":{"dtype":"F32","shape":2,"data_offsets":[0,8]}})", zeros(8)),
       "shape must be a list of non-negative integers, got 2"},
      {"one offset", make_file(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[4]}})", zeros(4)),
       "data_offsets must be [begin, end] with two non-negative integers, got [4]"},
      {"negative offset", make_file(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}})", zeros(4)),
       "data_offsets must be [begin, end]"},
      {"reversed offsets", make_file(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", zeros(8)),
       "tensor 'x': data_offsets [8, 4] end before they begin"},
      {"offsets past the buffer", make_file("{\"x\":{" + f32x4 + ",\"data_offsets\":[0,16]}}", zeros(8)),
       "tensor 'x': data_offsets [0, 16] lie outside the data buffer (8 bytes)"},
      {"size mismatch", make_file(R"({"x":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})", zeros(12)),
       "safetensors: tensor 'x': data_offsets [0, 12] do not match dtype F32 and shape [2,2] (16 bytes)"},
      {"F16 size mismatch", make_file(R"({"x":{"dtype":"F16","shape":[4],"data_offsets":[0,16]}})", zeros(16)),
       "do not match dtype F16 and shape [4] (8 bytes)"},
      {"element count overflow",
       make_file(R"({"x":{"dtype":"F32","shape":[4294967296,4294967296,4],"data_offsets":[0,4]}})", zeros(4)),
       "(more than 2^63 elements)"},
      {"byte count overflow",
       make_file(R"({"x":{"dtype":"F32","shape":[4294967296,1073741824],"data_offsets":[0,4]}})", zeros(4)),
       "(more than 2^63 bytes)"},
      {"overlap",
       make_file("{\"a\":{" + std::string(R"("dtype":"F32","shape":[2])") + ",\"data_offsets\":[0,8]},\"b\":{" +
                     R"("dtype":"F32","shape":[2])" + ",\"data_offsets\":[4,12]}}",
                 zeros(12)),
       "tensors 'a' [0, 8] and 'b' [4, 12] overlap"},
      {"same bytes twice",
       make_file(
           R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
           zeros(4)),
       "overlap"},
      {"gap between tensors",
       make_file(
           R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
           zeros(12)),
       "safetensors: bytes 4 to 8 of the data buffer belong to no tensor (before 'b')"},
      {"gap at the start", make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", zeros(8)),
       "bytes 0 to 4 of the data buffer belong to no tensor"},
      {"trailing bytes", make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(6)),
       "bytes 4 to 6 at the end of the data buffer belong to no tensor"},
      {"data but no tensors", make_file("{}", zeros(4)), "bytes 0 to 4 at the end of the data buffer"},
      {"metadata not strings", make_file(R"({"__metadata__":{"epoch":3}})", ""),
       "__metadata__ must map strings to strings, but \"epoch\" holds 3"},
      {"metadata not an object", make_file(R"({"__metadata__":"x"})", ""), "__metadata__ must be an object"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK_CONTAINS(parse_error(c.bytes), c.message);
  }
  // Unknown keys inside an entry are ignored (so does the reference), and null metadata is none.
  CHECK_NOTHROW(ae::parse_safetensors(
      make_file(R"({"__metadata__":null,"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})", zeros(4))));
}

TEST_CASE("safetensors: truncated and corrupted files only ever raise std::invalid_argument") {
  const std::vector<float> w = ref::random_values(24, 7, 3.0);
  const std::string valid = ae::write_safetensors({{"w", {4, 6}, ae::DType::F32, w.data()},
                                                   {"h", {3, 2}, ae::DType::F16, w.data()},
                                                   {"b", {6}, ae::DType::F32, w.data()}},
                                                  {{"format", "attention-explorer/1"}});
  REQUIRE_NOTHROW(ae::parse_safetensors(valid));
  const size_t header_end = 8 + read_le64(valid);

  int other_exceptions = 0, accepted_truncations = 0;
  auto attempt = [&](const std::string& bytes) -> bool {
    try {
      ae::parse_safetensors(bytes);
      return true;
    } catch (const std::invalid_argument&) {
      return false;
    } catch (const std::exception& e) {
      if (++other_exceptions <= 5) FAIL_CHECK("unexpected exception type: " << e.what());
    } catch (...) {
      if (++other_exceptions <= 5) FAIL_CHECK("unexpected non-std exception");
    }
    return false;
  };

  // Every proper prefix is invalid: either the header is cut or the buffer is not covered.
  for (size_t length = 0; length < valid.size(); ++length)
    if (attempt(valid.substr(0, length))) ++accepted_truncations;
  CHECK(accepted_truncations == 0);

  ae::Rng rng(2024);
  for (int trial = 0; trial < 4000; ++trial) {
    std::string bytes = valid;
    const int flips = 1 + static_cast<int>(rng.below(3));
    for (int k = 0; k < flips; ++k) {
      // Mostly the header (length field included), sometimes anywhere.
      const size_t limit = trial % 4 == 0 ? bytes.size() : header_end;
      const size_t at = static_cast<size_t>(rng.below(limit));
      if (trial % 2) bytes[at] = static_cast<char>(bytes[at] ^ (1 << rng.below(8)));  // one bit
      else bytes[at] = static_cast<char>(rng.below(256));                             // any byte
    }
    attempt(bytes);
  }
  CHECK(other_exceptions == 0);
}
