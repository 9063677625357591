// The report as JUnit XML (conformance/report.h).
#include <ostream>

#include "conformance/report.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

using Status = CaseOutcome::Status;

namespace {

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab and newlines.
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') ? '?' : c;
    }
  }
  return out;
}

}  // namespace

// JUnit XML, one test suite per operation and one test case per
// case id, as CI systems (GitLab, Jenkins, GitHub actions that read JUnit)
// show them. A failure, or a skip the implementation claimed, is a
// <failure>; a known gap (--skip) that failed or was skipped is <skipped>;
// the first failure carries its minimal case and reproducing command.
void print_junit(std::ostream& xml, const ConformanceReport& r) {
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"tilecheck gate: " << xml_escaped(r.impl) << "\">\n";
  for (const FunctionReport& f : r.functions) {
    if (!f.exported) continue;
    const std::string op = function_name(f.function);
    std::vector<const CaseOutcome*> cases;
    for (const CaseOutcome& c : r.cases) {
      if (c.function == f.function) cases.push_back(&c);
    }
    size_t failures = 0, skipped = 0;
    for (const CaseOutcome* c : cases) {
      const bool bad = c->status == Status::kFailed || c->status == Status::kSkipped;
      failures += bad && !c->listed;
      skipped += (bad && c->listed) || c->status == Status::kNotRun || c->status == Status::kNotSent;
    }
    xml << "  <testsuite name=\"" << op << "\" tests=\"" << cases.size() << "\" failures=\""
        << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
    bool first_failure = true;
    for (const CaseOutcome* c : cases) {
      xml << "    <testcase classname=\"" << op << "\" name=\"" << xml_escaped(c->layout) << "\"";
      const bool bad = c->status == Status::kFailed || c->status == Status::kSkipped;
      if (c->status == Status::kPassed) {
        xml << "/>\n";
        continue;
      }
      xml << ">\n";
      if (c->status == Status::kNotRun) {
        xml << "      <skipped message=\"not run: the operation hung before\"/>\n";
      } else if (c->status == Status::kNotSent) {
        xml << "      <skipped message=\"not sent: " << xml_escaped(c->problem) << "\"/>\n";
      } else if (bad && c->listed) {
        xml << "      <skipped message=\"known gap (--skip): " << status_name(c->status) << "\"/>\n";
      } else if (c->status == Status::kSkipped) {
        xml << "      <failure message=\"skipped although claimed\"/>\n";
      } else {
        xml << "      <failure message=\"" << xml_escaped(c->problem) << "\"";
        if (first_failure && f.failure) {
          first_failure = false;
          const Shrunk& m = f.failure->minimal;
          xml << ">minimal case: " << xml_escaped(print_shape(m.shape)) << "\n";
          for (const auto& [what, value] : m.verdict.details) {
            xml << xml_escaped(what) << ": " << xml_escaped(value) << "\n";
          }
          xml << "reproduce: " << xml_escaped(f.failure->reproduce) << "</failure>\n";
        } else {
          xml << "/>\n";
        }
      }
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
}

}  // namespace tilecheck::conformance
