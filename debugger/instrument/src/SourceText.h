//===- SourceText.h - Places in the kernel file, through macros -*- C++ -*-===//
//
// The instrumenter edits the main file only, at file offsets. A statement written through a macro has a
// place there only when it is one whole expansion (`ACC(v);`) or is written in the file around expansions
// (`x = MAX(a, b);`); a statement inside a macro's body has none, and gets no record rather than broken code.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>
#include <optional>
#include <string>

namespace clcapture::instrument {

/// Characters [begin, end) of the main file.
struct FileSpan {
  unsigned begin = 0;
  unsigned end = 0;
};

class SourceText {
public:
  SourceText(const clang::SourceManager &sources, const clang::LangOptions &language);

  /// The main-file characters of a token range whose ends are in the file or at the start and end of macro
  /// expansions; nothing when an end lies inside a macro (its body or an argument spelled in the middle of
  /// one).
  std::optional<FileSpan> span(clang::SourceRange range) const;

  /// A location's main-file offset when it is a file location of the main file.
  std::optional<unsigned> fileOffset(clang::SourceLocation location) const;

  /// The main-file offset of where `location` is spelled (a macro argument's or a macro body's text in the
  /// file), or nothing when that is another file.
  std::optional<unsigned> spellingOffset(clang::SourceLocation location) const;

  /// When the first token at or after `offset` is `kind` (a punctuator or a keyword), its span.
  std::optional<FileSpan> tokenAt(unsigned offset, clang::tok::TokenKind kind) const;

  /// The text of `span`, as written.
  std::string text(FileSpan span) const;
  /// The text with every run of blanks (line breaks, tabs) one space, trimmed.
  std::string collapsed(FileSpan span) const;

  /// The line and column of a main-file offset (as Clang reports them: `#line` is honoured).
  unsigned line(unsigned offset) const;
  unsigned column(unsigned offset) const;

  clang::SourceLocation location(unsigned offset) const;
  const clang::SourceManager &sources() const { return m_sources; }
  const clang::LangOptions &language() const { return m_language; }

private:
  const clang::SourceManager &m_sources;
  const clang::LangOptions &m_language;
  clang::FileID m_main;
  llvm::StringRef m_buffer;
};

} // namespace clcapture::instrument
