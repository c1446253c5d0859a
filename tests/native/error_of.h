// error_of(f): the message of the exception f throws, or "" when it throws nothing — for tests
// that compare whole messages (CHECK(error_of(...) == "...")) and print them when they differ.
// error_of<std::invalid_argument>(f): the same for that exception type only; any other exception
// propagates (and fails the test).
// CHECK_CONTAINS(text, part): a message holds `part`; prints the whole message when it does not.
#pragma once

#include <doctest/doctest.h>

#include <exception>
#include <stdexcept>
#include <string>

template <typename Exception = std::exception, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Exception& e) {
    return e.what();
  }
  return "";
}

#define CHECK_CONTAINS(text, part)                \
  do {                                            \
    const std::string text_ = (text);             \
    INFO("message: " << text_);                   \
    CHECK(text_.find(part) != std::string::npos); \
  } while (0)
