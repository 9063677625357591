#include "tests/text_match.h"

#include <regex>

namespace tilecheck::cli_testing {
namespace {

void keep(const std::smatch& m, std::vector<std::string>* groups) {
  if (!groups) return;
  groups->clear();
  for (const auto& g : m) groups->push_back(g.str());
}

}  // namespace

bool search(const std::string& text, const std::string& pattern, std::vector<std::string>* groups) {
  std::smatch m;
  const bool found = std::regex_search(text, m, std::regex(pattern));
  if (found) keep(m, groups);
  return found;
}

bool full_match(const std::string& text, const std::string& pattern, std::vector<std::string>* groups) {
  std::smatch m;
  const bool found = std::regex_match(text, m, std::regex(pattern));
  if (found) keep(m, groups);
  return found;
}

std::vector<std::vector<std::string>> find_all(const std::string& text, const std::string& pattern) {
  std::vector<std::vector<std::string>> all;
  const std::regex re(pattern);
  for (std::sregex_iterator m(text.begin(), text.end(), re), end; m != end; ++m) {
    all.emplace_back();
    for (const auto& g : *m) all.back().push_back(g.str());
  }
  return all;
}

std::string replace_all(const std::string& text, const std::string& pattern, const std::string& with) {
  return std::regex_replace(text, std::regex(pattern), with);
}

}  // namespace tilecheck::cli_testing
