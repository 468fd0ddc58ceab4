//===- SourceInstrumenter.cpp - One OpenCL C source, instrumented ---------===//

#include "SourceInstrumenter.h"

#include "ClangParse.h"
#include "FunctionWalker.h"
#include "InstrumentState.h"

#include <algorithm>
#include <clang/AST/Attr.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>
#include <map>
#include <set>

namespace clcapture::instrument {

namespace {

constexpr const char *kTool = "clcapture-instrument: error: ";
constexpr const char *kHelperParameters = "__global uint *clcapture_t, uint *clcapture_s";

/// Every call with a direct callee, with the function it is written in (a walk of the bodies: Clang's
/// RecursiveASTVisitor draws a false -Wnonnull from GCC in its C++ parts).
class CallFinder {
public:
  struct Call {
    const clang::CallExpr *call = nullptr;
    const clang::FunctionDecl *in = nullptr;
  };

  void findIn(const clang::TranslationUnitDecl *unit) {
    for (const clang::Decl *d : unit->decls())
      if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d))
        if (f->doesThisDeclarationHaveABody())
          visit(f->getBody(), f);
  }

  std::vector<Call> calls;

private:
  void visit(const clang::Stmt *s, const clang::FunctionDecl *in) {
    if (!s)
      return;
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(s))
      if (call->getDirectCallee())
        calls.push_back({call, in});
    for (const clang::Stmt *child : s->children())
      visit(child, in);
  }
};

const clang::FunctionDecl *canonical(const clang::FunctionDecl *f) {
  return f ? f->getCanonicalDecl() : nullptr;
}

/// The instrumentation of one parsed translation unit; runs inside the parse, while the AST lives.
class Instrumenter {
public:
  Instrumenter(const InstrumentRequest &request, InstrumentOutcome &outcome)
      : m_request(request), m_outcome(outcome) {}

  void operator()(clang::ASTContext &context);

  /// Where the --record-items and --inject texts are in the instrumented source.
  std::vector<UserTextRange> userRanges;

private:
  void fail(int exitCode, const std::string &message) {
    m_outcome.exitCode = exitCode;
    m_outcome.errors.push_back(kTool + message);
  }
  std::vector<const clang::FunctionDecl *> mainFileDefinitions(clang::ASTContext &context) const;
  const clang::FunctionDecl *findKernel(const std::vector<const clang::FunctionDecl *> &definitions,
                                        clang::ASTContext &context);
  bool editable(const clang::FunctionDecl *function, const SourceText &text) const;
  void addParameters(const clang::FunctionDecl *function, const std::string &parameters,
                     InstrumentState &state);
  void passArguments(const std::vector<CallFinder::Call> &calls, InstrumentState &state);
  void addPreambles(InstrumentState &state);
  void addInjections(InstrumentState &state);
  void addInjectionHooks(InstrumentState &state);
  void writeLayout(const InstrumentState &state);

  const InstrumentRequest &m_request;
  InstrumentOutcome &m_outcome;
  const clang::FunctionDecl *m_kernel = nullptr;
  std::vector<const clang::FunctionDecl *> m_instrumented; ///< the kernel and the helpers, in source order
  std::set<const clang::FunctionDecl *> m_helpers;         ///< canonical declarations
  std::string m_hooks; ///< the injection hooks' default (empty) definitions
};

std::vector<const clang::FunctionDecl *> Instrumenter::mainFileDefinitions(clang::ASTContext &context) const {
  const clang::SourceManager &sm = context.getSourceManager();
  std::vector<std::pair<unsigned, const clang::FunctionDecl *>> found;
  for (const clang::Decl *d : context.getTranslationUnitDecl()->decls()) {
    const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d);
    if (!f || !f->doesThisDeclarationHaveABody() || f->isImplicit())
      continue;
    clang::SourceLocation at = sm.getExpansionLoc(f->getLocation());
    if (sm.isInMainFile(at))
      found.emplace_back(sm.getFileOffset(at), f);
  }
  std::stable_sort(found.begin(), found.end(), [](auto &a, auto &b) { return a.first < b.first; });
  std::vector<const clang::FunctionDecl *> out;
  for (auto &[offset, f] : found)
    out.push_back(f);
  return out;
}

