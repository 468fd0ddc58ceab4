//===- Expected.h - A value or an error message -----------------*- C++ -*-===//
//
// The capture library never throws across its API: operations that can fail on user input or I/O return an
// Expected<T> (a value or a message). Status is Expected<void>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace clcapture::format {

struct Failure {
  std::string message;
};

inline Failure fail(std::string message) {
  return Failure{std::move(message)};
}

template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : m_state(std::move(value)) {}
  Expected(Failure failure) : m_state(std::move(failure)) {}

  explicit operator bool() const { return m_state.index() == 0; }
  bool ok() const { return m_state.index() == 0; }
  T &value() {
    assert(ok() && "value() of a failed Expected");
    return std::get<0>(m_state);
  }
  const T &value() const {
    assert(ok() && "value() of a failed Expected");
    return std::get<0>(m_state);
  }
  T &operator*() { return value(); }
  T *operator->() { return &value(); }
  const std::string &error() const {
    assert(!ok() && "error() of a successful Expected");
    return std::get<1>(m_state).message;
  }

private:
  std::variant<T, Failure> m_state;
};

template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Failure failure) : m_ok(false), m_message(std::move(failure.message)) {}
  explicit operator bool() const { return m_ok; }
  bool ok() const { return m_ok; }
  const std::string &error() const { return m_message; }

private:
  bool m_ok = true;
  std::string m_message;
};

using Status = Expected<void>;

} // namespace clcapture::format
