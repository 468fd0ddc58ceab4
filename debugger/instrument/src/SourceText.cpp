//===- SourceText.cpp - Places in the kernel file, through macros ---------===//

#include "SourceText.h"

#include <clang/Lex/Lexer.h>

namespace clcapture::instrument {

SourceText::SourceText(const clang::SourceManager &sources, const clang::LangOptions &language)
    : m_sources(sources), m_language(language), m_main(sources.getMainFileID()),
      m_buffer(sources.getBufferData(sources.getMainFileID())) {}

std::optional<unsigned> SourceText::fileOffset(clang::SourceLocation location) const {
  if (location.isInvalid() || !location.isFileID())
    return std::nullopt;
  auto [file, offset] = m_sources.getDecomposedLoc(location);
  if (file != m_main)
    return std::nullopt;
  return offset;
}

std::optional<unsigned> SourceText::spellingOffset(clang::SourceLocation location) const {
  if (location.isInvalid())
    return std::nullopt;
  return fileOffset(m_sources.getSpellingLoc(location));
}

std::optional<FileSpan> SourceText::span(clang::SourceRange range) const {
  clang::SourceLocation begin = range.getBegin();
  clang::SourceLocation end = range.getEnd();
  if (begin.isInvalid() || end.isInvalid())
    return std::nullopt;
  if (begin.isMacroID() && !clang::Lexer::isAtStartOfMacroExpansion(begin, m_sources, m_language, &begin))
    return std::nullopt;
  if (end.isMacroID() && !clang::Lexer::isAtEndOfMacroExpansion(end, m_sources, m_language, &end))
    return std::nullopt;
  auto first = fileOffset(begin);
  auto last = fileOffset(end);
  if (!first || !last || *last < *first)
    return std::nullopt;
  unsigned length = clang::Lexer::MeasureTokenLength(end, m_sources, m_language);
  return FileSpan{*first, *last + length};
}

std::optional<FileSpan> SourceText::tokenAt(unsigned offset, clang::tok::TokenKind kind) const {
  if (offset > m_buffer.size())
    return std::nullopt;
  clang::Lexer lexer(m_sources.getLocForStartOfFile(m_main), m_language, m_buffer.begin(),
                     m_buffer.begin() + offset, m_buffer.end());
  clang::Token token;
  lexer.LexFromRawLexer(token);
  // The raw lexer does not know keywords: `void` is a raw identifier there.
  bool keyword = token.is(clang::tok::raw_identifier) && clang::tok::getKeywordSpelling(kind) &&
                 token.getRawIdentifier() == clang::tok::getKeywordSpelling(kind);
  if (!token.is(kind) && !keyword)
    return std::nullopt;
  auto at = fileOffset(token.getLocation());
  if (!at)
    return std::nullopt;
  return FileSpan{*at, *at + token.getLength()};
}

std::string SourceText::text(FileSpan span) const {
  return m_buffer.substr(span.begin, span.end - span.begin).str();
}

std::string SourceText::collapsed(FileSpan span) const {
  std::string out;
  bool blank = false;
  for (char c : m_buffer.substr(span.begin, span.end - span.begin)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      blank = !out.empty();
      continue;
    }
    if (blank)
      out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

clang::SourceLocation SourceText::location(unsigned offset) const {
  return m_sources.getComposedLoc(m_main, offset);
}

unsigned SourceText::line(unsigned offset) const {
  return m_sources.getPresumedLoc(location(offset)).getLine();
}

unsigned SourceText::column(unsigned offset) const {
  return m_sources.getPresumedLoc(location(offset)).getColumn();
}

} // namespace clcapture::instrument
