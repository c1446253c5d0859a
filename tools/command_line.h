// The command line of every native tool, read one way: flags with values, numbers checked for
// form and range, and any problem reported as "TOOL: PROBLEM" plus the usage, exit code 2.
//
//   ae_tools::CommandLine cli(argc, argv, "inspect", "usage: inspect --model DIR …");
//   while (cli.next()) {
//     if (cli.is("--model")) dir = cli.value();
//     else if (cli.is("--top")) top = cli.whole(1, 1000);
//     else cli.unknown();
//   }
#pragma once

#include <cstdlib>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

namespace ae_tools {

class CommandLine {
 public:
  CommandLine(int argc, char** argv, std::string tool, std::string usage)
      : argc_(argc), argv_(argv), tool_(std::move(tool)), usage_(std::move(usage)) {}

  // Moves to the next flag; false when none is left.
  bool next() {
    if (++at_ >= argc_) return false;
    flag_ = argv_[at_];
    return true;
  }
  const std::string& flag() const { return flag_; }
  bool is(const char* name) const { return flag_ == name; }

  // The flag's value (the next argument).
  std::string value() {
    if (at_ + 1 >= argc_) fail(flag_ + " needs a value");
    return argv_[++at_];
  }

  // The flag's value as a whole number in [lo, hi]; "12abc", "1.5" and out-of-range values fail.
  long long whole(long long lo, long long hi) { return whole_in(value(), lo, hi, flag_); }

  // `text` as a whole number in [lo, hi], for values inside a flag's value ("LAYER:HEAD").
  long long whole_in(const std::string& text, long long lo, long long hi, const std::string& what) const {
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size()) fail(what + " expects a whole number, got \"" + text + "\"");
    if (v < lo || v > hi)
      fail(what + " must be in " + std::to_string(lo) + " … " + std::to_string(hi) + ", got " + text);
    return v;
  }

  [[noreturn]] void unknown() const { fail("unknown option " + flag_); }

  [[noreturn]] void fail(const std::string& problem) const {
    std::cerr << tool_ << ": " << problem << "\n" << usage_ << "\n";
    std::exit(2);
  }

 private:
  int argc_;
  char** argv_;
  std::string tool_, usage_, flag_;
  int at_ = 0;
};

// A tool's report of the exception that ended it, for main's catch: "TOOL: WHAT" and the exit
// code, 2 for an invalid_argument (a bad setting or input), 1 for anything else.
inline int report_failure(const std::string& tool, const std::exception& e) {
  std::cerr << tool << ": " << e.what() << "\n";
  return dynamic_cast<const std::invalid_argument*>(&e) ? 2 : 1;
}

}  // namespace ae_tools
