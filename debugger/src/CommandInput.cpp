//===- CommandInput.cpp - Where the debugger's commands come from -------------===//
#include "CommandInput.h"

#include <cstdio>
#include <cstdlib>
#include <readline/history.h>
#include <readline/readline.h>

namespace clcapture::debug {

namespace {

class TerminalInput : public CommandInput {
public:
  std::optional<std::string> next(const std::string &prompt) override {
    char *line = readline(prompt.c_str());
    if (!line)
      return std::nullopt;
    std::string text(line);
    std::free(line);
    if (!text.empty())
      add_history(text.c_str());
    return text;
  }
  bool interactive() const override { return true; }
};

class ScriptInput : public CommandInput {
public:
  ScriptInput(std::istream &in, std::ostream &echo) : m_in(in), m_echo(echo) {}
  std::optional<std::string> next(const std::string &prompt) override {
    std::string line;
    if (!std::getline(m_in, line))
      return std::nullopt;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    m_echo << prompt << line << '\n';
    return line;
  }
  bool interactive() const override { return false; }

private:
  std::istream &m_in;
  std::ostream &m_echo;
};

class ChainedInput : public CommandInput {
public:
  ChainedInput(std::unique_ptr<CommandInput> first, std::unique_ptr<CommandInput> then)
      : m_first(std::move(first)), m_then(std::move(then)) {}
  std::optional<std::string> next(const std::string &prompt) override {
    if (m_first) {
      if (auto line = m_first->next(prompt))
        return line;
      m_first.reset();
    }
    return m_then->next(prompt);
  }
  bool interactive() const override { return !m_first && m_then->interactive(); }

private:
  std::unique_ptr<CommandInput> m_first;
  std::unique_ptr<CommandInput> m_then;
};

} // namespace

std::unique_ptr<CommandInput> terminalInput() {
  return std::make_unique<TerminalInput>();
}

std::unique_ptr<CommandInput> scriptInput(std::istream &in, std::ostream &echo) {
  return std::make_unique<ScriptInput>(in, echo);
}

std::unique_ptr<CommandInput> chainedInput(std::unique_ptr<CommandInput> first,
                                           std::unique_ptr<CommandInput> then) {
  return std::make_unique<ChainedInput>(std::move(first), std::move(then));
}

} // namespace clcapture::debug
