//===- FunctionWalker.cpp - One function's record sites -------------------===//

#include "FunctionWalker.h"

#include <clang/AST/Attr.h>
#include <clang/Basic/SourceManager.h>

namespace clcapture::instrument {

namespace {

bool isBarrierCall(const clang::Expr *e) {
  const auto *call = llvm::dyn_cast<clang::CallExpr>(e->IgnoreParenImpCasts());
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier())
    return false;
  llvm::StringRef name = callee->getName();
  return name == "barrier" || name == "work_group_barrier" || name == "mem_fence";
}

/// A compound or control statement whose first and last tokens come from one macro expansion, such as
/// `SWAP(a, b)` (`do { … } while (0)`): recorded as one statement when it is that whole expansion. (A block
/// between two macros, `BEGIN … END`, is not: its statements are the file's.)
bool fromMacro(const clang::Stmt *s, const clang::SourceManager &sm) {
  if (!llvm::isa<clang::CompoundStmt>(s) && !llvm::isa<clang::DoStmt>(s) && !llvm::isa<clang::IfStmt>(s) &&
      !llvm::isa<clang::WhileStmt>(s) && !llvm::isa<clang::ForStmt>(s) && !llvm::isa<clang::SwitchStmt>(s))
    return false;
  clang::SourceLocation begin = s->getBeginLoc(), end = s->getEndLoc();
  return begin.isMacroID() && end.isMacroID() &&
         sm.getExpansionRange(begin).getBegin() == sm.getExpansionRange(end).getBegin();
}

/// Everything a statement assigns, anywhere in it, and the variables declared inside it.
void collectAll(const clang::Stmt *s, ExpressionChanges &changes,
                std::set<const clang::VarDecl *> &declared) {
  if (!s)
    return;
  if (const auto *e = llvm::dyn_cast<clang::Expr>(s)) {
    collectChanges(e, false, changes);
    return;
  }
  if (const auto *decl = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : decl->decls())
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(d)) {
        declared.insert(var);
        collectChanges(var->getInit(), false, changes);
      }
    return;
  }
  for (const clang::Stmt *child : s->children())
    collectAll(child, changes, declared);
}

} // namespace

FunctionWalker::FunctionWalker(InstrumentState &state, const clang::FunctionDecl *function,
                               std::string recordItems)
    : m_state(state), m_function(function), m_recordItems(std::move(recordItems)) {}

unsigned FunctionWalker::lineOf(clang::SourceLocation location) const {
  const clang::SourceManager &sm = m_state.text.sources();
  return sm.getPresumedLoc(sm.getExpansionLoc(location)).getLine();
}

std::string FunctionWalker::call(unsigned site, const std::vector<SiteValue> &values,
                                 std::size_t from) const {
  std::string text = "clcapture_rec_" + std::to_string(site) + "(clcapture_t, clcapture_s";
  for (std::size_t i = from; i < values.size(); ++i)
    text += ", " + values[i].argument;
  return text + ")";
}

unsigned FunctionWalker::addSite(trace::SiteKind kind, FileSpan where, const std::vector<SiteValue> &values,
                                 bool returnsFirst) {
  PlannedSite p;
  p.site.id = static_cast<unsigned>(m_state.sites.size());
  p.site.kind = kind;
  p.site.function = m_function->getNameAsString();
  p.site.line = m_state.text.line(where.begin);
  p.site.column = m_state.text.column(where.begin);
  p.site.text = m_state.text.collapsed(where);
  p.record.site = p.site.id;
  p.record.returnsFirst = returnsFirst;
  for (const SiteValue &v : values) {
    p.site.values.push_back(v.shown);
    p.record.params.push_back(v.param);
  }
  p.function = m_function;
  m_state.sites.push_back(std::move(p));
  return m_state.sites.back().site.id;
}

void FunctionWalker::recordAfter(unsigned site, unsigned end, const std::vector<SiteValue> &values) {
  m_state.edits.insert(end, EditSlot::Record, " " + call(site, values) + ";");
  PlannedSite &p = m_state.sites[site];
  p.injectable = true;
  p.recordOffset = end;
  p.injectSlot = EditSlot::Injection;
}

