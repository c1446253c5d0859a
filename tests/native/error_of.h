// error_of(f): the message of the exception f throws, or "" when it throws nothing — for tests
// that compare whole messages (CHECK(error_of(...) == "...")) and print them when they differ.
#pragma once

#include <exception>
#include <string>

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
