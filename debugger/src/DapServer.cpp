//===- DapServer.cpp - The Debug Adapter Protocol over standard input and output ---===//
#include "DapServer.h"

#include "DapTarget.h"

#include <regex>

namespace clcapture::debug {

using nlohmann::json;

namespace {

// Variables references: the focused work-item's names by the memory they are in (`info memory`'s sections).
constexpr int kPrivate = 1;
constexpr int kLocal = 2;
constexpr int kGlobal = 3;

// The "  name = value" lines of one section ("private:", "local:", "global:") of `info memory`.
json variableList(const std::string &text, const std::string &section) {
  json list = json::array();
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ') {
      inside = line == section + ":";
      continue;
    }
    auto equals = line.find(" = ");
    if (!inside || equals == std::string::npos || equals < 2)
      continue;
    list.push_back({{"name", line.substr(2, equals - 2)},
                    {"value", line.substr(equals + 3)},
                    {"variablesReference", 0}});
  }
  return list;
}

} // namespace

DapServer::DapServer(std::istream &in, std::ostream &out, std::ostringstream &sessionOutput)
    : m_in(in), m_out(out), m_sessionOutput(sessionOutput) {}

std::optional<json> DapServer::readMessage() {
  std::size_t length = 0;
  bool any = false;
  for (std::string line; std::getline(m_in, line);) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (any)
        break;
      continue;
    }
    any = true;
    const std::string header = "Content-Length:";
    if (line.compare(0, header.size(), header) == 0)
      length = static_cast<std::size_t>(std::stoull(line.substr(header.size())));
  }
  if (!any || length == 0 || length > (64u << 20))
    return std::nullopt;
  std::string body(length, '\0');
  if (!m_in.read(body.data(), static_cast<std::streamsize>(length)))
    return std::nullopt;
  json message = json::parse(body, nullptr, false);
  if (message.is_discarded() || !message.is_object())
    return json{{"type", "request"}, {"command", "<malformed>"}, {"seq", 0}};
  return message;
}

void DapServer::send(json message) {
  message["seq"] = m_seq++;
  std::string text = message.dump();
  m_out << "Content-Length: " << text.size() << "\r\n\r\n" << text;
  m_out.flush();
}

void DapServer::respond(const json &request, bool success, json body, const std::string &message) {
  json response = {{"type", "response"},
                   {"request_seq", request.value("seq", 0)},
                   {"success", success},
                   {"command", request.value("command", std::string())},
                   {"body", std::move(body)}};
  if (!message.empty())
    response["message"] = message;
  send(response);
}

void DapServer::event(const std::string &name, json body) {
  send({{"type", "event"}, {"event", name}, {"body", std::move(body)}});
}

void DapServer::flushOutput() {
  std::string text = m_sessionOutput.str();
  if (text.empty())
    return;
  m_sessionOutput.str({});
  event("output", {{"category", "console"}, {"output", text}});
}

void DapServer::reportStop() {
  if (m_session->finished()) {
    if (!m_terminated) {
      event("terminated");
      event("exited", {{"exitCode", 0}});
      m_terminated = true;
    }
    return;
  }
  event("stopped", {{"reason", m_session->stopReason()},
                    {"threadId", 1},
                    {"allThreadsStopped", true},
                    {"description", m_session->focusName()}});
}