void FunctionWalker::run() {
  const auto *body = llvm::cast<clang::CompoundStmt>(m_function->getBody());
  const SourceText &text = m_state.text;
  unsigned open = *text.fileOffset(body->getLBracLoc()) + 1;
  unsigned scopeEnd = lineOf(body->getRBracLoc());
  std::vector<SiteValue> parameters;
  for (const clang::ParmVarDecl *p : m_function->parameters())
    if (auto v = m_state.values.variable(p)) {
      v->shown.declares = true;
      v->shown.scopeEndLine = scopeEnd;
      StatementValues::add(parameters, std::move(*v));
    }
  const clang::SourceManager &sm = text.sources();
  unsigned head = *text.fileOffset(sm.getExpansionLoc(m_function->getSourceRange().getBegin()));
  unsigned entry = addSite(trace::SiteKind::Entry, FileSpan{head, open - 1}, parameters, false);
  PlannedSite &site = m_state.sites[entry];
  site.injectable = true;
  site.recordOffset = open;
  site.injectSlot = EditSlot::BodyInjection;

  for (const clang::Stmt *child : body->body())
    walk(child, scopeEnd, nullptr);

  if (!m_recordItems.empty())
    m_state.edits.insertUser(
        open, EditSlot::BodyStart, " __global uint *clcapture_t = (", m_recordItems,
        ") ? clcapture_trace : 0; uint clcapture_seq = 0; uint *clcapture_s = &clcapture_seq;",
        "--record-items '" + m_recordItems + "'");
  if (m_needsConditionTemporary)
    m_state.edits.insert(open, EditSlot::BodyStart, " int clcapture_c;");
  m_state.edits.insert(open, EditSlot::BodyRecord, " " + call(entry, parameters) + ";");
}

void FunctionWalker::walk(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot) {
  if (!s)
    return;
  if (llvm::isa<clang::Expr>(s) || llvm::isa<clang::DeclStmt>(s)) {
    statement(s, scopeEnd, bodyRoot);
    return;
  }
  if (fromMacro(s, m_state.text.sources())) {
    opaque(s, bodyRoot);
    return;
  }
  if (const auto *compound = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    unsigned end = lineOf(compound->getRBracLoc());
    for (const clang::Stmt *child : compound->body())
      walk(child, end, nullptr);
    return;
  }
  if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(s)) {
    condition(branch->getCond(), {});
    walk(branch->getThen(), scopeEnd, branch->getThen());
    walk(branch->getElse(), scopeEnd, branch->getElse());
    return;
  }
  if (const auto *loop = llvm::dyn_cast<clang::WhileStmt>(s)) {
    condition(loop->getCond(), {});
    walk(loop->getBody(), scopeEnd, loop->getBody());
    return;
  }
  if (const auto *loop = llvm::dyn_cast<clang::DoStmt>(s)) {
    walk(loop->getBody(), scopeEnd, loop->getBody());
    condition(loop->getCond(), {});
    return;
  }
  if (const auto *loop = llvm::dyn_cast<clang::ForStmt>(s)) {
    forLoop(loop, scopeEnd);
    return;
  }
  if (const auto *ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
    returned(ret, bodyRoot);
    return;
  }
  walkChildren(s, scopeEnd, bodyRoot);
}

void FunctionWalker::walkChildren(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot) {
  if (const auto *choice = llvm::dyn_cast<clang::SwitchStmt>(s)) {
    walk(choice->getBody(), scopeEnd, choice->getBody());
    return;
  }
  // A label keeps the place of the statement it labels: braces, when needed, go around the label too.
  if (const auto *label = llvm::dyn_cast<clang::SwitchCase>(s)) {
    walk(label->getSubStmt(), scopeEnd, bodyRoot);
    return;
  }
  if (const auto *label = llvm::dyn_cast<clang::LabelStmt>(s)) {
    walk(label->getSubStmt(), scopeEnd, bodyRoot);
    return;
  }
  if (const auto *attributed = llvm::dyn_cast<clang::AttributedStmt>(s)) {
    walk(attributed->getSubStmt(), scopeEnd, bodyRoot);
    return;
  }
  // break, continue, goto, a null statement: nothing recorded.
}

bool FunctionWalker::braces(const clang::Stmt *bodyRoot, unsigned end) {
  if (m_braced.count(bodyRoot))
    return true;
  auto root = m_state.text.span(bodyRoot->getSourceRange());
  if (!root)
    return false;
  m_state.edits.insert(root->begin, EditSlot::OpenBrace, "{ ");
  m_state.edits.insert(end, EditSlot::CloseBrace, " }");
  m_braced.insert(bodyRoot);
  return true;
}