const clang::FunctionDecl *
Instrumenter::findKernel(const std::vector<const clang::FunctionDecl *> &definitions,
                         clang::ASTContext &context) {
  std::vector<std::string> kernels;
  const clang::FunctionDecl *named = nullptr;
  for (const clang::Decl *d : context.getTranslationUnitDecl()->decls()) {
    const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d);
    if (!f || !f->doesThisDeclarationHaveABody() || !f->hasAttr<clang::OpenCLKernelAttr>())
      continue;
    kernels.push_back(f->getNameAsString());
    if (f->getName() == m_request.kernel)
      named = f;
  }
  if (named && std::find(definitions.begin(), definitions.end(), named) == definitions.end()) {
    fail(kExitSource, "kernel '" + m_request.kernel +
                          "' is defined in an included file; only the main file is instrumented");
    return nullptr;
  }
  if (named)
    return named;
  std::sort(kernels.begin(), kernels.end());
  std::string list = kernels.empty() ? "the program defines no kernel" : "the program's kernels are";
  for (std::size_t i = 0; i < kernels.size(); ++i)
    list += (i == 0 ? " '" : ", '") + kernels[i] + "'";
  fail(kExitCommandLine, "--kernel: no kernel named '" + m_request.kernel + "'; " + list);
  return nullptr;
}

/// Whether the function's body and every declaration's parameter list are written in the main file
/// (not by a macro), so that parameters and statements can be added.
bool Instrumenter::editable(const clang::FunctionDecl *function, const SourceText &text) const {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(function->getBody());
  if (!body || !text.fileOffset(body->getLBracLoc()) || !text.fileOffset(body->getRBracLoc()))
    return false;
  const clang::SourceManager &sm = text.sources();
  if (!text.fileOffset(sm.getExpansionLoc(function->getSourceRange().getBegin())))
    return false;
  for (const clang::FunctionDecl *d : function->redecls()) {
    clang::FunctionTypeLoc loc = d->getFunctionTypeLoc();
    if (!loc || !text.fileOffset(loc.getLParenLoc()) || !text.fileOffset(loc.getRParenLoc()))
      return false;
  }
  return true;
}

void Instrumenter::addParameters(const clang::FunctionDecl *function, const std::string &parameters,
                                 InstrumentState &state) {
  for (const clang::FunctionDecl *d : function->redecls()) {
    clang::FunctionTypeLoc loc = d->getFunctionTypeLoc();
    unsigned open = *state.text.fileOffset(loc.getLParenLoc());
    unsigned close = *state.text.fileOffset(loc.getRParenLoc());
    if (d->getNumParams() > 0) {
      state.edits.insert(close, EditSlot::CallArguments, ", " + parameters);
      continue;
    }
    // `f(void)`: the only change that is not an insertion.
    std::string inside = state.text.collapsed(FileSpan{open + 1, close});
    if (inside == "void") {
      auto word = state.text.tokenAt(open + 1, clang::tok::kw_void);
      if (word) {
        state.edits.replace(word->begin, word->end - word->begin, parameters);
        continue;
      }
    }
    state.edits.insert(close, EditSlot::CallArguments, parameters);
  }
}

void Instrumenter::passArguments(const std::vector<CallFinder::Call> &calls, InstrumentState &state) {
  std::set<const clang::FunctionDecl *> withoutTrace;
  for (const CallFinder::Call &c : calls) {
    const clang::FunctionDecl *callee = canonical(c.call->getDirectCallee());
    bool toKernel = callee == canonical(m_kernel);
    if (!toKernel && !m_helpers.count(callee))
      continue;
    // Where the `)` is written: in the file, a macro argument, or a macro body in the file (once for all
    // its expansions).
    auto close = state.text.spellingOffset(c.call->getRParenLoc());
    if (!close || state.edits.has(*close, EditSlot::CallArguments))
      continue;
    std::string arguments = toKernel ? "clcapture_t" : "clcapture_t, clcapture_s";
    state.edits.insert(*close, EditSlot::CallArguments, (c.call->getNumArgs() > 0 ? ", " : "") + arguments);
    if (c.in && canonical(c.in) != canonical(m_kernel) && !m_helpers.count(canonical(c.in)))
      withoutTrace.insert(c.in);
  }
  // Another kernel (or a function that could not be instrumented) calling an instrumented one passes null.
  for (const clang::FunctionDecl *f : withoutTrace) {
    const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(f->getBody());
    auto open = body ? state.text.fileOffset(body->getLBracLoc()) : std::nullopt;
    if (open)
      state.edits.insert(*open + 1, EditSlot::BodyStart,
                         " __global uint *clcapture_t = 0; uint *clcapture_s = 0;");
  }
}

