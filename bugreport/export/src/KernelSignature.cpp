//===- KernelSignature.cpp - An entry point's parameters, read from its source -===//

#include "clcapture/export/KernelSignature.h"

#include "clcapture/export/OpenClTypes.h"

#include <cctype>
#include <map>
#include <set>

namespace clcapture::exporter {

namespace {

struct Token {
  enum Kind { Identifier, Number, Literal, Punct } kind;
  std::string text;
};

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Tokens of `source` with comments and preprocessor lines left out; `#define NAME VALUE` lines whose value
/// is a type name are collected into `defines`.
class Lexer {
public:
  explicit Lexer(std::string_view source) : m_s(source) {}

  std::vector<Token> run(std::map<std::string, std::string> &defines) {
    std::vector<Token> out;
    bool lineStart = true;
    while (m_i < m_s.size()) {
      char c = m_s[m_i];
      if (c == '\n') {
        lineStart = true;
        ++m_i;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++m_i;
      } else if (startsWith("//")) {
        skipLine(false);
        lineStart = true;
      } else if (startsWith("/*")) {
        std::size_t end = m_s.find("*/", m_i + 2);
        m_i = end == std::string_view::npos ? m_s.size() : end + 2;
      } else if (c == '#' && lineStart) {
        directive(defines);
        lineStart = true;
      } else {
        lineStart = false;
        out.push_back(token());
      }
    }
    return out;
  }

private:
  bool startsWith(std::string_view p) const { return m_s.substr(m_i, p.size()) == p; }

  /// Skips to the end of the line (after backslash continuations when `continued`); returns the text.
  std::string skipLine(bool continued) {
    std::string text;
    while (m_i < m_s.size() && m_s[m_i] != '\n') {
      if (continued && m_s[m_i] == '\\' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '\n') {
        m_i += 2;
        text += ' ';
        continue;
      }
      if (startsWith("//"))
        continued = false;
      text += m_s[m_i++];
    }
    return text;
  }

  void directive(std::map<std::string, std::string> &defines) {
    std::string text = skipLine(true);
    // "#define NAME VALUE" where VALUE is a plain type name: kernels written for several element types.
    std::size_t p = text.find_first_not_of(" \t", 1);
    if (p == std::string::npos || text.compare(p, 6, "define") != 0)
      return;
    p = text.find_first_not_of(" \t", p + 6);
    if (p == std::string::npos || !isIdentStart(text[p]))
      return;
    std::size_t e = p;
    while (e < text.size() && isIdentChar(text[e]))
      ++e;
    if (e < text.size() && text[e] == '(')
      return; // a function-like macro
    std::string value = text.substr(e);
    std::size_t comment = value.find("/*");
    if (comment != std::string::npos)
      value = value.substr(0, comment);
    comment = value.find("//");
    if (comment != std::string::npos)
      value = value.substr(0, comment);
    defines[text.substr(p, e - p)] = normalizeTypeName(value);
  }

  Token token() {
    std::size_t begin = m_i;
    char c = m_s[m_i];
    if (isIdentStart(c)) {
      while (m_i < m_s.size() && isIdentChar(m_s[m_i]))
        ++m_i;
      return {Token::Identifier, std::string(m_s.substr(begin, m_i - begin))};
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && m_i + 1 < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_i + 1])))) {
      // A pp-number (C99 §6.4.8): digits, letters, '.', and signs after an exponent letter.
      ++m_i;
      while (m_i < m_s.size()) {
        char d = m_s[m_i];
        char prev = m_s[m_i - 1];
        if (isIdentChar(d) || d == '.' ||
            ((d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')))
          ++m_i;
        else
          break;
      }
      return {Token::Number, std::string(m_s.substr(begin, m_i - begin))};
    }
    if (c == '"' || c == '\'') {
      ++m_i;
      while (m_i < m_s.size() && m_s[m_i] != c && m_s[m_i] != '\n')
        m_i += m_s[m_i] == '\\' ? std::size_t{2} : std::size_t{1};
      m_i = std::min(m_i + 1, m_s.size());
      return {Token::Literal, std::string(m_s.substr(begin, m_i - begin))};
    }
    static const char *const kLong[] = {"<<=", ">>=", "...", "==", "!=", "<=", ">=", "&&", "||", "++", "--",
                                        "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "<<", ">>", "->"};
    for (const char *p : kLong)
      if (startsWith(p)) {
        m_i += std::string_view(p).size();
        return {Token::Punct, p};
      }
    ++m_i;
    return {Token::Punct, std::string(1, c)};
  }

  std::string_view m_s;
  std::size_t m_i = 0;
};

/// Index of the token that closes the bracket opened at `open` (or tokens.size()).
std::size_t matching(const std::vector<Token> &t, std::size_t open) {
  const std::string &o = t[open].text;
  std::string close = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind != Token::Punct)
      continue;
    if (t[i].text == o)
      ++depth;
    else if (t[i].text == close && --depth == 0)
      return i;
  }
  return t.size();
}

