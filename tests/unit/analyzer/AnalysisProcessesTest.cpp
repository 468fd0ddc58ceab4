//===- AnalysisProcessesTest.cpp - Analyses in child processes, ended at their limits -===//
//
// The handler here stands for an analysis; each test's assertion is about what came back (the reply, the
// ending, the signal), never about how fast this machine is: an analysis that overruns its limit here runs
// forever, so only the kill can end it.

#include "clcapture/verify/AnalysisProcesses.h"

#include "clcapture/verify/AnalysisInChild.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clcapture;
using verify::AnalysisProcesses;

namespace {

/// Never returns: only a kill ends it.
[[noreturn]] void forever() {
  for (;;)
    ::pause();
}

std::unique_ptr<AnalysisProcesses> startOrFail(AnalysisProcesses::Handler handler) {
  std::string why;
  auto processes = AnalysisProcesses::start(std::move(handler), why);
  INFO(why);
  REQUIRE(processes);
  return processes;
}

AnalysisProcesses::Limits within(double seconds) {
  AnalysisProcesses::Limits limits;
  limits.deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  return limits;
}

} // namespace

TEST_CASE("a child's reply is the handler's, for each request, from several threads at once", "[processes]") {
  auto processes = startOrFail([](const std::string &request) {
    return "pid " + std::to_string(::getpid()) + " answers " + request + std::string(100000, '.');
  });
  std::vector<std::string> replies(6);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < replies.size(); ++i)
    threads.emplace_back([&, i] {
      auto outcome = processes->run("request " + std::to_string(i), {});
      if (outcome.ending == AnalysisProcesses::Ending::Replied)
        replies[i] = outcome.reply;
    });
  for (std::thread &t : threads)
    t.join();
  std::vector<std::string> pids;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    std::string suffix = " answers request " + std::to_string(i) + std::string(100000, '.');
    REQUIRE(replies[i].size() > suffix.size());
    CHECK(replies[i].substr(replies[i].size() - suffix.size()) == suffix);
    std::string pid = replies[i].substr(0, replies[i].size() - suffix.size());
    CHECK(pid != "pid " + std::to_string(::getpid())); // not this process
    pids.push_back(pid);
  }
  std::sort(pids.begin(), pids.end());
  CHECK(std::unique(pids.begin(), pids.end()) == pids.end()); // a process of its own each
}

TEST_CASE("a child still running at its deadline is ended there, and the next one runs", "[processes]") {
  auto processes = startOrFail([](const std::string &request) -> std::string {
    if (request == "hang")
      forever();
    return "done";
  });
  auto outcome = processes->run("hang", within(0.2));
  CHECK(outcome.ending == AnalysisProcesses::Ending::TimedOut);
  auto next = processes->run("quick", {});
  CHECK(next.ending == AnalysisProcesses::Ending::Replied);
  CHECK(next.reply == "done");
}

