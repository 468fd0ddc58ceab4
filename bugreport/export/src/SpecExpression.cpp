//===- SpecExpression.cpp - The Python expressions of a PySchedCL spec ----===//
//
// A recursive-descent evaluator over Python's precedence (Python Language Reference §6.5-§6.7):
//   sum     := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '//' | '%') unary)*
//   unary   := ('+' | '-') unary | power
//   power   := primary ('**' unary)?
//   primary := INTEGER | NAME | '(' sum ')'
// with overflow checked on every operation (a spec value beyond 64 bits is an error, not a wrap).
//
//===----------------------------------------------------------------------===//

#include "clcapture/export/SpecExpression.h"

#include <cctype>
#include <limits>

namespace clcapture::exporter {

namespace {

class Evaluator {
public:
  Evaluator(std::string_view text, const Defines &defines) : m_s(text), m_defines(defines) {}

  /// Parses one sum at the current position; nullopt after a failure (why/symbol set).
  std::optional<std::int64_t> sum() {
    auto left = term();
    while (left) {
      skipSpace();
      char c = peek();
      if (c != '+' && c != '-')
        break;
      ++m_i;
      auto right = term();
      if (!right)
        return std::nullopt;
      std::int64_t result = 0;
      bool overflowed = c == '+' ? __builtin_add_overflow(*left, *right, &result)
                                 : __builtin_sub_overflow(*left, *right, &result);
      left = checked(overflowed, result);
    }
    return left;
  }

  bool atEnd() {
    skipSpace();
    return m_i >= m_s.size();
  }
  char peek() const { return m_i < m_s.size() ? m_s[m_i] : '\0'; }
  void skipSpace() {
    while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i])))
      ++m_i;
  }
  bool consume(char c) {
    skipSpace();
    if (peek() != c)
      return false;
    ++m_i;
    return true;
  }
  std::size_t position() const { return m_i; }
  void failHere(const std::string &why) {
    if (m_why.empty())
      m_why = why;
  }

  std::string m_why;
  std::optional<std::string> m_symbol;

