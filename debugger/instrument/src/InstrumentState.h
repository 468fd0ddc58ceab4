//===- InstrumentState.h - What the instrumenter builds while it walks -*- C++ -*-===//
//
// Shared by the function walks (FunctionWalker) and the whole-program steps (SourceInstrumenter): the
// sites found so far, each with its record function and where an --inject would go, and the edit list.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EditList.h"
#include "RecordFunctions.h"
#include "SourceText.h"
#include "StatementValues.h"
#include "ValueShapes.h"
#include "clcapture/trace/TraceLayout.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <vector>

namespace clcapture::instrument {

struct PlannedSite {
  trace::TraceSite site;
  RecordFunction record;
  const clang::FunctionDecl *function = nullptr;
  bool injectable = false;   ///< a statement, barrier or entry site: --inject may go there
  unsigned recordOffset = 0; ///< where its record (and an --inject before it) is inserted
  EditSlot injectSlot = EditSlot::Injection;
};

struct InstrumentState {
  InstrumentState(clang::ASTContext &astContext, const SourceText &sourceText)
      : context(astContext), text(sourceText), shapes(astContext), values(astContext, sourceText, shapes) {}

  clang::ASTContext &context;
  const SourceText &text;
  ValueShapes shapes;
  StatementValues values;
  EditList edits;
  std::vector<PlannedSite> sites;
};

} // namespace clcapture::instrument