TEST_CASE("a crash in a child names its signal and ends only that child", "[processes]") {
  auto processes = startOrFail([](const std::string &request) -> std::string {
    if (request == "segv")
      ::raise(SIGSEGV);
    if (request == "abort")
      std::abort();
    if (request == "kill")
      ::raise(SIGKILL); // no handler runs: nothing to name
    return "fine";
  });
  auto segv = processes->run("segv", {});
  CHECK(segv.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(segv.signal == SIGSEGV);
  auto abort = processes->run("abort", {});
  CHECK(abort.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(abort.signal == SIGABRT);
  auto killed = processes->run("kill", {});
  CHECK(killed.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(killed.signal == 0);
  CHECK(processes->run("after", {}).reply == "fine");
}

TEST_CASE("a child that holds more private memory than its bound is ended", "[processes]") {
  auto processes = startOrFail([](const std::string &) -> std::string {
    static std::vector<char> held(256u << 20, '\1'); // written: resident, not shared with the parent
    (void)held;
    forever();
  });
  AnalysisProcesses::Limits limits;
  limits.memoryBytes = 64u << 20;
  auto outcome = processes->run("grow", limits);
  CHECK(outcome.ending == AnalysisProcesses::Ending::OverMemory);
  CHECK(outcome.memoryBytes > (64u << 20));
}

TEST_CASE("with a second thread running, no zygote is forked and the reason is given", "[processes]") {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread other([&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return done; });
  });
  std::string why;
  auto processes = AnalysisProcesses::start([](const std::string &) { return std::string(); }, why);
  {
    std::lock_guard<std::mutex> lock(m);
    done = true;
  }
  cv.notify_one();
  other.join();
  CHECK_FALSE(processes);
  CHECK(why.find("2 threads") != std::string::npos);
}

TEST_CASE("the words between driver and child: request, reply, and a child that did not reply",
          "[processes]") {
  verify::ChildRequest request{true, 7, 4.25};
  auto back = verify::parseRequest(verify::requestText(request));
  REQUIRE(back);
  CHECK(back->group);
  CHECK(back->id == 7);
  CHECK(back->limitSeconds == 4.25);
  CHECK_FALSE(verify::parseRequest("{}"));

  report::InstantiationResult r;
  r.verdict = report::Verdict::Unknown;
  r.errorKind = report::ErrorKind::Timeout;
  r.reason = "timed out after 3 queries";
  r.seconds = 2.5;
  r.peakMemoryBytes = 12345;
  r.headersRead = {"inc/a.h", "/usr/include/b.h"};
  report::Finding f;
  f.array = "out";
  f.message = "a race";
  f.values = {{"n", "0x3"}};
  r.findings.push_back(f);
  auto replied = verify::parseReply(verify::replyText(r));
  REQUIRE(replied);
  CHECK(replied->verdict == r.verdict);
  CHECK(replied->errorKind == r.errorKind);
  CHECK(replied->reason == r.reason);
  CHECK(replied->seconds == 2.5);
  CHECK(replied->peakMemoryBytes == r.peakMemoryBytes);
  CHECK(replied->headersRead == r.headersRead);
  REQUIRE(replied->findings.size() == 1);
  CHECK(replied->findings[0].message == "a race");
  CHECK(replied->findings[0].values[0].value == "0x3");
  CHECK_FALSE(verify::parseReply("not json"));

  CHECK(verify::softLimitSeconds(4) == Approx(3.8));
  CHECK(verify::softLimitSeconds(300) == Approx(299));
  CHECK(verify::softLimitSeconds(0) == 0);

  verify::VerifyOptions options;
  options.maxMemoryBytes = 512u << 20;
  AnalysisProcesses::Outcome timedOut;
  timedOut.ending = AnalysisProcesses::Ending::TimedOut;
  auto t = verify::resultOfEnding(timedOut, 4.5, options);
  CHECK(t.verdict == report::Verdict::Unknown);
  CHECK(t.errorKind == report::ErrorKind::Timeout);
  CHECK(t.reason.find("at the 4.5 s limit") != std::string::npos);
  AnalysisProcesses::Outcome crashed;
  crashed.ending = AnalysisProcesses::Ending::Crashed;
  crashed.signal = SIGSEGV;
  auto c = verify::resultOfEnding(crashed, 4.5, options);
  CHECK(c.verdict == report::Verdict::Error);
  CHECK(c.reason.find("signal 11") != std::string::npos);
  AnalysisProcesses::Outcome over;
  over.ending = AnalysisProcesses::Ending::OverMemory;
  over.memoryBytes = 900u << 20;
  auto m = verify::resultOfEnding(over, 4.5, options);
  CHECK(m.verdict == report::Verdict::Unknown);
  CHECK(m.reason.find("900 MiB, more than --max-memory=512 MiB") != std::string::npos);
  // With the step the child reported, the reason names it.
  timedOut.step = "while asking the solver whether the accesses at k.cl:3:5 and k.cl:3:5 race";
  CHECK(
      verify::resultOfEnding(timedOut, 4.5, options).reason ==
      "timed out: still running at the 4.5 s limit in a step that does not stop by itself, while asking the "
      "solver whether the accesses at k.cl:3:5 and k.cl:3:5 race, and ended there");
  crashed.step = "while compiling k.cl";
  CHECK(verify::resultOfEnding(crashed, 4.5, options)
            .reason.find("(signal 11, Segmentation fault), while "
                         "compiling k.cl;") != std::string::npos);
}

TEST_CASE("the step a child reported last comes with its ending: ended at its deadline, crashed, or replied",
          "[processes]") {
  auto processes = startOrFail([](const std::string &request) -> std::string {
    AnalysisProcesses::reportStep("while compiling");
    AnalysisProcesses::reportStep("while asking the solver whether " + request);
    if (request == "hang")
      forever();
    if (request == "segv")
      ::raise(SIGSEGV);
    return "answered " + request;
  });
  // Its two steps are sent as it starts, microseconds after the fork: 3 s leave room for a loaded machine.
  auto hung = processes->run("hang", within(3));
  CHECK(hung.ending == AnalysisProcesses::Ending::TimedOut);
  CHECK(hung.step == "while asking the solver whether hang");
  auto crashed = processes->run("segv", {});
  CHECK(crashed.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(crashed.signal == SIGSEGV);
  CHECK(crashed.step == "while asking the solver whether segv");
  auto replied = processes->run("quick", {});
  CHECK(replied.ending == AnalysisProcesses::Ending::Replied);
  CHECK(replied.reply == "answered quick"); // the step frames before it are not part of the reply
  CHECK(replied.step == "while asking the solver whether quick");
  AnalysisProcesses::reportStep("outside a child: nobody is told, nothing breaks");
}

TEST_CASE(
    "a child that crashed is asked once more in a fresh child, and a crash that comes again is the outcome",
    "[processes]") {
  // The marker file stands for a crash that happens now and then: the first child to see it removes it
  // and aborts, as cvc5 does when its time limit interrupts the SAT solver.
  std::string marker = "/tmp/clcapture-crash-once-" + std::to_string(::getpid());
  auto processes = startOrFail([&](const std::string &request) -> std::string {
    if (request.rfind("once", 0) == 0 && ::unlink(marker.c_str()) == 0)
      std::abort();
    if (request.rfind("always", 0) == 0)
      std::abort();
    return "answered " + request;
  });
  std::vector<int> retried;
  auto withLimit = [](const std::string &what) {
    return [what](double seconds) { return what + " " + std::to_string(static_cast<int>(seconds)); };
  };
  FILE *f = std::fopen(marker.c_str(), "w");
  REQUIRE(f);
  std::fclose(f);
  auto once = verify::runRetryingCrash(*processes, withLimit("once"), 0, 0,
                                       [&](int signal) { retried.push_back(signal); });
  CHECK(once.ending == AnalysisProcesses::Ending::Replied);
  CHECK(once.reply == "answered once 0");
  CHECK(retried == std::vector<int>{SIGABRT});
  retried.clear();
  auto always = verify::runRetryingCrash(*processes, withLimit("always"), 0, 0,
                                         [&](int signal) { retried.push_back(signal); });
  CHECK(always.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(always.signal == SIGABRT);
  CHECK(retried.size() == 1); // asked twice, not more
  retried.clear();
  // An answer, or a limit reached, is never asked again.
  auto fine = verify::runRetryingCrash(*processes, withLimit("fine"), 600, 0,
                                       [&](int signal) { retried.push_back(signal); });
  CHECK(fine.reply == "answered fine 599"); // the child's own limit: softLimitSeconds(600)
  CHECK(retried.empty());
  ::unlink(marker.c_str());
}

TEST_CASE("an abort inside a solver query under a time limit is the time limit, not a crash", "[processes]") {
  auto processes = startOrFail([](const std::string &request) -> std::string {
    if (request.rfind("compiling", 0) == 0) {
      AnalysisProcesses::reportStep("while compiling kernels/k.cl");
      std::abort();
    }
    AnalysisProcesses::reportStep("while asking the solver whether " + request);
    std::abort(); // cvc5's abort as a time limit interrupts CaDiCaL
  });
  auto withLimit = [](const std::string &what) {
    return [what](double seconds) { return what + " " + std::to_string(static_cast<int>(seconds)); };
  };
  int retries = 0;
  // A limit under 1 s leaves no time to ask again (on a machine so loaded that the child has not aborted by
  // then, the driver ends it at the limit: timed out as well).
  auto late = verify::runRetryingCrash(*processes, withLimit("late"), 0.9, 0, [&](int) { ++retries; });
  CHECK(late.ending == AnalysisProcesses::Ending::TimedOut);
  CHECK(retries == 0);
  // With time left it is asked again; the second abort is the limit too.
  auto twice = verify::runRetryingCrash(*processes, withLimit("twice"), 600, 0, [&](int) { ++retries; });
  CHECK(twice.ending == AnalysisProcesses::Ending::TimedOut);
  CHECK(twice.step.rfind("cvc5 aborted when a time limit interrupted its SAT solver, while asking the solver",
                         0) == 0);
  CHECK(retries == 1);
  auto result = verify::resultOfEnding(twice, 600, verify::VerifyOptions{});
  CHECK(result.verdict == report::Verdict::Unknown);
  CHECK(result.errorKind == report::ErrorKind::Timeout);
  CHECK(result.reason.find("cvc5 aborted") != std::string::npos);
  // Outside a solver query, or without a time limit, a crash stays a crash.
  retries = 0;
  auto compiling =
      verify::runRetryingCrash(*processes, withLimit("compiling"), 600, 0, [&](int) { ++retries; });
  CHECK(compiling.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(retries == 1);
  auto unlimited =
      verify::runRetryingCrash(*processes, withLimit("unlimited"), 0, 0, [&](int) { ++retries; });
  CHECK(unlimited.ending == AnalysisProcesses::Ending::Crashed);
  CHECK(unlimited.signal == SIGABRT);
}
