//===- EditList.cpp - The insertions, in order, through clang::Rewriter ---===//

#include "EditList.h"

#include <algorithm>
#include <clang/Rewrite/Core/Rewriter.h>

namespace clcapture::instrument {

void EditList::insert(unsigned offset, EditSlot slot, std::string text) {
  Edit e;
  e.offset = offset;
  e.slot = slot;
  e.sequence = static_cast<unsigned>(m_edits.size());
  e.text = std::move(text);
  m_edits.push_back(std::move(e));
}

void EditList::insertUser(unsigned offset, EditSlot slot, const std::string &before, const std::string &user,
                          const std::string &after, std::string label) {
  insert(offset, slot, before + user + after);
  m_edits.back().label = std::move(label);
  m_edits.back().userBegin = before.size();
  m_edits.back().userLength = user.size();
}

void EditList::replace(unsigned offset, unsigned length, std::string text) {
  insert(offset, EditSlot::CallArguments, std::move(text));
  m_edits.back().replaced = length;
}

bool EditList::has(unsigned offset, EditSlot slot) const {
  return std::any_of(m_edits.begin(), m_edits.end(),
                     [&](const Edit &e) { return e.offset == offset && e.slot == slot; });
}

std::string EditList::apply(clang::SourceManager &sources, const clang::LangOptions &language) {
  std::vector<Edit> edits = m_edits;
  std::stable_sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) {
    if (a.offset != b.offset)
      return a.offset < b.offset;
    if (a.slot != b.slot)
      return static_cast<int>(a.slot) < static_cast<int>(b.slot);
    return a.sequence < b.sequence;
  });
  clang::Rewriter rewriter(sources, language);
  clang::FileID main = sources.getMainFileID();
  m_userRanges.clear();
  long shift = 0; // how far the instrumented text has moved from the original at the current offset
  for (const Edit &e : edits) {
    clang::SourceLocation at = sources.getComposedLoc(main, e.offset);
    if (e.replaced > 0)
      rewriter.ReplaceText(at, e.replaced, e.text);
    else
      rewriter.InsertText(at, e.text, /*InsertAfter=*/true);
    if (!e.label.empty()) {
      auto begin =
          static_cast<unsigned>(static_cast<long>(e.offset) + shift) + static_cast<unsigned>(e.userBegin);
      m_userRanges.push_back({e.label, begin, begin + static_cast<unsigned>(e.userLength)});
    }
    shift += static_cast<long>(e.text.size()) - static_cast<long>(e.replaced);
  }
  if (const clang::RewriteBuffer *buffer = rewriter.getRewriteBufferFor(main))
    return std::string(buffer->begin(), buffer->end());
  return sources.getBufferData(main).str();
}

} // namespace clcapture::instrument
