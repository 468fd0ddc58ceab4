//===- ExpressionParser.cpp - The C expressions the debugger's commands take --===//
#include "ExpressionParser.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace clcapture::debug {

namespace fmt = clcapture::format;

namespace {

class Parser {
public:
  explicit Parser(const std::string &text) : m_text(text) {}

  fmt::Expected<std::unique_ptr<Expr>> parseAll() {
    auto expr = binary(0);
    if (!expr)
      return expr;
    skipSpace();
    if (m_pos != m_text.size())
      return error("unexpected '" + m_text.substr(m_pos, 1) + "'");
    return expr;
  }

private:
  // Binary operators by precedence level, loosest first (C's table).
  static const std::vector<std::vector<std::string>> &levels() {
    static const std::vector<std::vector<std::string>> table = {
        {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
        {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    return table;
  }

  fmt::Expected<std::unique_ptr<Expr>> error(const std::string &what) const {
    return fmt::fail("in expression `" + m_text + "` at column " + std::to_string(m_pos + 1) + ": " + what);
  }

  void skipSpace() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
  }

  // The binary operator at the cursor that belongs to `level` (not the first half of a longer one).
  std::string operatorAt(std::size_t level) {
    skipSpace();
    for (const std::string &op : levels()[level]) {
      if (m_text.compare(m_pos, op.size(), op) != 0)
        continue;
      char after = m_pos + op.size() < m_text.size() ? m_text[m_pos + op.size()] : '\0';
      if ((op == "|" && after == '|') || (op == "&" && after == '&') ||
          (op == "<" && (after == '<' || after == '=')) || (op == ">" && (after == '>' || after == '=')) ||
          ((op == "<<" || op == ">>") && after == '=') ||
          (op.size() == 1 && after == '=' && op != "<" && op != ">"))
        continue;
      return op;
    }
    return {};
  }

  fmt::Expected<std::unique_ptr<Expr>> binary(std::size_t level) {
    if (level == levels().size())
      return unary();
    auto left = binary(level + 1);
    if (!left)
      return left;
    std::unique_ptr<Expr> result = std::move(*left);
    for (std::string op = operatorAt(level); !op.empty(); op = operatorAt(level)) {
      m_pos += op.size();
      auto right = binary(level + 1);
      if (!right)
        return right;
      auto node = std::make_unique<Expr>();
      node->kind = Expr::Kind::Binary;
      node->text = op;
      node->operands.push_back(std::move(result));
      node->operands.push_back(std::move(*right));
      result = std::move(node);
    }
    return result;
  }

  fmt::Expected<std::unique_ptr<Expr>> unary() {
    if (++m_depth > 200)
      return error("nested too deeply");
    skipSpace();
    if (m_pos < m_text.size()) {
      char c = m_text[m_pos];
      bool incrementLike = m_pos + 1 < m_text.size() && m_text[m_pos + 1] == c && (c == '-' || c == '+');
      if ((c == '-' || c == '!' || c == '~' || c == '*' || c == '&' || c == '+') && !incrementLike) {
        ++m_pos;
        auto operand = unary();
        if (!operand)
          return operand;
        auto node = std::make_unique<Expr>();
        node->kind = c == '*' ? Expr::Kind::Deref : c == '&' ? Expr::Kind::AddressOf : Expr::Kind::Unary;
        node->text = std::string(1, c);
        node->operands.push_back(std::move(*operand));
        --m_depth;
        return node;
      }
    }
    auto result = postfix();
    --m_depth;
    return result;
  }

  fmt::Expected<std::unique_ptr<Expr>> postfix() {
    auto base = primary();
    if (!base)
      return base;
    std::unique_ptr<Expr> result = std::move(*base);
    while (true) {
      skipSpace();
      if (m_pos < m_text.size() && m_text[m_pos] == '[') {
        ++m_pos;
        auto index = binary(0);
        if (!index)
          return index;
        skipSpace();
        if (m_pos >= m_text.size() || m_text[m_pos] != ']')
          return error("expected ']'");
        ++m_pos;
        auto node = std::make_unique<Expr>();
        node->kind = Expr::Kind::Index;
        node->operands.push_back(std::move(result));
        node->operands.push_back(std::move(*index));
        result = std::move(node);
      } else if (m_pos < m_text.size() && (m_text[m_pos] == '.' || m_text.compare(m_pos, 2, "->") == 0)) {
        bool arrow = m_text[m_pos] == '-';
        m_pos += arrow ? 2 : 1;
        skipSpace();
        std::string member = identifier();
        if (member.empty())
          return error("expected a member name");
        auto node = std::make_unique<Expr>();
        node->kind = arrow ? Expr::Kind::Arrow : Expr::Kind::Member;
        node->text = member;
        node->operands.push_back(std::move(result));
        result = std::move(node);
      } else {
        return result;
      }
    }
  }

  std::string identifier() {
    std::size_t start = m_pos;
    if (m_pos < m_text.size() &&
        (std::isalpha(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
      while (m_pos < m_text.size() &&
             (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
        ++m_pos;
    return m_text.substr(start, m_pos - start);
  }

  fmt::Expected<std::unique_ptr<Expr>> number() {
    std::size_t start = m_pos;
    bool hex = m_text.compare(m_pos, 2, "0x") == 0 || m_text.compare(m_pos, 2, "0X") == 0;
    std::size_t end = m_pos + (hex ? 2 : 0);
    bool real = false;
    while (end < m_text.size()) {
      char c = m_text[end];
      if (std::isxdigit(static_cast<unsigned char>(c)) &&
          (hex || std::isdigit(static_cast<unsigned char>(c)))) {
        ++end;
      } else if (!hex && (c == '.' || ((c == 'e' || c == 'E') && end > start))) {
        real = true;
        ++end;
        if ((c == 'e' || c == 'E') && end < m_text.size() && (m_text[end] == '-' || m_text[end] == '+'))
          ++end;
      } else {
        break;
      }
    }
    std::string digits = m_text.substr(start, end - start);
    auto node = std::make_unique<Expr>();
    errno = 0;
    char *stop = nullptr;
    if (real) {
      node->kind = Expr::Kind::Real;
      node->real = std::strtod(digits.c_str(), &stop);
      if (end < m_text.size() && (m_text[end] == 'f' || m_text[end] == 'F')) {
        node->singlePrecision = true;
        ++end;
      }
    } else {
      node->kind = Expr::Kind::Integer;
      node->integer = std::strtoull(digits.c_str(), &stop, 0);
      while (end < m_text.size() && std::strchr("uUlL", m_text[end])) {
        node->unsignedLiteral = node->unsignedLiteral || m_text[end] == 'u' || m_text[end] == 'U';
        ++end;
      }
      node->unsignedLiteral = node->unsignedLiteral || node->integer > 0x7fffffffffffffffULL;
    }
    if (errno == ERANGE || !stop || *stop != '\0' || digits.empty() || digits == "0x")
      return error("malformed number '" + digits + "'");
    if (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
      return error("malformed number");
    m_pos = end;
    return node;
  }

  fmt::Expected<std::unique_ptr<Expr>> primary() {
    skipSpace();
    if (m_pos >= m_text.size())
      return error("expected a value");
    char c = m_text[m_pos];
    if (c == '(') {
      ++m_pos;
      auto inner = binary(0);
      if (!inner)
        return inner;
      skipSpace();
      if (m_pos >= m_text.size() || m_text[m_pos] != ')')
        return error("expected ')'");
      ++m_pos;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && m_pos + 1 < m_text.size() &&
         std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1]))))
      return number();
    std::string name = identifier();
    if (name.empty())
      return error("unexpected '" + std::string(1, c) + "'");
    auto node = std::make_unique<Expr>();
    node->text = name;
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == '(') {
      ++m_pos;
      node->kind = Expr::Kind::Call;
      skipSpace();
      if (m_pos < m_text.size() && m_text[m_pos] != ')') {
        auto argument = binary(0);
        if (!argument)
          return argument;
        node->operands.push_back(std::move(*argument));
        skipSpace();
      }
      if (m_pos >= m_text.size() || m_text[m_pos] != ')')
        return error("expected ')' after the argument of " + name);
      ++m_pos;
      return node;
    }
    node->kind = Expr::Kind::Name;
    return node;
  }

  const std::string &m_text;
  std::size_t m_pos = 0;
  unsigned m_depth = 0;
};

} // namespace

fmt::Expected<std::unique_ptr<Expr>> parseExpression(const std::string &text) {
  return Parser(text).parseAll();
}

std::string spell(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Integer:
    return std::to_string(e.integer);
  case Expr::Kind::Real:
    return std::to_string(e.real);
  case Expr::Kind::Name:
    return e.text;
  case Expr::Kind::Index:
    return spell(*e.operands[0]) + "[" + spell(*e.operands[1]) + "]";
  case Expr::Kind::Member:
    return spell(*e.operands[0]) + "." + e.text;
  case Expr::Kind::Arrow:
    return spell(*e.operands[0]) + "->" + e.text;
  case Expr::Kind::Deref:
    return "*" + spell(*e.operands[0]);
  case Expr::Kind::AddressOf:
    return "&" + spell(*e.operands[0]);
  case Expr::Kind::Unary:
    return e.text + spell(*e.operands[0]);
  case Expr::Kind::Binary:
    return "(" + spell(*e.operands[0]) + " " + e.text + " " + spell(*e.operands[1]) + ")";
  case Expr::Kind::Call:
    return e.text + "(" + (e.operands.empty() ? std::string() : spell(*e.operands[0])) + ")";
  }
  return {};
}

} // namespace clcapture::debug
