// Regular expressions over the command's output (ECMAScript syntax, as
// std::regex), compiled in text_match.cc alone: each file of the tests that
// instantiated std::regex itself spent some ten seconds compiling it under
// the sanitizers.
#pragma once

#include <string>
#include <vector>

namespace tilecheck::cli_testing {

// Whether `pattern` matches somewhere in `text`; `groups`, when given,
// receives the match (groups[0]) and its submatches (groups[1], ...).
bool search(const std::string& text, const std::string& pattern, std::vector<std::string>* groups = nullptr);

// Whether `pattern` matches the whole of `text`; `groups` as in search().
bool full_match(const std::string& text, const std::string& pattern, std::vector<std::string>* groups = nullptr);

// The groups of every non-overlapping match, in order.
std::vector<std::vector<std::string>> find_all(const std::string& text, const std::string& pattern);

// `text` with every match of `pattern` replaced by `with` ($1 and so on name submatches).
std::string replace_all(const std::string& text, const std::string& pattern, const std::string& with);

}  // namespace tilecheck::cli_testing