std::vector<SiteValue> FunctionWalker::declarationValues(const clang::DeclStmt *decl, unsigned scopeEnd,
                                                         bool &initialised) {
  std::vector<SiteValue> values;
  initialised = false;
  for (const clang::Decl *d : decl->decls()) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(d);
    if (!var || !var->hasInit() || var->isStaticLocal())
      continue;
    initialised = true;
    ExpressionChanges changes;
    collectChanges(var->getInit(), false, changes);
    for (SiteValue &v : m_state.values.values(changes, true))
      StatementValues::add(values, std::move(v));
    if (auto v = m_state.values.variable(var)) {
      v->shown.declares = true;
      v->shown.scopeEndLine = scopeEnd;
      StatementValues::add(values, std::move(*v));
    }
  }
  return values;
}

void FunctionWalker::statement(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot) {
  auto span = m_state.text.span(s->getSourceRange());
  if (!span)
    return;
  std::vector<SiteValue> values;
  trace::SiteKind kind = trace::SiteKind::Statement;
  unsigned end = span->end;
  if (const auto *decl = llvm::dyn_cast<clang::DeclStmt>(s)) {
    bool initialised = false;
    values = declarationValues(decl, scopeEnd, initialised);
    if (!initialised)
      return;
  } else {
    // The expression statement's `;` is the file's (a macro that writes its own `;` has no place to record).
    auto semicolon = m_state.text.tokenAt(span->end, clang::tok::semi);
    if (!semicolon)
      return;
    end = semicolon->end;
    const auto *e = llvm::cast<clang::Expr>(s);
    if (isBarrierCall(e)) {
      kind = trace::SiteKind::Barrier;
    } else {
      ExpressionChanges changes;
      collectChanges(e, false, changes);
      values = m_state.values.values(changes, true);
    }
  }
  if (bodyRoot && !braces(bodyRoot, end))
    return;
  unsigned site = addSite(kind, FileSpan{span->begin, end}, values, false);
  recordAfter(site, end, values);
}

void FunctionWalker::opaque(const clang::Stmt *s, const clang::Stmt *bodyRoot) {
  auto span = m_state.text.span(s->getSourceRange());
  if (!span)
    return;
  unsigned end = span->end;
  if (auto semicolon = m_state.text.tokenAt(end, clang::tok::semi))
    end = semicolon->end; // `SWAP(a, b);`: the `;` ends the do-while the macro wrote
  ExpressionChanges changes;
  std::set<const clang::VarDecl *> declared;
  collectAll(s, changes, declared);
  // Variables only: an lvalue's text is inside the macro.
  std::vector<SiteValue> values = m_state.values.values(changes, false, declared);
  if (bodyRoot && !braces(bodyRoot, end))
    return;
  unsigned site = addSite(trace::SiteKind::Statement, FileSpan{span->begin, end}, values, false);
  recordAfter(site, end, values);
}

void FunctionWalker::condition(const clang::Expr *cond, std::vector<SiteValue> extra) {
  if (!cond)
    return;
  auto span = m_state.text.span(cond->getSourceRange());
  if (!span)
    return;
  ExpressionChanges changes;
  collectChanges(cond, false, changes);
  std::vector<SiteValue> values{m_state.shapes.condition("")};
  for (SiteValue &v : extra)
    StatementValues::add(values, std::move(v));
  for (SiteValue &v : m_state.values.values(changes, false))
    StatementValues::add(values, std::move(v));
  unsigned site = addSite(trace::SiteKind::Condition, *span, values, true);
  std::string name = "clcapture_rec_" + std::to_string(site) + "(clcapture_t, clcapture_s, ";
  std::string others;
  for (std::size_t i = 1; i < values.size(); ++i)
    others += ", " + values[i].argument;
  // The other values are read after the condition: when it has side effects (`i++ < n`), through a
  // comma operator, which orders them; a call's arguments are not ordered.
  if (values.size() > 1 && cond->HasSideEffects(m_state.context, /*IncludePossibleEffects=*/true)) {
    m_needsConditionTemporary = true;
    m_state.edits.insert(span->begin, EditSlot::ExpressionStart, "(clcapture_c = (");
    m_state.edits.insert(span->end, EditSlot::ExpressionEnd,
                         ") ? 1 : 0, " + name + "clcapture_c" + others + "))");
    return;
  }
  m_state.edits.insert(span->begin, EditSlot::ExpressionStart, name + "(");
  m_state.edits.insert(span->end, EditSlot::ExpressionEnd, ") ? 1 : 0" + others + ")");
}