void Instrumenter::addPreambles(InstrumentState &state) {
  std::map<const clang::FunctionDecl *, std::string> records;
  for (const PlannedSite &p : state.sites)
    records[p.function] += recordFunctionText(p.record);
  const clang::SourceManager &sm = state.text.sources();
  bool first = true;
  for (const clang::FunctionDecl *f : m_instrumented) {
    unsigned at = *state.text.fileOffset(sm.getExpansionLoc(f->getSourceRange().getBegin()));
    state.edits.insert(at, EditSlot::Preamble, (first ? itemFunctionText() : std::string()) + records[f]);
    first = false;
  }
}

void Instrumenter::addInjections(InstrumentState &state) {
  for (const Injection &i : m_request.injections) {
    std::string label = "--inject " + i.spec;
    if (i.site >= state.sites.size()) {
      fail(kExitCommandLine, label + ": there is no site " + std::to_string(i.site) + " (the kernel has " +
                                 std::to_string(state.sites.size()) + ")");
      continue;
    }
    const PlannedSite &p = state.sites[i.site];
    if (!p.injectable) {
      fail(kExitCommandLine,
           label + ": site " + std::to_string(i.site) + " is a " + trace::siteKindName(p.site.kind) +
               " site; an injection goes after a statement, a barrier or a function's entry");
      continue;
    }
    std::string guard = " if (clcapture_t && clcapture_item() == " + std::to_string(i.item) +
                        "u && *clcapture_s == " + std::to_string(i.sequence) + "u) { ";
    state.edits.insertUser(p.recordOffset, p.injectSlot, guard, i.lvalue + " = (" + i.value + ")", "; }",
                           label);
  }
}

void Instrumenter::addInjectionHooks(InstrumentState &state) {
  // Before each statement, barrier and entry site's record: CLCAPTURE_INJECT_<site>, empty unless the build
  // defines it (clcapture-debug's set var: docs/device-debugging.md, "Injection").
  for (std::size_t id = 0; id < state.sites.size(); ++id) {
    const PlannedSite &p = state.sites[id];
    if (!p.injectable)
      continue;
    state.edits.insert(p.recordOffset, p.injectSlot, " CLCAPTURE_INJECT_" + std::to_string(id));
    m_hooks += "#ifndef CLCAPTURE_INJECT_" + std::to_string(id) + "\n#define CLCAPTURE_INJECT_" +
               std::to_string(id) + "\n#endif\n";
  }
}

void Instrumenter::writeLayout(const InstrumentState &state) {
  trace::TraceLayout &layout = m_outcome.layout;
  layout.kernel = m_request.kernel;
  layout.source = m_request.file;
  layout.recordItems = m_request.recordItems;
  layout.traceArgument = m_kernel->getNumParams();
  const clang::SourceManager &sm = state.text.sources();
  for (const clang::FunctionDecl *f : m_instrumented) {
    trace::TraceFunction tf;
    tf.name = f->getNameAsString();
    tf.kernel = f == m_kernel;
    tf.line = sm.getPresumedLoc(sm.getExpansionLoc(f->getSourceRange().getBegin())).getLine();
    tf.endLine = sm.getPresumedLoc(sm.getExpansionLoc(f->getBody()->getEndLoc())).getLine();
    layout.functions.push_back(std::move(tf));
  }
  for (const PlannedSite &p : state.sites)
    layout.sites.push_back(p.site);
}

