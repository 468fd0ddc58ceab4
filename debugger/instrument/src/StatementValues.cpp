//===- StatementValues.cpp - What a statement changes ---------------------===//

#include "StatementValues.h"

#include <clang/AST/ExprCXX.h>

namespace clcapture::instrument {

namespace {

/// Whether `e` mentions one of `variables`.
bool mentions(const clang::Stmt *e, const std::set<const clang::VarDecl *> &variables) {
  if (!e)
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (variables.count(var))
        return true;
  for (const clang::Stmt *child : e->children())
    if (mentions(child, variables))
      return true;
  return false;
}

void collectChildren(const clang::Stmt *e, bool conditional, ExpressionChanges &out) {
  for (const clang::Stmt *child : e->children())
    if (const auto *expr = llvm::dyn_cast_or_null<clang::Expr>(child))
      collectChanges(expr, conditional, out);
}

void change(const clang::Expr *lvalue, bool conditional, bool addressPassed, ExpressionChanges &out) {
  const clang::Expr *stripped = lvalue->IgnoreParens();
  out.changes.push_back({stripped, conditional, addressPassed});
  if (const clang::VarDecl *var = plainVariable(stripped))
    out.assignedVariables.insert(var);
}

/// A function's own variable or parameter in private memory (Clang gives `__local` ones local storage too).
bool isPrivate(const clang::VarDecl *var) {
  clang::LangAS space = var->getType().getAddressSpace();
  return var->hasLocalStorage() &&
         (space == clang::LangAS::opencl_private || space == clang::LangAS::Default);
}

} // namespace

const clang::VarDecl *plainVariable(const clang::Expr *lvalue) {
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(lvalue->IgnoreParens()))
    return llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  return nullptr;
}

void collectChanges(const clang::Expr *e, bool conditional, ExpressionChanges &out) {
  if (!e)
    return;
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e)) // sizeof, vec_step: not evaluated (VLAs do not exist)
    return;
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (binary->isLogicalOp()) {
      collectChanges(binary->getLHS(), conditional, out);
      collectChanges(binary->getRHS(), true, out);
      return;
    }
    if (binary->isAssignmentOp()) {
      // The right side first: `a[i] = b = c` changes b, then a[i].
      collectChanges(binary->getRHS(), conditional, out);
      collectChanges(binary->getLHS(), conditional, out);
      change(binary->getLHS(), conditional, false, out);
      return;
    }
  }
  if (const auto *choice = llvm::dyn_cast<clang::AbstractConditionalOperator>(e)) {
    collectChanges(choice->getCond(), conditional, out);
    collectChanges(choice->getTrueExpr(), true, out);
    collectChanges(choice->getFalseExpr(), true, out);
    return;
  }
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    collectChanges(unary->getSubExpr(), conditional, out);
    if (unary->isIncrementDecrementOp())
      change(unary->getSubExpr(), conditional, false, out);
    else if (unary->getOpcode() == clang::UO_AddrOf)
      if (const clang::VarDecl *var = plainVariable(unary->getSubExpr()))
        // Only private variables: a __local or __global one passed by address is usually an atomic's, and
        // reading it again would race with the other work-items.
        if (isPrivate(var))
          change(unary->getSubExpr(), conditional, true, out);
    return;
  }
  collectChildren(e, conditional, out);
}

StatementValues::StatementValues(const clang::ASTContext &context, const SourceText &text,
                                 const ValueShapes &shapes)
    : m_context(context), m_text(text), m_shapes(shapes) {}

void StatementValues::add(std::vector<SiteValue> &values, SiteValue value) {
  for (SiteValue &v : values)
    if (v.shown.name == value.shown.name) {
      if (value.shown.declares && !v.shown.declares)
        v = std::move(value);
      return;
    }
  values.push_back(std::move(value));
}

std::optional<SiteValue> StatementValues::variable(const clang::VarDecl *var) const {
  if (!var || var->getName().empty() || var->getType()->isArrayType())
    return std::nullopt;
  return m_shapes.named(var->getName().str(), var->getType());
}

std::optional<SiteValue> StatementValues::lvalue(const clang::Expr *e,
                                                 const ExpressionChanges &changes) const {
  if (e->getType()->isArrayType() || e->HasSideEffects(m_context, /*IncludePossibleEffects=*/true) ||
      mentions(e, changes.assignedVariables))
    return std::nullopt;
  auto span = m_text.span(e->getSourceRange());
  if (!span)
    return std::nullopt;
  // The text is pasted into the record's call, on the statement's line: a `//` comment or a line break in
  // it would end the line early or move the lines below.
  std::string text = m_text.text(*span);
  if (text.find_first_of("\r\n") != std::string::npos || text.find("//") != std::string::npos)
    return std::nullopt;
  return m_shapes.lvalue(text, m_text.collapsed(*span), e->getType());
}

std::vector<SiteValue> StatementValues::values(const ExpressionChanges &changes, bool withLvalues,
                                               const std::set<const clang::VarDecl *> &declared) const {
  std::vector<SiteValue> out;
  for (const ExpressionChanges::Change &c : changes.changes) {
    if (const clang::VarDecl *var = plainVariable(c.lvalue)) {
      if (declared.count(var))
        continue;
      if (auto v = variable(var))
        add(out, std::move(*v));
      continue;
    }
    if (!withLvalues || c.conditional || c.addressPassed)
      continue;
    if (auto v = lvalue(c.lvalue, changes))
      add(out, std::move(*v));
  }
  return out;
}

} // namespace clcapture::instrument
