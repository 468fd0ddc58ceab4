//===- DapServer.h - The Debug Adapter Protocol over standard input and output -*- C++ -*-===//
//
// `clcapture-debug CAPTURE --dap` speaks the Debug Adapter Protocol (JSON messages behind a Content-Length
// header, built on nlohmann-json: Debian packages no C++ DAP library), so VS Code and any other DAP client
// step a captured launch. The server is the session's command input: a request that moves the launch
// (configurationDone, continue, next, stepIn, stepOut, stepBack, reverseContinue, disconnect) becomes the
// gdb command the session runs; every other request is answered from the paused session at once (its
// commands run quietly and their text is read back). What the session prints goes to the client as
// `output` events; the scopes are the memories (Private, Local, Global: `info memory`, a kernel argument's
// buffer under the memory it points into); each pause is a `stopped` event (one thread: the focused
// work-item), the launch's end `terminated` and `exited`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CommandInput.h"
#include "DapTarget.h"

#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace clcapture::debug {

class DapServer : public CommandInput {
public:
  /// `sessionOutput` is the stream the session prints on; its text is sent as output events.
  DapServer(std::istream &in, std::ostream &out, std::ostringstream &sessionOutput);
  void attach(DapTarget &session) { m_session = &session; }

  std::optional<std::string> next(const std::string &prompt) override;
  bool interactive() const override { return false; }

private:
  std::optional<nlohmann::json> readMessage();
  void send(nlohmann::json message);
  void respond(const nlohmann::json &request, bool success, nlohmann::json body = nlohmann::json::object(),
               const std::string &message = {});
  void event(const std::string &name, nlohmann::json body = nlohmann::json::object());
  void flushOutput();
  void reportStop();

  /// Answers a request that does not move the launch; false when it names no such request.
  bool answer(const nlohmann::json &request);
  void setBreakpoints(const nlohmann::json &request);
  void setDataBreakpoints(const nlohmann::json &request);
  void stackTrace(const nlohmann::json &request);
  void variables(const nlohmann::json &request);
  void setVariable(const nlohmann::json &request);
  void evaluate(const nlohmann::json &request);
  /// `print EXPR`'s value, or the error it printed.
  std::pair<bool, std::string> printValue(const std::string &expression);

  std::istream &m_in;
  std::ostream &m_out;
  std::ostringstream &m_sessionOutput;
  DapTarget *m_session = nullptr;
  long m_seq = 1;
  bool m_resumed = false;    ///< a request moved the launch: the next pause (or its end) is an event
  bool m_launched = false;   ///< `launch` came
  bool m_terminated = false; ///< `terminated` was sent
  bool m_stopOnEntry = false;
  std::map<std::string, std::vector<int>> m_breakpointsBySource; ///< the session's numbers, per source path
  std::vector<int> m_dataBreakpoints;
};

} // namespace clcapture::debug
