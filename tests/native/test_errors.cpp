// The core's typed errors (util/error.h): each failure a caller can cause carries the code the
// page chooses its words by, the field it is about, and stays a standard exception for C++
// callers. tests/wasm/error-codes.test.mjs checks that the same codes arrive in JS unchanged.
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "ops/attention.h"
#include "train/session.h"
#include "util/error.h"

#include <doctest/doctest.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ae;

namespace {

const std::string kModels = std::string(AE_SOURCE_DIR) + "/web/models/";

struct Caught {
  std::string code, field;
  bool is_invalid_argument = false;
};

// The code and field of what f throws (code "none" when it throws nothing).
template <typename F>
Caught caught(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return {std::string(to_string(error_code(e))), error_field(e),
            dynamic_cast<const std::invalid_argument*>(&e) != nullptr};
  }
  return {"none", "", false};
}

ModelConfig tiny_config() {
  ModelConfig c;
  c.vocab_size = 16, c.d_model = 8, c.n_heads = 2, c.n_layers = 1, c.max_len = 4;
  return c;
}

const TrainedModel& encoder() {
  static const TrainedModel model(load_checkpoint(kModels + "coref-encoder"));
  return model;
}

}  // namespace

TEST_CASE("every ErrorCode has the stable string JS sees (web/lib/contract.mjs)") {
  const std::vector<std::pair<ErrorCode, std::string>> table{
      {ErrorCode::BadInput, "bad-input"},     {ErrorCode::TooLong, "too-long"},
      {ErrorCode::EmptyInput, "empty-input"}, {ErrorCode::NoPronoun, "no-pronoun"},
      {ErrorCode::WrongTask, "wrong-task"},   {ErrorCode::BadConfig, "bad-config"},
      {ErrorCode::BadModel, "bad-model"},     {ErrorCode::OutOfMemory, "out-of-memory"},
  };
  for (const auto& [code, name] : table) CHECK(to_string(code) == name);
}

TEST_CASE("the core's throws carry their codes and fields, and stay std::invalid_argument") {
  const auto long_sentence = [] {
    std::string s;
    for (int i = 0; i <= encoder().config().max_len; ++i) s += "it ";
    return s;
  }();
  struct Case {
    const char* what;
    std::function<void()> call;
    std::string code, field;
  };
  const std::vector<Case> cases{
      {"heads not dividing d_model",
       [] {
         ModelConfig c = tiny_config();
         c.n_heads = 3;
         Transformer{c};
       },
       "bad-config", "n_heads"},
      {"unknown positional encoding", [] { positional_encoding_from_string("alibi"); }, "bad-config", "positional"},
      {"a training setting out of bounds",
       [] {
         SessionSettings s;
         s.n_heads = 3;
         s.resolved();
       },
       "bad-config", "heads"},
      {"a sequence over max_len",
       [] {
         Transformer(tiny_config()).forward({5, 6, 7, 8, 9}, {}, nullptr);
       },
       "too-long", "sequence"},
      {"an empty sequence", [] { Transformer(tiny_config()).forward({}, {}, nullptr); }, "empty-input", "sequence"},
      {"a sentence over max_len", [&] { encoder().analyze(long_sentence); }, "too-long", "sentence"},
      {"an empty sentence", [] { encoder().analyze("  "); }, "empty-input", "sentence"},
      {"a sentence without the pronoun", [] { encoder().analyze("the cat sat"); }, "no-pronoun", "it"},
      {"generation by an encoder", [] { encoder().generate("the cat", 2); }, "wrong-task", ""},
      {"config.json that is not JSON", [] { load_checkpoint_from_memory("{", "", ""); }, "bad-model", ""},
      {"a config.json without its keys", [] { load_checkpoint_from_memory("{}", "", ""); }, "bad-model", ""},
      {"attention with no query", [] { attention_traced(Matrix(0, 2), Matrix::Ones(1, 2), Matrix::Ones(1, 2), {}); },
       "empty-input", ""},
      {"NaN in Q (a plain std::invalid_argument: bad-input)",
       [] {
         Matrix q = Matrix::Ones(1, 2);
         q(0, 0) = std::numeric_limits<float>::quiet_NaN();
         attention_traced(q, Matrix::Ones(1, 2), Matrix::Ones(1, 2), {});
       },
       "bad-input", ""},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Caught got = caught(c.call);
    CHECK(got.code == c.code);
    if (!c.field.empty()) CHECK(got.field == c.field);
    CHECK(got.is_invalid_argument);
  }
}

TEST_CASE("standard exceptions without a code: bad_alloc and length_error are out-of-memory") {
  CHECK(caught([] { throw std::bad_alloc(); }).code == "out-of-memory");
  CHECK(caught([] { throw std::length_error("vector"); }).code == "out-of-memory");
  CHECK(caught([] { throw std::out_of_range("x"); }).code == "bad-input");
  CHECK(caught([] { throw ResourceError(ErrorCode::OutOfMemory, "out of memory"); }).code == "out-of-memory");
}

TEST_CASE("recode_input_errors keeps the message and field and changes only the code") {
  try {
    recode_input_errors(ErrorCode::BadModel, [] { throw InputError(ErrorCode::BadConfig, "config: x", "n_heads"); });
    FAIL("no throw");
  } catch (const InputError& e) {
    CHECK(e.code() == ErrorCode::BadModel);
    CHECK(e.field() == "n_heads");
    CHECK(std::string(e.what()) == "config: x");
  }
  CHECK(caught([] { recode_input_errors(ErrorCode::BadModel, [] { throw std::bad_alloc(); }); }).code ==
        "out-of-memory");
}