bool isKernelKeyword(const Token &t) {
  return t.kind == Token::Identifier && (t.text == "kernel" || t.text == "__kernel");
}

std::optional<format::AddressSpace> addressSpaceOf(const std::string &word) {
  if (word == "global" || word == "__global")
    return format::AddressSpace::Global;
  if (word == "local" || word == "__local")
    return format::AddressSpace::Local;
  if (word == "constant" || word == "__constant")
    return format::AddressSpace::Constant;
  return std::nullopt;
}

const std::set<std::string> &qualifierWords() {
  static const std::set<std::string> q{
      "const",      "volatile",     "restrict",   "__restrict",   "global",       "__global",  "local",
      "__local",    "constant",     "__constant", "private",      "__private",    "read_only", "__read_only",
      "write_only", "__write_only", "read_write", "__read_write", "__kernel_exec"};
  return q;
}

/// Skips `__attribute__((...))` starting at `i`; returns the index after it (or `i`).
std::size_t skipAttribute(const std::vector<Token> &t, std::size_t i) {
  while (i < t.size() && t[i].kind == Token::Identifier && t[i].text == "__attribute__" && i + 1 < t.size() &&
         t[i + 1].text == "(")
    i = matching(t, i + 1) + 1;
  return i;
}

SignatureParameter parameter(const std::vector<Token> &t, std::size_t begin, std::size_t end,
                             const std::map<std::string, std::string> &aliases) {
  SignatureParameter p;
  std::vector<std::string> typeWords;
  bool seenStar = false;
  bool constBeforeStar = false;
  std::size_t nameAt = end;
  for (std::size_t i = begin; i < end; ++i) {
    if (t[i].kind == Token::Identifier && t[i].text == "__attribute__") {
      i = skipAttribute(t, i) - 1;
      continue;
    }
    if (t[i].kind == Token::Punct) {
      if (t[i].text == "*") {
        ++p.pointerDepth;
        seenStar = true;
      } else if (t[i].text == "[") {
        ++p.pointerDepth; // an array parameter is a pointer (C99 §6.7.5.3)
        i = matching(t, i);
      }
      continue;
    }
    if (t[i].kind != Token::Identifier)
      continue;
    const std::string &w = t[i].text;
    if (auto space = addressSpaceOf(w)) {
      p.addressSpace = space;
      continue;
    }
    if (w == "const" && !seenStar)
      constBeforeStar = true;
    if (qualifierWords().count(w))
      continue;
    typeWords.push_back(w);
    nameAt = i;
  }
  // The last word is the name when a type comes before it ("int n", "struct S s", "float *p").
  bool named = typeWords.size() >= 2 && !(typeWords.size() == 2 && typeWords[0] == "struct");
  if (typeWords.size() == 2 && typeWords[0] == "unsigned" && lookupClType(typeWords[1]))
    named = false; // "unsigned int" without a name
  if (named && nameAt < end) {
    p.name = typeWords.back();
    typeWords.pop_back();
  }
  std::string spelled;
  for (const std::string &w : typeWords)
    spelled += (spelled.empty() ? "" : " ") + w;
  p.type = normalizeTypeName(spelled);
  // A typedef or #define of a built-in type (`typedef float real;`, `#define T int`), resolved once more
  // for an alias of an alias.
  for (int round = 0; round < 4; ++round) {
    auto it = aliases.find(p.type);
    if (it == aliases.end() || it->second.empty() || it->second == p.type)
      break;
    std::string resolved = it->second;
    while (!resolved.empty() && resolved.back() == '*') {
      resolved.pop_back();
      ++p.pointerDepth;
    }
    p.type = resolved;
  }
  p.pointeeConst = p.pointerDepth > 0 && constBeforeStar;
  return p;
}