private:
  std::optional<std::int64_t> checked(bool overflowed, std::int64_t v) {
    if (overflowed) {
      failHere("the value overflows 64 bits");
      return std::nullopt;
    }
    return v;
  }

  std::optional<std::int64_t> term() {
    auto left = unary();
    while (left) {
      skipSpace();
      char c = peek();
      bool floorDiv = c == '/' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '/';
      if (c != '*' && c != '/' && c != '%')
        break;
      if (c == '*' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '*')
        break; // '**' is power's
      m_i += floorDiv ? 2 : 1;
      auto right = unary();
      if (!right)
        return std::nullopt;
      if (c == '*') {
        std::int64_t result = 0;
        bool overflowed = __builtin_mul_overflow(*left, *right, &result);
        left = checked(overflowed, result);
        continue;
      }
      if (*right == 0) {
        failHere("division by zero");
        return std::nullopt;
      }
      if (*left == std::numeric_limits<std::int64_t>::min() && *right == -1) {
        failHere("the value overflows 64 bits");
        return std::nullopt;
      }
      // Python: floor division and a remainder with the divisor's sign.
      std::int64_t q = *left / *right, r = *left % *right;
      if (r != 0 && ((r < 0) != (*right < 0))) {
        --q;
        r += *right;
      }
      left = c == '%' ? r : q;
    }
    return left;
  }

  std::optional<std::int64_t> unary() {
    skipSpace();
    if (peek() == '-' || peek() == '+') {
      bool negate = peek() == '-';
      ++m_i;
      auto v = unary();
      if (!v || !negate)
        return v;
      if (*v == std::numeric_limits<std::int64_t>::min()) {
        failHere("the value overflows 64 bits");
        return std::nullopt;
      }
      return -*v;
    }
    return power();
  }

  std::optional<std::int64_t> power() {
    auto base = primary();
    if (!base)
      return std::nullopt;
    skipSpace();
    if (peek() != '*' || m_i + 1 >= m_s.size() || m_s[m_i + 1] != '*')
      return base;
    m_i += 2;
    auto exponent = unary();
    if (!exponent)
      return std::nullopt;
    if (*exponent < 0) {
      failHere("a negative power is not an integer");
      return std::nullopt;
    }
    std::int64_t result = 1;
    for (std::int64_t k = 0; k < *exponent; ++k) {
      if (__builtin_mul_overflow(result, *base, &result)) {
        failHere("the value overflows 64 bits");
        return std::nullopt;
      }
      if (result == 0 || result == 1)
        break;
    }
    return result;
  }

  std::optional<std::int64_t> primary() {
    skipSpace();
    char c = peek();
    if (c == '(') {
      ++m_i;
      auto v = sum();
      if (!v)
        return std::nullopt;
      if (!consume(')')) {
        failHere("expected ')'");
        return std::nullopt;
      }
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t begin = m_i;
      int base = 10;
      if (c == '0' && m_i + 1 < m_s.size() && (m_s[m_i + 1] == 'x' || m_s[m_i + 1] == 'X')) {
        base = 16;
        m_i += 2;
      }
      std::size_t digits = m_i;
      while (m_i < m_s.size() && (base == 16 ? std::isxdigit(static_cast<unsigned char>(m_s[m_i]))
                                             : std::isdigit(static_cast<unsigned char>(m_s[m_i]))))
        ++m_i;
      if (m_i < m_s.size() && (m_s[m_i] == '.' || std::isalpha(static_cast<unsigned char>(m_s[m_i])))) {
        failHere("'" + std::string(m_s.substr(begin)) + "' is not an integer");
        return std::nullopt;
      }
      if (m_i == digits) {
        failHere("expected digits after 0x");
        return std::nullopt;
      }
      std::uint64_t v = 0;
      for (std::size_t k = digits; k < m_i; ++k) {
        char d = m_s[k];
        std::uint64_t digit =
            std::isdigit(static_cast<unsigned char>(d))
                ? static_cast<std::uint64_t>(d - '0')
                : static_cast<std::uint64_t>(std::tolower(static_cast<unsigned char>(d)) - 'a' + 10);
        if (__builtin_mul_overflow(v, static_cast<std::uint64_t>(base), &v) ||
            __builtin_add_overflow(v, digit, &v) ||
            v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          failHere("the value overflows 64 bits");
          return std::nullopt;
        }
      }
      return static_cast<std::int64_t>(v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t begin = m_i;
      while (m_i < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_'))
        ++m_i;
      std::string name(m_s.substr(begin, m_i - begin));
      skipSpace();
      if (peek() == '(') {
        m_symbol = name;
        failHere("it calls " + name + "(), which only PySchedCL can evaluate");
        return std::nullopt;
      }
      auto it = m_defines.find(name);
      if (it == m_defines.end()) {
        m_symbol = name;
        failHere("'" + name + "' is not defined (give --define " + name + "=N)");
        return std::nullopt;
      }
      return it->second;
    }
    failHere(c == '\0' ? std::string("the expression ends early") : "unexpected '" + std::string(1, c) + "'");
    return std::nullopt;
  }

  std::string_view m_s;
  const Defines &m_defines;
  std::size_t m_i = 0;
};

} // namespace

EvalResult evaluateInteger(std::string_view expression, const Defines &defines) {
  Evaluator e(expression, defines);
  EvalResult r;
  auto v = e.sum();
  if (v && !e.atEnd()) {
    e.failHere("unexpected '" + std::string(1, e.peek()) + "'");
    v.reset();
  }
  if (v)
    r.value = v;
  r.why = e.m_why;
  r.symbol = e.m_symbol;
  return r;
}

ListResult evaluateIntegerList(std::string_view expression, const Defines &defines) {
  Evaluator e(expression, defines);
  ListResult r;
  std::vector<std::int64_t> values;
  bool list = e.consume('[');
  bool ok = true;
  if (list && e.consume(']')) {
    ok = false;
    e.failHere("an empty list");
  }
  while (ok) {
    auto v = e.sum();
    if (!v) {
      ok = false;
      break;
    }
    values.push_back(*v);
    if (!list || !e.consume(','))
      break;
  }
  if (ok && list && !e.consume(']')) {
    ok = false;
    e.failHere("expected ']'");
  }
  if (ok && !e.atEnd()) {
    ok = false;
    e.failHere("unexpected '" + std::string(1, e.peek()) + "'");
  }
  if (ok)
    r.values = std::move(values);
  r.why = e.m_why;
  r.symbol = e.m_symbol;
  return r;
}

std::string pythonList(const std::vector<std::uint64_t> &values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::optional<std::pair<std::string, std::int64_t>> parseDefine(std::string_view text) {
  std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return std::nullopt;
  std::string name(text.substr(0, eq));
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return std::nullopt;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return std::nullopt;
  EvalResult value = evaluateInteger(text.substr(eq + 1), {});
  if (!value.value)
    return std::nullopt;
  return std::make_pair(name, *value.value);
}

} // namespace clcapture::exporter