std::optional<std::string> DapServer::next(const std::string &) {
  flushOutput();
  if (m_resumed) {
    m_resumed = false;
    reportStop();
  }
  while (true) {
    auto message = readMessage();
    if (!message)
      return std::nullopt; // the client went away: the session ends
    const json &request = *message;
    const std::string command = request.value("command", std::string());
    // Requests that move the launch become the session's commands.
    static const std::map<std::string, std::string> moving = {
        {"continue", "continue"},     {"next", "next"},
        {"stepIn", "step"},           {"stepOut", "finish"},
        {"stepBack", "reverse-step"}, {"reverseContinue", "reverse-continue"}};
    if (command == "configurationDone") {
      respond(request, true);
      if (!m_session->started()) {
        m_resumed = true;
        return m_stopOnEntry ? "step" : "run";
      }
      continue;
    }
    if (auto it = moving.find(command); it != moving.end()) {
      if (!m_session->started() || m_session->finished()) {
        respond(request, false, json::object(),
                m_session->finished() ? "the launch has finished" : "not started");
        continue;
      }
      respond(request, true, command == "continue" ? json{{"allThreadsContinued", true}} : json::object());
      m_resumed = true;
      return it->second;
    }
    if (command == "disconnect" || command == "terminate") {
      respond(request, true);
      return "quit";
    }
    if (!answer(request))
      respond(request, false, json::object(), "clcapture-debug does not support the request " + command);
    flushOutput();
  }
}

bool DapServer::answer(const json &request) {
  const std::string command = request.value("command", std::string());
  const json arguments = request.value("arguments", json::object());
  if (command == "initialize") {
    respond(request, true,
            {{"supportsConfigurationDoneRequest", true},
             {"supportsConditionalBreakpoints", true},
             {"supportsDataBreakpoints", true},
             {"supportsStepBack", true},
             {"supportsSetVariable", true},
             {"supportsEvaluateForHovers", true},
             {"supportsTerminateRequest", true}});
    event("initialized");
    return true;
  }
  if (command == "launch" || command == "attach") {
    m_launched = true;
    m_stopOnEntry = arguments.value("stopOnEntry", false);
    respond(request, true);
    return true;
  }
  if (command == "setBreakpoints") {
    setBreakpoints(request);
    return true;
  }
  if (command == "setExceptionBreakpoints") {
    respond(request, true, {{"breakpoints", json::array()}});
    return true;
  }
  if (command == "dataBreakpointInfo") {
    std::string name = arguments.value("name", std::string());
    respond(request, true,
            {{"dataId", name}, {"description", name}, {"accessTypes", {"write"}}, {"canPersist", false}});
    return true;
  }
  if (command == "setDataBreakpoints") {
    setDataBreakpoints(request);
    return true;
  }
  if (command == "threads") {
    respond(request, true, {{"threads", {{{"id", 1}, {"name", m_session->focusName()}}}}});
    return true;
  }
  if (command == "stackTrace") {
    stackTrace(request);
    return true;
  }
  if (command == "scopes") {
    respond(request, true,
            {{"scopes",
              {{{"name", "Private"}, {"variablesReference", kPrivate}, {"expensive", false}},
               {{"name", "Local"}, {"variablesReference", kLocal}, {"expensive", false}},
               {{"name", "Global"}, {"variablesReference", kGlobal}, {"expensive", false}}}}});
    return true;
  }
  if (command == "variables") {
    variables(request);
    return true;
  }
  if (command == "setVariable") {
    setVariable(request);
    return true;
  }
  if (command == "evaluate") {
    evaluate(request);
    return true;
  }
  return false;
}

void DapServer::setBreakpoints(const json &request) {
  const json arguments = request.value("arguments", json::object());
  std::string path = arguments.value("source", json::object()).value("path", std::string());
  std::string file = path.substr(path.rfind('/') + 1);
  bool failed = false;
  for (int number : m_breakpointsBySource[path])
    m_session->runQuietly("delete " + std::to_string(number), failed);
  m_breakpointsBySource[path].clear();
  json result = json::array();
  static const std::regex added(R"(Breakpoint (\d+) at \S+:(\d+))");
  for (const json &b : arguments.value("breakpoints", json::array())) {
    unsigned line = b.value("line", 0u);
    std::string spec = "break " + file + ":" + std::to_string(line);
    if (b.contains("condition") && !b["condition"].get<std::string>().empty())
      spec += " if " + b["condition"].get<std::string>();
    std::string text = m_session->runQuietly(spec, failed);
    std::smatch m;
    if (!failed && std::regex_search(text, m, added)) {
      int number = std::stoi(m[1]);
      m_breakpointsBySource[path].push_back(number);
      result.push_back({{"id", number}, {"verified", true}, {"line", std::stoi(m[2])}});
    } else {
      result.push_back({{"verified", false}, {"line", line}, {"message", text}});
    }
  }
  respond(request, true, {{"breakpoints", result}});
}

