//===- SourceInliner.cpp - #include resolved into the captured source -----===//

#include "engine/SourceInliner.h"

#include <fstream>
#include <set>
#include <sstream>

namespace clcapture::layer {

namespace {

/// The include name of a `#include "x"` or `#include <x>` line; empty for any other line.
std::string includeName(const std::string &line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#')
    return {};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0)
    return {};
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<'))
    return {};
  char close = line[i] == '"' ? '"' : '>';
  std::size_t end = line.find(close, i + 1);
  return end == std::string::npos ? std::string() : line.substr(i + 1, end - i - 1);
}

bool hasPragmaOnce(const std::string &text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i != std::string::npos && line.compare(i, 1, "#") == 0) {
      std::size_t p = line.find_first_not_of(" \t", i + 1);
      if (p != std::string::npos && line.compare(p, 6, "pragma") == 0 &&
          line.find("once", p + 6) != std::string::npos)
        return true;
    }
  }
  return false;
}

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

std::string folderOf(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

class Inliner {
public:
  explicit Inliner(const IncludeSources &sources) : m_sources(sources) {}

  std::string run(const std::string &text, const std::string &folder) {
    std::ostringstream out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      std::string include = includeName(line);
      std::string found, foundName, foundFolder;
      if (include.empty() || !resolve(include, folder, found, foundName, foundFolder)) {
        if (!include.empty())
          m_result.unresolved.push_back(include);
        out << line << '\n';
        continue;
      }
      ++m_result.inlined;
      // No #line markers: the stored file is what users and the analyzer's findings cite, so its own line
      // numbers are the ones that must hold.
      if (m_active.count(foundName) || m_once.count(foundName)) {
        out << "/* clcapture: #include \"" << include << "\" already inlined */\n";
        continue;
      }
      if (hasPragmaOnce(found))
        m_once.insert(foundName);
      m_active.insert(foundName);
      std::string body = run(found, foundFolder);
      m_active.erase(foundName);
      out << "/* clcapture: begin #include \"" << include << "\" (" << foundName << ") */\n" << body;
      if (!body.empty() && body.back() != '\n')
        out << '\n';
      out << "/* clcapture: end #include \"" << include << "\" */\n";
    }
    return out.str();
  }

  InlineResult m_result;

private:
  bool resolve(const std::string &include, const std::string &folder, std::string &text, std::string &name,
               std::string &foundFolder) {
    auto h = m_sources.headers.find(include);
    if (h != m_sources.headers.end()) {
      text = h->second;
      name = include;
      foundFolder.clear();
      return true;
    }
    std::vector<std::string> candidates;
    if (!include.empty() && include[0] == '/')
      candidates.push_back(include);
    else {
      if (!folder.empty())
        candidates.push_back(folder + "/" + include);
      for (const auto &dir : m_sources.searchDirs)
        candidates.push_back(dir + "/" + include);
    }
    for (const auto &path : candidates)
      if (readFile(path, text)) {
        name = path;
        foundFolder = folderOf(path);
        return true;
      }
    return false;
  }

  const IncludeSources &m_sources;
  std::set<std::string> m_active, m_once;
};

} // namespace

InlineResult inlineIncludes(const std::string &source, const IncludeSources &sources) {
  if (source.find("include") == std::string::npos)
    return {source, {}, 0};
  Inliner inliner(sources);
  std::string text = inliner.run(source, "");
  if (inliner.m_result.inlined == 0)
    return {source, inliner.m_result.unresolved, 0};
  inliner.m_result.source = std::move(text);
  return std::move(inliner.m_result);
}

std::vector<std::string> includeDirsOf(const std::string &options) {
  // Split like a shell would for the simple cases build options use: spaces, single and double quotes.
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (char c : options) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "-I" && i + 1 < words.size())
      dirs.push_back(words[++i]);
    else if (words[i].size() > 2 && words[i].compare(0, 2, "-I") == 0)
      dirs.push_back(words[i].substr(2));
  }
  return dirs;
}

} // namespace clcapture::layer
