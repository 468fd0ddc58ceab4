//===- SignatureReader.cpp - Kernel parameters read from the captured source, where that is certain -===//

#include "engine/SignatureReader.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

namespace clcapture::layer {

namespace {

struct Token {
  std::string text;
  bool identifier = false;
  bool certain = true; ///< no uncertain macro or region went into it
  bool opaque = false; ///< a function-like macro's name: what it expands to is not known here
};

struct Macro {
  bool functionLike = false;
  std::vector<Token> body;
  bool certain = true; ///< defined (or undefined) where every enclosing condition was decided
};

bool identifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Line splices and comments removed (a comment becomes one space); string and character literals kept.
std::string withoutComments(const std::string &source) {
  std::string spliced;
  spliced.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (source[i] == '\\' && i + 2 < source.size() && source[i + 1] == '\r' && source[i + 2] == '\n') {
      i += 2;
      continue;
    }
    spliced += source[i];
  }
  std::string out;
  out.reserve(spliced.size());
  for (std::size_t i = 0; i < spliced.size(); ++i) {
    char c = spliced[i];
    if (c == '"' || c == '\'') {
      out += c;
      for (++i; i < spliced.size() && spliced[i] != c && spliced[i] != '\n'; ++i) {
        out += spliced[i];
        if (spliced[i] == '\\' && i + 1 < spliced.size())
          out += spliced[++i];
      }
      if (i < spliced.size())
        out += spliced[i];
    } else if (c == '/' && i + 1 < spliced.size() && spliced[i + 1] == '/') {
      while (i < spliced.size() && spliced[i] != '\n')
        ++i;
      if (i < spliced.size())
        out += '\n';
    } else if (c == '/' && i + 1 < spliced.size() && spliced[i + 1] == '*') {
      out += ' ';
      for (i += 2; i + 1 < spliced.size() && !(spliced[i] == '*' && spliced[i + 1] == '/'); ++i)
        if (spliced[i] == '\n')
          out += '\n'; // keeps directives on lines of their own
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<Token> lex(const std::string &line) {
  static const char *const kLong[] = {
      "...", "<<=", ">>=", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
      "->",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
  std::vector<Token> tokens;
  for (std::size_t i = 0; i < line.size();) {
    char c = line[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (identifierStart(c)) {
      std::size_t j = i;
      while (j < line.size() && identifierChar(line[j]))
        ++j;
      tokens.push_back({line.substr(i, j - i), true});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
      std::size_t j = i + 1;
      while (j < line.size() && (identifierChar(line[j]) || line[j] == '.' ||
                                 ((line[j] == '+' || line[j] == '-') && std::strchr("eEpP", line[j - 1]))))
        ++j;
      tokens.push_back({line.substr(i, j - i)});
      i = j;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < line.size() && line[j] != c)
        j += line[j] == '\\' ? 2u : 1u;
      j = std::min(j + 1, line.size());
      tokens.push_back({line.substr(i, j - i)});
      i = j;
    } else {
      std::size_t length = 1;
      for (const char *op : kLong)
        if (line.compare(i, std::strlen(op), op) == 0) {
          length = std::strlen(op);
          break;
        }
      tokens.push_back({line.substr(i, length)});
      i += length;
    }
  }
  return tokens;
}

/// Names a driver or the OpenCL C header may define before the source starts: a condition on one of them
/// cannot be decided here.
bool driverMayDefine(const std::string &name) {
  static const char *const kPrefixes[] = {
      "__",       "cl_",      "CL_",      "FP_",   "M_",     "FLT_",   "DBL_",     "HALF_",   "INT_",
      "UINT_",    "LONG_",    "ULONG_",   "CHAR_", "SCHAR_", "UCHAR_", "SHRT_",    "USHRT_",  "CLK_",
      "MAXFLOAT", "HUGE_VAL", "INFINITY", "NAN",   "NULL",   "SIZE_",  "PTRDIFF_", "INTPTR_", "UINTPTR_",
      "MEMORY_",  "ATOMIC_",  "NVIDIA",   "AMD",   "INTEL",  "GPU",    "CPU"};
  for (const char *prefix : kPrefixes)
    if (name.rfind(prefix, 0) == 0)
      return true;
  return false;
}

class Preprocessor {
public:
  explicit Preprocessor(const std::string &options) {
    std::istringstream words(options);
    std::string word;
    while (words >> word) {
      bool defines = word.rfind("-D", 0) == 0, undefine = word.rfind("-U", 0) == 0;
      if (!defines && !undefine)
        continue;
      std::string rest = word.substr(2);
      if (rest.empty() && !(words >> rest))
        break;
      if (undefine) {
        m_macros.erase(rest);
        continue;
      }
      std::size_t equals = rest.find('=');
      std::string name = rest.substr(0, equals);
      std::string body = equals == std::string::npos ? "1" : rest.substr(equals + 1);
      define(name + " " + body, true);
    }
  }

  /// Every text token of `source`, object-like macros expanded, each marked certain or not.
  std::vector<Token> run(const std::string &source) {
    std::istringstream lines(withoutComments(source));
    std::string line;
    while (std::getline(lines, line)) {
      std::size_t first = line.find_first_not_of(" \t\r\f\v");
      if (first != std::string::npos && line[first] == '#')
        directive(line.substr(first + 1));
      else if (mode() != Mode::Inactive)
        for (Token &t : lex(line))
          emit(t, mode() == Mode::Active && !m_unresolvedInclude, m_text, 0, {});
    }
    return std::move(m_text);
  }

private:
  enum class Mode { Active, Inactive, Uncertain };
  struct Frame {
    Mode mode;
    bool taken = false;         ///< an earlier branch was certainly taken
    bool uncertainSeen = false; ///< an earlier branch's condition was undecided
    Mode parent;
  };

  Mode mode() const { return m_frames.empty() ? Mode::Active : m_frames.back().mode; }

  void define(const std::string &text, bool certain) {
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    std::size_t j = i;
    while (j < text.size() && identifierChar(text[j]))
      ++j;
    if (j == i)
      return;
    Macro m;
    m.certain = certain;
    m.functionLike = j < text.size() && text[j] == '(';
    m.body = lex(text.substr(j));
    m_macros[text.substr(i, j - i)] = std::move(m);
  }

  /// Appends `t` to `out`, expanding object-like macros (not those in `hidden`: no recursion).
  void emit(Token t, bool certain, std::vector<Token> &out, int depth, const std::set<std::string> &hidden) {
    t.certain = t.certain && certain;
    auto it = t.identifier && !hidden.count(t.text) ? m_macros.find(t.text) : m_macros.end();
    if (it == m_macros.end() || depth > 64) {
      out.push_back(std::move(t));
      return;
    }
    if (it->second.functionLike) {
      t.opaque = true;
      out.push_back(std::move(t));
      return;
    }
    std::set<std::string> inner = hidden;
    inner.insert(t.text);
    const Macro macro = it->second; // a copy: expansion does not change the table, but stays safe if it did
    for (const Token &b : macro.body)
      emit(b, t.certain && macro.certain, out, depth + 1, inner);
  }

  /// The value of an #if expression; nullopt where it depends on what cannot be known here.
  std::optional<std::int64_t> evaluate(const std::vector<Token> &raw) {
    std::vector<Token> tokens;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i].text == "defined") {
        std::size_t k = i + 1;
        bool paren = k < raw.size() && raw[k].text == "(";
        if (paren)
          ++k;
        if (k >= raw.size() || !raw[k].identifier)
          return std::nullopt;
        auto it = m_macros.find(raw[k].text);
        Token value{it != m_macros.end() ? "1" : "0"};
        value.certain = it != m_macros.end() ? it->second.certain : !driverMayDefine(raw[k].text);
        tokens.push_back(value);
        i = paren ? k + 1 : k;
        continue;
      }
      emit(raw[i], true, tokens, 0, {});
    }
    for (Token &t : tokens) {
      if (!t.certain || t.opaque)
        return std::nullopt;
      if (t.identifier) {
        if (driverMayDefine(t.text))
          return std::nullopt;
        t = Token{"0"}; // C: an identifier left after expansion is 0
      }
    }
    m_expression = &tokens;
    m_at = 0;
    m_failed = false;
    std::int64_t v = conditional();
    if (m_failed || m_at != tokens.size())
      return std::nullopt;
    return v;
  }

  // Precedence climbing over m_expression (C's operators for #if).
  const std::vector<Token> *m_expression = nullptr;
  std::size_t m_at = 0;
  bool m_failed = false;

  const std::string &peek() const {
    static const std::string end;
    return m_at < m_expression->size() ? (*m_expression)[m_at].text : end;
  }
  std::int64_t conditional() {
    std::int64_t c = binary(0);
    if (peek() != "?")
      return c;
    ++m_at;
    std::int64_t a = conditional();
    if (peek() != ":") {
      m_failed = true;
      return 0;
    }
    ++m_at;
    std::int64_t b = conditional();
    return c ? a : b;
  }
  static int precedence(const std::string &op) {
    static const std::pair<const char *, int> kOps[] = {
        {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},  {">", 7},
        {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};
    for (const auto &[name, p] : kOps)
      if (op == name)
        return p;
    return -1;
  }
  std::int64_t binary(int minimum) {
    std::int64_t left = unary();
    for (int p = precedence(peek()); p > minimum && !m_failed; p = precedence(peek())) {
      std::string op = peek();
      ++m_at;
      std::int64_t right = binary(p);
      if ((op == "/" || op == "%") && right == 0) {
        m_failed = true;
        return 0;
      }
      std::uint64_t ul = static_cast<std::uint64_t>(left), ur = static_cast<std::uint64_t>(right);
      left = op == "||"   ? (left || right)
             : op == "&&" ? (left && right)
             : op == "|"  ? static_cast<std::int64_t>(ul | ur)
             : op == "^"  ? static_cast<std::int64_t>(ul ^ ur)
             : op == "&"  ? static_cast<std::int64_t>(ul & ur)
             : op == "==" ? left == right
             : op == "!=" ? left != right
             : op == "<"  ? left < right
             : op == ">"  ? left > right
             : op == "<=" ? left <= right
             : op == ">=" ? left >= right
             : op == "<<" ? static_cast<std::int64_t>(ul << (ur & 63))
             : op == ">>" ? left >> (ur & 63)
             : op == "+"  ? static_cast<std::int64_t>(ul + ur)
             : op == "-"  ? static_cast<std::int64_t>(ul - ur)
             : op == "*"  ? static_cast<std::int64_t>(ul * ur)
             : op == "/"  ? left / right
                          : left % right;
    }
    return left;
  }
  std::int64_t unary() {
    std::string t = peek();
    if (t.empty()) {
      m_failed = true;
      return 0;
    }
    ++m_at;
    if (t == "!")
      return !unary();
    if (t == "-")
      return -unary();
    if (t == "+")
      return unary();
    if (t == "~")
      return ~unary();
    if (t == "(") {
      std::int64_t v = conditional();
      if (peek() != ")")
        m_failed = true;
      ++m_at;
      return v;
    }
    if (!std::isdigit(static_cast<unsigned char>(t[0]))) {
      m_failed = true;
      return 0;
    }
    while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L'))
      t.pop_back();
    std::size_t used = 0;
    std::uint64_t v = 0;
    try {
      v = std::stoull(t, &used, 0);
    } catch (...) {
      m_failed = true;
    }
    if (used != t.size())
      m_failed = true;
    return static_cast<std::int64_t>(v);
  }

  void directive(const std::string &text) {
    std::vector<Token> tokens = lex(text);
    if (tokens.empty())
      return;
    const std::string &name = tokens[0].text;
    std::vector<Token> rest(tokens.begin() + 1, tokens.end());
    Mode current = mode();
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      Frame f{Mode::Inactive, false, false, current};
      if (current != Mode::Inactive) {
        std::optional<std::int64_t> v;
        if (name == "if") {
          v = evaluate(rest);
        } else if (!rest.empty() && rest[0].identifier) {
          auto it = m_macros.find(rest[0].text);
          bool known = it != m_macros.end() ? it->second.certain : !driverMayDefine(rest[0].text);
          if (known)
            v = (it != m_macros.end()) == (name == "ifdef");
        }
        branch(f, v);
      }
      m_frames.push_back(f);
    } else if (name == "elif" || name == "else") {
      if (m_frames.empty())
        return;
      Frame &f = m_frames.back();
      if (f.parent == Mode::Inactive || f.taken) {
        f.mode = Mode::Inactive;
        return;
      }
      std::optional<std::int64_t> v = name == "else" ? std::optional<std::int64_t>(1) : evaluate(rest);
      branch(f, v);
    } else if (name == "endif") {
      if (!m_frames.empty())
        m_frames.pop_back();
    } else if (current == Mode::Inactive) {
      return;
    } else if (name == "define") {
      std::size_t at = text.find("define") + 6;
      define(text.substr(at), current == Mode::Active && !m_unresolvedInclude);
    } else if (name == "undef" && !rest.empty()) {
      if (current == Mode::Active && !m_unresolvedInclude)
        m_macros.erase(rest[0].text);
      else
        m_macros[rest[0].text].certain = false; // may or may not be defined from here on
    } else if (name == "include") {
      m_unresolvedInclude = true; // SourceInliner left it: it may define anything the rest uses
    }
  }

  /// Sets the frame's mode for a branch whose condition is `v` (nullopt: undecided).
  void branch(Frame &f, std::optional<std::int64_t> v) {
    if (v && !*v) {
      f.mode = Mode::Inactive;
      return;
    }
    if (!v || f.parent == Mode::Uncertain || f.uncertainSeen) {
      f.mode = Mode::Uncertain;
      if (!v)
        f.uncertainSeen = true;
      return;
    }
    f.mode = Mode::Active;
    f.taken = true;
  }

  std::map<std::string, Macro> m_macros;
  std::vector<Frame> m_frames;
  std::vector<Token> m_text;
  bool m_unresolvedInclude = false;
};

std::string spelledType(std::vector<std::string> words) {
  static const std::map<std::string, std::string> kSpellings = {
      {"unsigned char", "uchar"},     {"unsigned short", "ushort"}, {"unsigned short int", "ushort"},
      {"unsigned int", "uint"},       {"unsigned", "uint"},         {"unsigned long", "ulong"},
      {"unsigned long int", "ulong"}, {"signed char", "char"},      {"signed short", "short"},
      {"short int", "short"},         {"signed int", "int"},        {"signed", "int"},
      {"signed long", "long"},        {"long int", "long"}};
  std::string joined;
  for (const std::string &w : words)
    joined += (joined.empty() ? "" : " ") + w;
  auto it = kSpellings.find(joined);
  return it != kSpellings.end() ? it->second : joined;
}

/// One parameter's declaration; nullopt where its meaning is not certain here.
std::optional<ParamInfo> readParameter(const std::vector<Token> &tokens) {
  std::optional<cl_kernel_arg_address_qualifier> space;
  int pointers = 0;
  bool pointeeConst = false;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string &t = tokens[i].text;
    if (t == "__attribute__") { // skip __attribute__((...))
      int depth = 0;
      for (++i; i < tokens.size(); ++i) {
        depth += tokens[i].text == "(" ? 1 : tokens[i].text == ")" ? -1 : 0;
        if (depth == 0)
          break;
      }
      continue;
    }
    if (t == "global" || t == "__global")
      space = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    else if (t == "local" || t == "__local")
      space = CL_KERNEL_ARG_ADDRESS_LOCAL;
    else if (t == "constant" || t == "__constant")
      space = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    else if (t == "private" || t == "__private")
      space = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    else if (t == "const" || t == "__const")
      pointeeConst = pointeeConst || pointers == 0;
    else if (t == "volatile" || t == "restrict" || t == "__restrict" || t == "__restrict__" ||
             t == "read_only" || t == "__read_only" || t == "write_only" || t == "__write_only" ||
             t == "read_write" || t == "__read_write")
      continue;
    else if (t == "*")
      ++pointers;
    else if (tokens[i].identifier && t != "generic" && t != "__generic" && t != "pipe")
      words.push_back(t);
    else
      return std::nullopt; // arrays, pipes, the generic space, anything unexpected
  }
  if (words.size() < 2 || pointers > 1)
    return std::nullopt;
  ParamInfo p;
  p.name = words.back();
  words.pop_back();
  p.type = spelledType(words) + (pointers ? "*" : "");
  bool image =
      p.type.rfind("image", 0) == 0 && p.type.size() > 2 && p.type.compare(p.type.size() - 2, 2, "_t") == 0;
  if (pointers) {
    if (!space || *space == CL_KERNEL_ARG_ADDRESS_PRIVATE)
      return std::nullopt;
    p.qualifier = *space;
  } else {
    if (space && *space != CL_KERNEL_ARG_ADDRESS_PRIVATE)
      return std::nullopt;
    p.qualifier = image ? CL_KERNEL_ARG_ADDRESS_GLOBAL : CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
  p.haveQualifier = true;
  // CL_KERNEL_ARG_TYPE_CONST as drivers answer it: a pointer whose pointee is const, or a constant pointer
  // (what it points to cannot be written); a const scalar is passed by value and is not reported const.
  p.isConst = pointers && (pointeeConst || *space == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  return p;
}

} // namespace

std::map<std::string, std::vector<ParamInfo>> readKernelSignatures(const std::string &source,
                                                                   const std::string &options) {
  std::vector<Token> text = Preprocessor(options).run(source);
  std::map<std::string, std::vector<ParamInfo>> found;
  std::set<std::string> refused;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i].opaque || (text[i].text != "kernel" && text[i].text != "__kernel"))
      continue;
    bool certain = text[i].certain;
    std::size_t j = i + 1;
    std::string name;
    bool sawVoid = false;
    for (; j < text.size() && j < i + 256; ++j) {
      certain = certain && text[j].certain && !text[j].opaque;
      if (text[j].text == "__attribute__") {
        int depth = 0;
        for (++j; j < text.size(); ++j) {
          certain = certain && text[j].certain && !text[j].opaque;
          depth += text[j].text == "(" ? 1 : text[j].text == ")" ? -1 : 0;
          if (depth == 0)
            break;
        }
      } else if (text[j].text == "void") {
        sawVoid = true;
      } else if (sawVoid && text[j].identifier && j + 1 < text.size() && text[j + 1].text == "(") {
        name = text[j].text;
        break;
      } else if (text[j].text == "(" || text[j].text == ";" || text[j].text == "{") {
        break;
      }
    }
    if (name.empty())
      continue;
    // The parameter list, split at top-level commas; a definition follows it.
    std::vector<std::vector<Token>> params(1);
    int depth = 0;
    std::size_t k = j + 2; // past the name and the opening parenthesis
    for (; k < text.size(); ++k) {
      const Token &t = text[k];
      certain = certain && t.certain && !t.opaque;
      if (t.text == "(" || t.text == "[")
        ++depth;
      else if ((t.text == ")" || t.text == "]") && depth-- == 0)
        break;
      if (t.text == "," && depth == 0)
        params.emplace_back();
      else
        params.back().push_back(t);
    }
    if (k + 1 >= text.size() || text[k + 1].text != "{")
      continue; // a declaration (or something this reader does not follow)
    certain = certain && text[k + 1].certain;
    if (params.size() == 1 && (params[0].empty() || (params[0].size() == 1 && params[0][0].text == "void")))
      params.clear();
    std::vector<ParamInfo> infos;
    for (const auto &tokens : params) {
      std::optional<ParamInfo> p = readParameter(tokens);
      if (!p) {
        certain = false;
        break;
      }
      infos.push_back(*p);
    }
    if (!certain || found.count(name) || refused.count(name)) {
      found.erase(name); // a second definition (in another branch, or not certain): neither is trusted
      refused.insert(name);
      continue;
    }
    found[name] = std::move(infos);
  }
  return found;
}

} // namespace clcapture::layer