void DapServer::setDataBreakpoints(const json &request) {
  bool failed = false;
  for (int number : m_dataBreakpoints)
    m_session->runQuietly("delete " + std::to_string(number), failed);
  m_dataBreakpoints.clear();
  json result = json::array();
  static const std::regex added(R"(Watchpoint (\d+):)");
  for (const json &b : request.value("arguments", json::object()).value("breakpoints", json::array())) {
    std::string text = m_session->runQuietly("watch " + b.value("dataId", std::string()), failed);
    std::smatch m;
    if (!failed && std::regex_search(text, m, added)) {
      m_dataBreakpoints.push_back(std::stoi(m[1]));
      result.push_back({{"id", std::stoi(m[1])}, {"verified", true}});
    } else {
      result.push_back({{"verified", false}, {"message", text}});
    }
  }
  respond(request, true, {{"breakpoints", result}});
}

void DapServer::stackTrace(const json &request) {
  bool failed = false;
  std::string text = m_session->runQuietly("backtrace", failed);
  json frames = json::array();
  static const std::regex frame(R"(#(\d+)\s+(\S+) \(\) at (\S+):(\d+))");
  std::string kernelPath = std::filesystem::absolute(m_session->kernelFile()).string();
  for (std::sregex_iterator it(text.begin(), text.end(), frame), end; it != end; ++it) {
    std::string file = (*it)[3];
    std::string path = file == m_session->kernelFile().filename().string()
                           ? kernelPath
                           : (std::filesystem::path(kernelPath).parent_path() / file).string();
    frames.push_back({{"id", std::stoi((*it)[1])},
                      {"name", (*it)[2]},
                      {"line", std::stoi((*it)[4])},
                      {"column", 1},
                      {"source", {{"name", file}, {"path", path}}}});
  }
  respond(request, !failed, {{"stackFrames", frames}, {"totalFrames", frames.size()}}, failed ? text : "");
}

void DapServer::variables(const json &request) {
  int reference = request.value("arguments", json::object()).value("variablesReference", 0);
  bool failed = false;
  std::string text = m_session->runQuietly("info memory", failed);
  const char *section = reference == kLocal ? "local" : reference == kGlobal ? "global" : "private";
  respond(request, !failed, {{"variables", failed ? json::array() : variableList(text, section)}},
          failed ? text : "");
}

std::pair<bool, std::string> DapServer::printValue(const std::string &expression) {
  bool failed = false;
  std::string text = m_session->runQuietly("print " + expression, failed);
  static const std::regex value(R"(\$\d+ = (.*))");
  std::smatch m;
  if (failed || !std::regex_search(text, m, value))
    return {false, text.rfind("error: ", 0) == 0 ? text.substr(7, text.find('\n') - 7) : text};
  return {true, m[1]};
}

void DapServer::setVariable(const json &request) {
  const json arguments = request.value("arguments", json::object());
  std::string name = arguments.value("name", std::string());
  bool failed = false;
  std::string text =
      m_session->runQuietly("set var " + name + " = " + arguments.value("value", std::string()), failed);
  if (failed) {
    respond(request, false, json::object(), text);
    return;
  }
  auto [ok, value] = printValue(name);
  respond(request, ok, {{"value", value}}, ok ? "" : value);
}

void DapServer::evaluate(const json &request) {
  auto [ok, value] =
      printValue(request.value("arguments", json::object()).value("expression", std::string()));
  respond(request, ok, {{"result", value}, {"variablesReference", 0}}, ok ? "" : value);
}

} // namespace clcapture::debug