/// `typedef <type words> NAME;` at file scope, for a plain type (no struct body, no function type).
void collectTypedefs(const std::vector<Token> &t, std::map<std::string, std::string> &aliases) {
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == Token::Punct && t[i].text == "{")
      ++depth;
    else if (t[i].kind == Token::Punct && t[i].text == "}")
      --depth;
    if (depth != 0 || t[i].kind != Token::Identifier || t[i].text != "typedef")
      continue;
    std::vector<std::string> w;
    std::size_t j = i + 1;
    bool plain = true;
    for (; j < t.size() && t[j].text != ";"; ++j) {
      if (t[j].kind == Token::Identifier)
        w.push_back(t[j].text);
      else if (t[j].text == "*")
        w.emplace_back("*");
      else
        plain = false;
    }
    if (plain && w.size() >= 2) {
      std::string name = w.back();
      w.pop_back();
      std::string spelled;
      for (const std::string &s : w)
        spelled += (spelled.empty() ? "" : " ") + s;
      aliases[name] = normalizeTypeName(spelled);
    }
    i = j;
  }
}

/// The textual rule of SignatureParameter::writtenOnly over the body tokens [begin, end).
bool writtenOnly(const std::vector<Token> &t, std::size_t begin, std::size_t end, const std::string &name) {
  std::size_t uses = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (t[i].kind != Token::Identifier || t[i].text != name)
      continue;
    if (i > begin && (t[i - 1].text == "." || t[i - 1].text == "->"))
      continue; // a member of something else
    ++uses;
    // p[e] = …  /  p[e].f.g = …
    if (i + 1 < end && t[i + 1].text == "[") {
      std::size_t j = matching(t, i + 1) + 1;
      while (j + 1 < end && t[j].text == "." && t[j + 1].kind == Token::Identifier)
        j += 2;
      if (j < end && t[j].text == "=")
        continue;
      return false;
    }
    // vstoreN(v, offset, p) / vstore_halfN(…, p): p is the last argument of a vstore call.
    if (i + 1 < end && t[i + 1].text == ")" && i > begin && t[i - 1].text == ",") {
      int depth = 0;
      std::size_t k = i;
      while (k > begin) {
        --k;
        if (t[k].text == ")")
          ++depth;
        else if (t[k].text == "(" && depth-- == 0)
          break;
      }
      if (k > begin && t[k].text == "(" && t[k - 1].kind == Token::Identifier &&
          t[k - 1].text.rfind("vstore", 0) == 0)
        continue;
    }
    return false;
  }
  return uses > 0;
}

} // namespace

std::optional<KernelSignature> parseKernelSignature(std::string_view source, std::string_view entry) {
  std::map<std::string, std::string> aliases;
  std::vector<Token> t = Lexer(source).run(aliases);
  collectTypedefs(t, aliases);
  std::optional<KernelSignature> prototype;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i].kind == Token::Punct && t[i].text == "{")
      ++depth;
    else if (t[i].kind == Token::Punct && t[i].text == "}")
      --depth;
    if (depth != 0 || t[i].kind != Token::Identifier || t[i].text != entry || t[i + 1].text != "(")
      continue;
    // The declaration this name belongs to starts after the previous ';', '}' or '{' at file scope.
    bool isKernel = false;
    for (std::size_t k = i; k > 0;) {
      --k;
      if (t[k].kind == Token::Punct && (t[k].text == ";" || t[k].text == "}" || t[k].text == "{"))
        break;
      isKernel = isKernel || isKernelKeyword(t[k]);
    }
    if (!isKernel)
      continue;
    std::size_t close = matching(t, i + 1);
    if (close >= t.size())
      return prototype;
    KernelSignature sig;
    sig.entry = std::string(entry);
    std::size_t begin = i + 2;
    for (std::size_t k = begin, level = 0; k <= close; ++k) {
      const std::string &s = t[k].text;
      if (t[k].kind == Token::Punct && (s == "(" || s == "["))
        ++level;
      else if (t[k].kind == Token::Punct && (s == ")" || s == "]") && k != close)
        --level;
      if (k == close || (level == 0 && t[k].kind == Token::Punct && s == ",")) {
        bool onlyVoid = k - begin == 1 && t[begin].text == "void";
        if (k > begin && !onlyVoid)
          sig.parameters.push_back(parameter(t, begin, k, aliases));
        begin = k + 1;
      }
    }
    std::size_t after = skipAttribute(t, close + 1);
    if (after < t.size() && t[after].text == "{") {
      std::size_t bodyEnd = matching(t, after);
      sig.hasBody = true;
      for (SignatureParameter &p : sig.parameters)
        p.writtenOnly = p.pointerDepth == 1 && !p.name.empty() && writtenOnly(t, after + 1, bodyEnd, p.name);
      return sig;
    }
    prototype = std::move(sig);
    i = close;
  }
  return prototype;
}

} // namespace clcapture::exporter