void FunctionWalker::forLoop(const clang::ForStmt *loop, unsigned scopeEnd) {
  unsigned loopEnd = lineOf(loop->getEndLoc());
  // What the condition's record shows besides the condition: the variables the init declares (their scope
  // is the loop) or assigns, and those the increment assigns.
  std::vector<SiteValue> extra;
  if (const auto *decl = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit())) {
    bool initialised = false;
    for (SiteValue &v : declarationValues(decl, loopEnd, initialised))
      if (!v.shown.lvalue)
        StatementValues::add(extra, std::move(v));
  } else if (const auto *init = llvm::dyn_cast_or_null<clang::Expr>(loop->getInit())) {
    ExpressionChanges changes;
    collectChanges(init, false, changes);
    for (SiteValue &v : m_state.values.values(changes, false))
      StatementValues::add(extra, std::move(v));
  }
  ExpressionChanges increment;
  collectChanges(loop->getInc(), false, increment);
  for (SiteValue &v : m_state.values.values(increment, false))
    StatementValues::add(extra, std::move(v));

  if (loop->getCond()) {
    condition(loop->getCond(), std::move(extra));
  } else if (auto at = emptyForCondition(loop)) {
    // `for (;;)`: a condition that is always 1, so each iteration still records its variables.
    std::vector<SiteValue> values{m_state.shapes.condition("1")};
    for (SiteValue &v : extra)
      StatementValues::add(values, std::move(v));
    auto header = m_state.text.span(clang::SourceRange(loop->getBeginLoc(), loop->getRParenLoc()));
    unsigned site = addSite(trace::SiteKind::Condition, header ? *header : FileSpan{*at, *at}, values, true);
    m_state.edits.insert(*at, EditSlot::ExpressionStart, call(site, values));
  }
  walk(loop->getBody(), scopeEnd, loop->getBody());
}

std::optional<unsigned> FunctionWalker::emptyForCondition(const clang::ForStmt *loop) const {
  const SourceText &text = m_state.text;
  std::optional<FileSpan> first;
  if (const clang::Stmt *init = loop->getInit()) {
    auto span = text.span(init->getSourceRange());
    if (!span)
      return std::nullopt;
    // A declaration's range ends with its `;`; an expression's does not.
    first = llvm::isa<clang::DeclStmt>(init) ? span : text.tokenAt(span->end, clang::tok::semi);
  } else {
    auto open = text.fileOffset(loop->getLParenLoc());
    if (!open)
      return std::nullopt;
    first = text.tokenAt(*open + 1, clang::tok::semi);
  }
  if (!first)
    return std::nullopt;
  auto second = text.tokenAt(first->end, clang::tok::semi);
  if (!second)
    return std::nullopt;
  return second->begin;
}

void FunctionWalker::returned(const clang::ReturnStmt *ret, const clang::Stmt *bodyRoot) {
  auto span = m_state.text.span(ret->getSourceRange());
  if (!span)
    return;
  auto semicolon = m_state.text.tokenAt(span->end, clang::tok::semi);
  if (!semicolon)
    return;
  FileSpan whole{span->begin, semicolon->end};
  const clang::Expr *value = ret->getRetValue();
  clang::QualType type = m_function->getReturnType();
  if (value && !type->isVoidType()) {
    auto valueSpan = m_state.text.span(value->getSourceRange());
    auto returned = valueSpan ? m_state.shapes.returned(type, "") : std::nullopt;
    if (returned) {
      // `return clcapture_rec_N(t, s, (value));`: the value is computed once, recorded, returned.
      unsigned site = addSite(trace::SiteKind::Return, whole, {*returned}, true);
      m_state.edits.insert(valueSpan->begin, EditSlot::ExpressionStart,
                           "clcapture_rec_" + std::to_string(site) + "(clcapture_t, clcapture_s, (");
      m_state.edits.insert(valueSpan->end, EditSlot::ExpressionEnd, "))");
      return;
    }
  }
  // Nothing to record but the return itself: the record goes before it.
  if (bodyRoot && !braces(bodyRoot, semicolon->end))
    return;
  unsigned site = addSite(trace::SiteKind::Return, whole, {}, false);
  m_state.edits.insert(span->begin, EditSlot::BeforeStatement, call(site, {}) + "; ");
}

} // namespace clcapture::instrument
