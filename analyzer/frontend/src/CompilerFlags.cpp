//===- CompilerFlags.cpp - The captured compiler_flags, for Clang --------===//

#include "clcapture/frontend/CompilerFlags.h"

#include <array>

namespace clcapture::frontend {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// OpenCL 1.2 §5.6.4 build options that `clang -cc1` understands and that may change the program's meaning
// (macros such as __FAST_RELAXED_MATH__, floating-point semantics, the set of extensions). Passed unchanged.
constexpr std::array<std::string_view, 10> kPassedThrough{"-cl-single-precision-constant",
                                                          "-cl-finite-math-only",
                                                          "-cl-unsafe-math-optimizations",
                                                          "-cl-fast-relaxed-math",
                                                          "-cl-mad-enable",
                                                          "-cl-no-signed-zeros",
                                                          "-cl-fp32-correctly-rounded-divide-sqrt",
                                                          "-cl-uniform-work-group-size",
                                                          "-cl-opt-disable",
                                                          "-cl-strict-aliasing"};

// Options that take their argument as the next word; ignored together with it.
constexpr std::array<std::string_view, 4> kIgnoredWithArgument{"-x", "-include", "-s", "-o"};

/// Why an option is dropped, or nullptr when it is not one we know to drop.
const char *ignoredReason(std::string_view word) {
  if (word == "-cl-kernel-arg-info")
    return "clcapture always generates argument information";
  if (word == "-cl-denorms-are-zero")
    return "denormal handling does not affect races or barriers";
  if (word == "-cl-no-stdinc")
    return "the verifier always needs the OpenCL builtin declarations";
  if (word == "-w" || startsWith(word, "-W"))
    return "warning options do not affect verification";
  if (word == "-g" || startsWith(word, "-O"))
    return "the verifier compiles unoptimised with debug locations";
  if (startsWith(word, "-cl-nv-") || startsWith(word, "-nv-") || startsWith(word, "-cl-intel-") ||
      startsWith(word, "-cl-amd-") || startsWith(word, "-fbin-") || startsWith(word, "-cl-arm-"))
    return "vendor-specific";
  if (word == "-create-library" || word == "-enable-link-options")
    return "linker option";
  return nullptr;
}

CompilerMessage note(std::string text) {
  return CompilerMessage{MessageLevel::Note, "", 0, 0, std::move(text)};
}

} // namespace

format::Expected<std::vector<std::string>> splitShellWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (isBlank(c)) {
      if (inWord)
        words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\\') {
      if (i + 1 < text.size()) {
        ++i;
        if (text[i] != '\n') // backslash-newline joins lines
          word += text[i];
      }
      continue;
    }
    if (c == '\'') {
      std::size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos)
        return format::fail("compiler_flags: unterminated single quote");
      word += text.substr(i + 1, end - i - 1);
      i = end;
      continue;
    }
    if (c == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size()) {
          char next = text[j + 1];
          if (next == '"' || next == '\\' || next == '$' || next == '`') {
            word += next;
            ++j;
            continue;
          }
          if (next == '\n') {
            ++j;
            continue;
          }
        }
        word += text[j];
      }
      if (j >= text.size())
        return format::fail("compiler_flags: unterminated double quote");
      i = j;
      continue;
    }
    word += c;
  }
  if (inWord)
    words.push_back(std::move(word));
  return words;
}

format::Expected<CompilerFlags> parseCompilerFlags(std::string_view text) {
  auto words = splitShellWords(text);
  if (!words)
    return format::fail(words.error());
  CompilerFlags flags;
  const std::vector<std::string> &w = *words;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string &word = w[i];
    // -D, -U and -I take their argument joined (-DN=1) or as the next word (-D N=1).
    if (word.size() >= 2 && (startsWith(word, "-D") || startsWith(word, "-U") || startsWith(word, "-I"))) {
      std::string option = word.substr(0, 2);
      std::string argument = word.substr(2);
      if (argument.empty()) {
        if (i + 1 == w.size()) {
          flags.notes.push_back(note("ignored compiler flag '" + word + "': missing argument"));
          continue;
        }
        argument = w[++i];
      }
      flags.clangArgs.push_back(option);
      flags.clangArgs.push_back(argument);
      continue;
    }
    if (startsWith(word, "-cl-std=") || startsWith(word, "-cl-ext=")) {
      flags.clangArgs.push_back(word);
      continue;
    }
    bool passed = false;
    for (std::string_view known : kPassedThrough)
      passed = passed || word == known;
    if (passed) {
      flags.clangArgs.push_back(word);
      continue;
    }
    if (const char *reason = ignoredReason(word)) {
      flags.notes.push_back(note("ignored compiler flag '" + word + "': " + reason));
      continue;
    }
    bool withArgument = false;
    for (std::string_view known : kIgnoredWithArgument)
      withArgument = withArgument || word == known;
    if (withArgument && i + 1 < w.size()) {
      flags.notes.push_back(note("ignored compiler flag '" + word + " " + w[i + 1] + "'"));
      ++i;
      continue;
    }
    flags.notes.push_back(note("ignored unknown compiler flag '" + word + "'"));
  }
  return flags;
}

} // namespace clcapture::frontend
