// Real shape-with-layout strings from XLA's public tests and docs
// (tests/xla_corpus.tsv: each with its XLA file and commit), read as a user
// would paste them:
//   canonical  parses, and printing gives the same text back (XLA prints it so)
//   accepted   parses, and prints as XLA would print it (the `printed` column)
//   sparse     rejected: "sparse layouts are not supported"
//   xla-rejects  parses and prints as `printed`, and `tilecheck check`
//              reports an error, as XLA rejects it
//   invalid    rejected with an Error whose message holds `printed`
// For every array in a line that parses, XLA's ArraySize and ByteSizeOf are
// computed (or refused with an Error, never a crash); where the
// `xla_array_size` or `xla_byte_size_of` column is filled (what XLA states
// for the shape, cited in the note), tilecheck's figure must equal it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck {
namespace {

struct Row {
  int line = 0;
  std::map<std::string, std::string> field;
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

std::vector<Row> read_corpus() {
  std::ifstream in(std::string(TILECHECK_SOURCE_DIR) + "/tests/xla_corpus.tsv");
  std::string line;
  std::vector<std::string> header;
  std::vector<Row> rows;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cells = split_tabs(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    Row row;
    row.line = n;
    for (size_t i = 0; i < header.size(); ++i) row.field[header[i]] = i < cells.size() ? cells[i] : "";
    rows.push_back(row);
  }
  return rows;
}

TEST(XlaCorpus, EveryLineIsReadAsXlaReadsIt) {
  const std::vector<Row> rows = read_corpus();
  ASSERT_GE(rows.size(), 200u) << "tests/xla_corpus.tsv";
  std::map<std::string, int> counts;
  for (const Row& row : rows) {
    const std::string& text = row.field.at("text");
    const std::string& expect = row.field.at("expect");
    const std::string where = "tests/xla_corpus.tsv:" + std::to_string(row.line) + " " + text +
                              " (" + row.field.at("file") + ")";
    ASSERT_FALSE(row.field.at("file").empty()) << where;
    ASSERT_EQ(row.field.at("commit").size(), 40u) << where;
    ++counts[expect];
    if (expect == "sparse" || expect == "invalid") {
      const std::string fragment =
          expect == "sparse" ? "sparse layouts are not supported" : row.field.at("printed");
      try {
        parse_any_shape(text);
        ADD_FAILURE() << where << ": parsed, but XLA rejects it";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
            << where << ": " << e.what();
      }
      continue;
    }
    Shape shape;
    try {
      shape = parse_any_shape(text);
    } catch (const Error& e) {
      ADD_FAILURE() << where << ": " << e.what();
      continue;
    }
    const std::string printed = print_any_shape(shape);
    if (expect == "canonical") {
      EXPECT_EQ(printed, text) << where;
    } else {
      ASSERT_TRUE(expect == "accepted" || expect == "xla-rejects") << where;
      EXPECT_EQ(printed, row.field.at("printed")) << where;
    }
    bool has_error = false;
    for (const xla::Problem& p : xla::validity_problems(shape)) {
      has_error |= p.severity == xla::Problem::Severity::kError;
    }
    if (expect == "xla-rejects") {
      EXPECT_TRUE(has_error) << where << ": check finds no error";
    }
    EXPECT_EQ(parse_any_shape(printed), shape) << where;
    for (const Leaf& leaf : array_leaves(shape)) {
      try {
        xla::byte_size_of(*leaf.array);
        xla::array_size(*leaf.array);
      } catch (const Error&) {
        // '?' dims: XLA's own figure is garbage there; refusing is right.
      }
    }
    if (const std::string& want = row.field.at("xla_array_size"); !want.empty()) {
      ASSERT_TRUE(shape.is_array()) << where;
      EXPECT_EQ(std::to_string(xla::array_size(shape.array)), want)
          << where << ": " << row.field.at("note");
      ++counts["sized"];
    }
    if (const std::string& want = row.field.at("xla_byte_size_of"); !want.empty()) {
      EXPECT_EQ(std::to_string(xla::byte_size_of(shape)), want)
          << where << ": " << row.field.at("note");
      ++counts["sized"];
    }
  }
  // The corpus covers each kind of line.
  EXPECT_GE(counts["canonical"], 150) << "canonical lines";
  EXPECT_GE(counts["sparse"], 10) << "sparse lines";
  EXPECT_GE(counts["sized"], 8) << "lines with XLA's sizes";
}

}  // namespace
}  // namespace tilecheck