void Instrumenter::operator()(clang::ASTContext &context) {
  SourceText text(context.getSourceManager(), context.getLangOpts());
  std::vector<const clang::FunctionDecl *> definitions = mainFileDefinitions(context);
  m_kernel = findKernel(definitions, context);
  if (!m_kernel)
    return;
  if (!editable(m_kernel, text)) {
    fail(kExitSource, "kernel '" + m_request.kernel +
                          "' cannot be instrumented: its parameter list or body is "
                          "written by a macro");
    return;
  }
  CallFinder finder;
  finder.findIn(context.getTranslationUnitDecl());
  // A helper is instrumented when its parameters can be added everywhere it is declared and every call of it
  // can pass them (a call written inside an included file's macro cannot).
  std::set<const clang::FunctionDecl *> unreachableCalls;
  for (const CallFinder::Call &c : finder.calls)
    if (!text.spellingOffset(c.call->getRParenLoc()))
      unreachableCalls.insert(canonical(c.call->getDirectCallee()));
  for (const clang::FunctionDecl *f : definitions) {
    if (f == m_kernel) {
      m_instrumented.push_back(f);
      continue;
    }
    if (f->hasAttr<clang::OpenCLKernelAttr>() || unreachableCalls.count(canonical(f)) || !editable(f, text))
      continue;
    m_instrumented.push_back(f);
    m_helpers.insert(canonical(f));
  }

  InstrumentState state(context, text);
  for (const clang::FunctionDecl *f : m_instrumented) {
    FunctionWalker walker(state, f, f == m_kernel ? m_request.recordItems : std::string());
    walker.run();
    addParameters(f, f == m_kernel ? "__global uint *clcapture_trace" : kHelperParameters, state);
  }
  passArguments(finder.calls, state);
  addPreambles(state);
  addInjections(state);
  addInjectionHooks(state);
  if (m_outcome.exitCode != kExitWritten)
    return;
  writeLayout(state);
  // The hooks' default definitions come first; `#line 1` gives the kernel's lines their numbers back.
  std::string prologue = m_hooks.empty() ? std::string() : m_hooks + "#line 1\n";
  m_outcome.source = prologue + state.edits.apply(context.getSourceManager(), context.getLangOpts());
  userRanges = state.edits.userRanges();
  for (UserTextRange &r : userRanges) {
    r.begin += static_cast<unsigned>(prologue.size());
    r.end += static_cast<unsigned>(prologue.size());
  }
}

/// Clang's errors on the instrumented source: those inside an --inject or --record-items text are that
/// option's (exit 1); any other is the instrumenter's (exit 2).
void reportInstrumentedErrors(const std::vector<ClangDiagnostic> &diagnostics,
                              const std::vector<UserTextRange> &userRanges, const std::string &file,
                              InstrumentOutcome &outcome) {
  std::vector<std::string> user, other;
  for (const ClangDiagnostic &d : diagnostics) {
    if (!d.error)
      continue;
    const UserTextRange *in = nullptr;
    for (const UserTextRange &r : userRanges)
      if (d.mainOffset && *d.mainOffset >= r.begin && *d.mainOffset <= r.end)
        in = &r;
    if (in)
      user.push_back(kTool + in->label + ": " + d.text + " (where it goes: " + file + ":" +
                     std::to_string(d.line) + ")");
    else
      other.push_back((d.file.empty() ? std::string()
                                      : d.file + " (instrumented):" + std::to_string(d.line) + ":" +
                                            std::to_string(d.column) + ": ") +
                      "error: " + d.text);
  }
  outcome.source.clear();
  if (!user.empty()) {
    outcome.exitCode = kExitCommandLine;
    outcome.errors = std::move(user);
    return;
  }
  outcome.exitCode = kExitInstrumentedInvalid;
  outcome.errors.push_back(std::string(kTool) +
                           "the instrumented source does not compile (a construct "
                           "clcapture-instrument gets wrong; please report it with the kernel):");
  if (other.empty())
    other.push_back("(Clang gave no message)");
  outcome.errors.insert(outcome.errors.end(), other.begin(), other.end());
}

} // namespace

InstrumentOutcome instrumentSource(const InstrumentRequest &request) {
  InstrumentOutcome outcome;
  Instrumenter instrumenter(request, outcome);
  std::vector<ClangDiagnostic> diagnostics;
  ParseInput input{request.file, request.text, request.buildArgs, request.addressBits};
  if (!parseOpenCl(input, diagnostics, [&](clang::ASTContext &context) { instrumenter(context); })) {
    outcome.exitCode = kExitSource;
    outcome.errors.clear();
    outcome.errors.push_back(kTool + request.file + " does not parse:");
    for (const ClangDiagnostic &d : diagnostics)
      if (!d.warning) // errors and the notes that explain them
        outcome.errors.push_back(d.format());
    return outcome;
  }
  if (outcome.exitCode != kExitWritten)
    return outcome;
  // The instrumented text, parsed again under the same name (its #includes resolve the same way).
  std::vector<ClangDiagnostic> again;
  input.text = outcome.source;
  if (!parseOpenCl(input, again, {}))
    reportInstrumentedErrors(again, instrumenter.userRanges, request.file, outcome);
  return outcome;
}

} // namespace clcapture::instrument
