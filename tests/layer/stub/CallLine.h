//===- CallLine.h - One logged OpenCL call, written alike by the stub and the app -*- C++ -*-===//
//
// The Khronos ICD loader's test pattern: the stub driver logs what it received, the app logs what it sent,
// and the two logs must be equal. Both sides describe a call with the generated describeIn_/describeOut_
// functions (StubCalls_generated.h), which use this formatter: integers in decimal, handles and opaque
// pointers (host pointers, user data, callbacks) in hex, and pointed-to data by value: strings, arrays of
// their counted length, zero-terminated property lists, byte buffers of their stated size.
//
//===----------------------------------------------------------------------===//
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl_icd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace stub {

/// Out-arrays are logged up to this many elements (a count is the caller's claim, the buffer is real).
inline std::size_t clampCount(std::size_t n) {
  return n < 16 ? n : 16;
}

/// One log line: the call as described on entry, then what came back.
inline std::string joined(const std::string &in, const std::string &out) {
  return in + ") -> " + out;
}

class Line {
public:
  Line() = default;
  explicit Line(const char *entry) : m_text(entry) { m_text += '('; }

  /// Integers in decimal; any pointer (handle, host pointer, callback) as its address.
  template <typename T> Line &value(const char *name, T v) {
    field(name);
    m_text += format(v);
    return *this;
  }

  /// What an out-pointer holds after the call.
  template <typename T> Line &deref(const char *name, T *p) {
    field(name);
    m_text += p ? format(*p) : std::string("NULL");
    return *this;
  }

  Line &cstr(const char *name, const char *s) {
    field(name);
    m_text += s ? quoted(s, std::strlen(s)) : std::string("NULL");
    return *this;
  }

  /// OpenCL 1.2 §5.8.1: a string with no length (or a zero length) is NUL-terminated.
  Line &cstrs(const char *name, std::size_t n, const char *const *s, const std::size_t *lengths) {
    field(name);
    if (!s) {
      m_text += "NULL";
      return *this;
    }
    m_text += '[';
    for (std::size_t i = 0; i < n; ++i) {
      if (i)
        m_text += ", ";
      std::size_t len = lengths && lengths[i] ? lengths[i] : (s[i] ? std::strlen(s[i]) : 0);
      m_text += s[i] ? quoted(s[i], len) : std::string("NULL");
    }
    m_text += ']';
    return *this;
  }

  Line &binaries(const char *name, std::size_t n, const unsigned char *const *b, const std::size_t *lengths) {
    field(name);
    if (!b || !lengths) {
      m_text += "NULL";
      return *this;
    }
    m_text += '[';
    for (std::size_t i = 0; i < n; ++i) {
      if (i)
        m_text += ", ";
      m_text += hex(b[i], lengths[i]);
    }
    m_text += ']';
    return *this;
  }

  Line &bytes(const char *name, const void *p, std::size_t n) {
    field(name);
    m_text += hex(p, n);
    return *this;
  }

  template <typename T> Line &array(const char *name, const T *p, std::size_t n) {
    field(name);
    if (!p) {
      m_text += "NULL";
      return *this;
    }
    m_text += '[';
    for (std::size_t i = 0; i < n; ++i) {
      if (i)
        m_text += ", ";
      m_text += format(p[i]);
    }
    m_text += ']';
    return *this;
  }

  /// Property lists end at a zero key (OpenCL 1.2 §4.4); read no further than 64 entries.
  template <typename T> Line &zeroList(const char *name, const T *p) {
    field(name);
    if (!p) {
      m_text += "NULL";
      return *this;
    }
    m_text += '{';
    for (std::size_t i = 0; i < 64; ++i) {
      if (i)
        m_text += ", ";
      m_text += format(p[i]);
      if (p[i] == 0)
        break;
    }
    m_text += '}';
    return *this;
  }

  const std::string &str() const { return m_text; }

private:
  void field(const char *name) {
    if (!m_text.empty() && m_text.back() != '(')
      m_text += ", ";
    m_text += name;
    m_text += '=';
  }

  template <typename T> static std::string format(T v) {
    if constexpr (std::is_pointer_v<T>) {
      if (!v)
        return "NULL";
      std::uintptr_t bits = 0;
      static_assert(sizeof(v) == sizeof(bits), "pointers are one word");
      std::memcpy(&bits, &v, sizeof bits); // also for function pointers
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%jx", static_cast<std::uintmax_t>(bits));
      return buf;
    } else {
      static_assert(std::is_integral_v<T>, "OpenCL scalars are integers");
      return std::to_string(v);
    }
  }

  static std::string quoted(const char *s, std::size_t n) {
    std::string out = "\"";
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c >= 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    return out + "\"";
  }

  static std::string hex(const void *p, std::size_t n) {
    if (!p)
      return "NULL";
    std::string out = "<";
    const auto *b = static_cast<const unsigned char *>(p);
    for (std::size_t i = 0; i < n; ++i) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%02x", b[i]);
      out += buf;
    }
    return out + ">";
  }

  std::string m_text;
};

} // namespace stub
