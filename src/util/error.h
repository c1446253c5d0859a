// The core's typed errors: every failure a caller can cause carries an ErrorCode with a stable
// string (the same strings as the JS EngineError codes, web/lib/contract.mjs; README "Errors"),
// a message for people, and the offending field where there is one. The page chooses its
// words by the code and never reads the message.
//
// The types derive from the standard exceptions (InputError is a std::invalid_argument,
// ResourceError a std::runtime_error), so code that catches those keeps working. A standard
// exception that carries no code is classified by error_code(): bad_alloc and length_error are
// out-of-memory, everything else bad-input.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace ae {

enum class ErrorCode {
  BadInput,     // "bad-input": any other input the core refuses (NaN in q, every key masked, …)
  TooLong,      // "too-long": more tokens than the model reads (ModelConfig::max_len)
  EmptyInput,   // "empty-input": an empty sentence, prompt or sequence
  NoPronoun,    // "no-pronoun": a coreference model's sentence without its pronoun
  WrongTask,    // "wrong-task": generation asked of a model that is not a next-word decoder
  BadConfig,    // "bad-config": a model or training config the core refuses
  BadModel,     // "bad-model": model files that do not load
  OutOfMemory,  // "out-of-memory": the input needs more memory than there is
};

// The stable string of a code: the value JS sees as EngineError.code.
constexpr std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::BadInput: return "bad-input";
    case ErrorCode::TooLong: return "too-long";
    case ErrorCode::EmptyInput: return "empty-input";
    case ErrorCode::NoPronoun: return "no-pronoun";
    case ErrorCode::WrongTask: return "wrong-task";
    case ErrorCode::BadConfig: return "bad-config";
    case ErrorCode::BadModel: return "bad-model";
    case ErrorCode::OutOfMemory: return "out-of-memory";
  }
  return "bad-input";
}

// What an error says beyond its message: its code and the field (argument, option, config key or
// word) it is about, empty when it is about no single one. For no-pronoun the field is the pronoun.
class ErrorInfo {
 public:
  ErrorInfo(ErrorCode code, std::string field) : code_(code), field_(std::move(field)) {}
  virtual ~ErrorInfo() = default;
  ErrorCode code() const { return code_; }
  const std::string& field() const { return field_; }

 private:
  ErrorCode code_;
  std::string field_;
};

// A standard exception with an ErrorInfo. Base comes first so that the std::exception sits at
// the start of the object (the bindings read it from the address JS caught).
template <typename Base>
class CodedError : public Base, public ErrorInfo {
 public:
  CodedError(ErrorCode code, const std::string& message, std::string field = {})
      : Base(message), ErrorInfo(code, std::move(field)) {}
};

using InputError = CodedError<std::invalid_argument>;
using ResourceError = CodedError<std::runtime_error>;

// The code of any exception: its own, or the default for a standard one.
inline ErrorCode error_code(const std::exception& e) {
  if (const auto* info = dynamic_cast<const ErrorInfo*>(&e)) return info->code();
  if (dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::length_error*>(&e))
    return ErrorCode::OutOfMemory;
  return ErrorCode::BadInput;
}

inline std::string error_field(const std::exception& e) {
  const auto* info = dynamic_cast<const ErrorInfo*>(&e);
  return info ? info->field() : std::string();
}

// Runs f; an InputError or std::invalid_argument escaping it leaves as an InputError of `code`
// with the same message (and field): a loader's every refusal is bad-model, whatever stage
// refused. Other exceptions (out of memory) pass unchanged.
template <typename F>
auto recode_input_errors(ErrorCode code, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw InputError(code, e.what(), error_field(e));
  }
}

}  // namespace ae
