//===- StatementValues.h - What a statement changes -*- C++ -*-===//
//
// docs/device-debugging.md, "Sites": a statement's record holds each variable it declares, each variable it
// assigns (`=`, `op=`, `++`, `--`), each other lvalue it assigns by its source text (`s[lid]`, `p.x`), and
// each private variable whose address it passes (`f(&x)`). The record is read right after the statement, so
// an lvalue is recorded only when reading it again is harmless and names the same place: no side effects, not
// volatile, not assigned only on one arm of `&&`, `||` or `?:` (its index may be out of range when the
// arm is not taken), and no variable in it assigned by the same statement.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "SourceText.h"
#include "ValueShapes.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <set>
#include <vector>

namespace clcapture::instrument {

/// What an expression changes, in evaluation (source) order.
struct ExpressionChanges {
  struct Change {
    const clang::Expr *lvalue = nullptr; ///< the assigned (or address-passed) lvalue, parentheses stripped
    bool conditional = false;            ///< on an arm of &&, || or ?: only
    bool addressPassed = false;          ///< `&x`: x may change through the pointer
  };
  std::vector<Change> changes;
  std::set<const clang::VarDecl *> assignedVariables;
};

/// Collects what `e` assigns; unevaluated operands (sizeof, vec_step) are skipped.
void collectChanges(const clang::Expr *e, bool conditional, ExpressionChanges &out);

/// The variable an lvalue names, when it is a plain variable.
const clang::VarDecl *plainVariable(const clang::Expr *lvalue);

class StatementValues {
public:
  StatementValues(const clang::ASTContext &context, const SourceText &text, const ValueShapes &shapes);

  /// The values of the changes: variables always, other lvalues when `withLvalues` (see the file comment);
  /// `declared` are excluded (declared inside a macro's block, gone after it).
  std::vector<SiteValue> values(const ExpressionChanges &changes, bool withLvalues,
                                const std::set<const clang::VarDecl *> &declared = {}) const;

  /// A variable by name, or nothing when its type cannot be recorded.
  std::optional<SiteValue> variable(const clang::VarDecl *var) const;

  /// Appends `value` unless a value of that name is there; a declaring one replaces a plain one.
  static void add(std::vector<SiteValue> &values, SiteValue value);

private:
  std::optional<SiteValue> lvalue(const clang::Expr *e, const ExpressionChanges &changes) const;

  const clang::ASTContext &m_context;
  const SourceText &m_text;
  const ValueShapes &m_shapes;
};

} // namespace clcapture::instrument
