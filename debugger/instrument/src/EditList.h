//===- EditList.h - The insertions, in order, through clang::Rewriter -*- C++ -*-===//
//
// Every change the instrumenter makes is an insertion at a main-file offset (and, for a `(void)` parameter
// list, one replacement). Several can fall on one offset — a record, then the `}` that closes braces added
// around a single-statement body, then the next statement's `{` — so each carries a slot that orders it
// there; within a slot, the order they were made. The list is applied through clang::Rewriter; the pieces
// of user text (--record-items, --inject) are found again in the result so that Clang's messages on the
// instrumented source can be told apart.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Basic/SourceManager.h>
#include <string>
#include <vector>

namespace clcapture::instrument {

/// The order of insertions at one offset (lowest first).
enum class EditSlot : int {
  Preamble = 0,         ///< clcapture_item and the record functions, before a function
  CallArguments = 10,   ///< `, clcapture_t, clcapture_s` before a call's `)`; parameters before a `)`
  ExpressionEnd = 20,   ///< the end of a wrapped condition or returned value
  Injection = 30,       ///< --inject's assignment, after a statement
  Record = 40,          ///< a statement's record, after it
  CloseBrace = 50,      ///< the `}` of braces added around a single-statement body
  BodyStart = 60,       ///< a function's declarations after its `{`
  BodyInjection = 61,   ///< --inject at an entry site
  BodyRecord = 62,      ///< the entry record
  OpenBrace = 70,       ///< the `{` of braces added around a single-statement body
  BeforeStatement = 80, ///< a record before a `return;`
  ExpressionStart = 90, ///< the start of a wrapped condition or returned value
};

/// Where a piece of user text ended up in the instrumented source.
struct UserTextRange {
  std::string label; ///< e.g. "--inject 3:0:5:x=1"
  unsigned begin = 0;
  unsigned end = 0;
};

class EditList {
public:
  void insert(unsigned offset, EditSlot slot, std::string text);
  /// Inserts `before + user + after`, remembering where `user` lands, under `label`.
  void insertUser(unsigned offset, EditSlot slot, const std::string &before, const std::string &user,
                  const std::string &after, std::string label);
  void replace(unsigned offset, unsigned length, std::string text);
  /// Whether some insertion in `slot` is already at `offset` (a call's `)` reached twice through a macro).
  bool has(unsigned offset, EditSlot slot) const;

  /// The main file with every edit applied (through clang::Rewriter); the user text ranges are computed.
  std::string apply(clang::SourceManager &sources, const clang::LangOptions &language);
  const std::vector<UserTextRange> &userRanges() const { return m_userRanges; }

private:
  struct Edit {
    unsigned offset = 0;
    EditSlot slot = EditSlot::Record;
    unsigned sequence = 0;
    std::string text;
    unsigned replaced = 0; ///< characters replaced (0: an insertion)
    std::string label;     ///< user text: its label, and where it is inside `text`
    std::size_t userBegin = 0;
    std::size_t userLength = 0;
  };
  std::vector<Edit> m_edits;
  std::vector<UserTextRange> m_userRanges;
};

} // namespace clcapture::instrument
