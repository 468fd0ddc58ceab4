//===- FunctionWalker.h - One function's record sites -*- C++ -*-===//
//
// Walks one function defined in the kernel file (docs/device-debugging.md, "Sites"): an `entry` record after
// its `{`; a `statement` record after each declaration with initialisers and each expression statement; a
// `barrier` record after barrier(), work_group_barrier() and mem_fence(); each condition of if, while, do and
// for wrapped in its record's call; a `return` record around the returned value (or before a plain
// `return;`). Braces are added around a single-statement body that gets a record after it. A statement that
// is one whole macro expansion (`SWAP(a, b);`) is one site recording the variables it assigns; a statement
// inside a macro's body gets none.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "InstrumentState.h"

#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <set>
#include <string>

namespace clcapture::instrument {

class FunctionWalker {
public:
  /// `recordItems`: the kernel's --record-items predicate; empty for a helper.
  FunctionWalker(InstrumentState &state, const clang::FunctionDecl *function, std::string recordItems);

  /// Finds the function's sites (appended to the state's) and makes their edits, and the body's opening
  /// declarations (the kernel's trace pointer and sequence counter).
  void run();

private:
  void walk(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot);
  void walkChildren(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot);
  void statement(const clang::Stmt *s, unsigned scopeEnd, const clang::Stmt *bodyRoot);
  std::vector<SiteValue> declarationValues(const clang::DeclStmt *decl, unsigned scopeEnd, bool &initialised);
  void opaque(const clang::Stmt *s, const clang::Stmt *bodyRoot);
  void condition(const clang::Expr *cond, std::vector<SiteValue> extra);
  void forLoop(const clang::ForStmt *loop, unsigned scopeEnd);
  std::optional<unsigned> emptyForCondition(const clang::ForStmt *loop) const;
  void returned(const clang::ReturnStmt *ret, const clang::Stmt *bodyRoot);
  bool braces(const clang::Stmt *bodyRoot, unsigned end);
  void recordAfter(unsigned site, unsigned end, const std::vector<SiteValue> &values);

  unsigned addSite(trace::SiteKind kind, FileSpan where, const std::vector<SiteValue> &values,
                   bool returnsFirst);
  std::string call(unsigned site, const std::vector<SiteValue> &values, std::size_t from = 0) const;
  unsigned lineOf(clang::SourceLocation location) const;

  InstrumentState &m_state;
  const clang::FunctionDecl *m_function;
  std::string m_recordItems;
  std::set<const clang::Stmt *> m_braced;
  bool m_needsConditionTemporary = false;
};

} // namespace clcapture::instrument
