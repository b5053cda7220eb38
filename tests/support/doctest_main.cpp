// The test runner's main, plus the "course" reporter that `./course check` uses: one line
// per exercise (pass / fail / todo); under a failure, every failing property (SUBCASE) by
// name, in the order the test file states them, with the details (the check, the values it
// compared) of the first two only. The test files put the hand-worked properties that name
// a mistake first, so the first failing name is usually the diagnosis; they write them with
// PROPERTY (tests/support/property.hpp), so that an exception ends one property, not all.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "tests/support/report_limits.hpp"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int properties_with_details = 2;   // more details than that is a wall nobody reads
using support::max_detail_lines;
using support::max_line_width;

// `./course check N --verbose`: every line of every failing check.
bool verbose() {
    static const bool on = [] {
        const char* value = std::getenv("COURSE_CHECK_VERBOSE");
        return value != nullptr && std::string(value) == "1";
    }();
    return on;
}

// What COURSE_TODO's exception says: the exercise is a stub, not a wrong answer.
const std::string not_implemented_marker = "not implemented yet:";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Property {
    std::string name;
    bool has_children = false;      // a SUBCASE that only groups others is not a property itself
    int failed_checks = 0;
    std::vector<std::string> details;   // of its first failing check
};

struct CourseReporter : public doctest::IReporter {
    std::ostream& out;
    std::vector<std::string> subcases;   // the SUBCASE names entered, outermost first
    std::vector<Property> properties;    // in the order doctest first enters them
    std::string subcase_that_threw;      // where an exception left a SUBCASE, until doctest reports it
    std::string not_implemented;         // the COURSE_TODO message, if the stub was reached

    explicit CourseReporter(const doctest::ContextOptions& options) : out(*options.cout) {}

    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    // The last line. `./course check` counts an exercise as passing only after this report: a
    // program that ends before its tests have run (an exit() in the learner's code) never passes.
    void test_run_end(const doctest::TestRunStats& stats) override {
        out << "[done] " << stats.numTestCasesPassingFilters << " test cases run, " << stats.numTestCasesFailed
            << " failed\n";
    }
    void test_case_skipped(const doctest::TestCaseData&) override {}

    void test_case_start(const doctest::TestCaseData&) override {
        subcases.clear();
        properties.clear();
        subcase_that_threw.clear();
        not_implemented.clear();
    }
    // doctest runs the test case once per SUBCASE, set-up included; each run starts afresh.
    void test_case_reenter(const doctest::TestCaseData&) override {
        subcases.clear();
        subcase_that_threw.clear();   // a failed REQUIRE leaves a placeholder with no translation
    }

    std::string current_name() const {
        std::string joined;
        for (const std::string& name : subcases) joined += (joined.empty() ? "" : " / ") + name;
        return joined.empty() ? "the set-up shared by every property (it runs before each one)" : joined;
    }

    Property& property_named(const std::string& name) {
        for (Property& p : properties)
            if (p.name == name) return p;
        properties.push_back(Property{name, false, 0, {}});
        return properties.back();
    }

    void subcase_start(const doctest::SubcaseSignature& s) override {
        if (!subcases.empty()) property_named(current_name()).has_children = true;
        subcases.emplace_back(s.m_name.c_str());
        property_named(current_name());
    }
    void subcase_end() override {
        if (!subcases.empty()) subcases.pop_back();
    }

    // "tests/00_foundations/test_softmax.cpp" rather than wherever the checkout lives.
    static std::string relative(const char* file) {
        const std::string path = file;
        const std::size_t at = path.rfind("/tests/");
        return at == std::string::npos ? path : path.substr(at + 1);
    }

    static std::string active_contexts() {   // INFO and CAPTURE texts
        std::ostringstream text;
        const int n = doctest::IReporter::get_num_active_contexts();
        const doctest::IContextScope* const* scopes = doctest::IReporter::get_active_contexts();
        for (int i = 0; i < n; ++i) {
            scopes[i]->stringify(&text);
            text << "\n";
        }
        return text.str();
    }

    void record_failure(const std::string& property, const std::string& check, const std::string& what) {
        Property& p = property_named(property);
        if (++p.failed_checks > 1) return;   // the first failing check of a property says it
        p.details.push_back("check:  " + check);
        std::istringstream lines(what);
        for (std::string line; std::getline(lines, line);) {
            if (line.empty()) continue;
            if (p.details.size() == max_detail_lines && !verbose()) {
                p.details.push_back("...");
                break;
            }
            if (line.size() > max_line_width) line = line.substr(0, max_line_width - 3) + "...";
            p.details.push_back("        " + line);
        }
    }

    void log_assert(const doctest::AssertData& a) override {
        if (!a.m_failed) return;
        const std::string exception = a.m_threw ? a.m_exception.c_str() : "";
        if (contains(exception, not_implemented_marker)) {   // a stub called inside a CHECK
            not_implemented = exception;
            return;
        }
        std::string check = relative(a.m_file) + ":" + std::to_string(a.m_line);
        // CHECK_ALLCLOSE, REQUIRE_SHAPE and the mask checks say it all in their message; their
        // inner expression says nothing.
        const std::string expression = a.m_expr;
        if (expression != "allclose_result_.ok" && expression != "shape_matches_" &&
            expression != "mask_report_.empty()")
            check += "  " + expression;
        std::string what = active_contexts();
        if (a.m_threw) what += "threw: " + exception + "\n";
        else if (a.m_decomp.size() > 0 && std::string(a.m_decomp.c_str()) != "false")
            what += "values: " + std::string(a.m_decomp.c_str()) + "\n";
        record_failure(current_name(), check, what);
    }

    void log_message(const doctest::MessageData& m) override {
        if (m.m_severity & doctest::assertType::is_warn) return;
        const std::string text = m.m_string.c_str();
        const std::size_t stub = text.find(not_implemented_marker);   // a stub, caught by PROPERTY
        if (stub != std::string::npos) not_implemented = text.substr(stub);
        else record_failure(current_name(), relative(m.m_file) + ":" + std::to_string(m.m_line), text);
    }

    // An exception that escapes a SUBCASE is reported twice: first from inside the SUBCASE
    // with a placeholder text (remember where it was), then outside it, translated.
    void test_case_exception(const doctest::TestCaseException& e) override {
        const std::string text = e.error_string.c_str();
        if (contains(text, "will translate later")) {
            subcase_that_threw = current_name();
            return;
        }
        const std::string where = subcase_that_threw.empty() ? current_name() : subcase_that_threw;
        subcase_that_threw.clear();
        if (contains(text, not_implemented_marker)) not_implemented = text;
        else record_failure(where, "(no check: an exception escaped)", "threw: " + text);
    }

    void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
        const doctest::TestCaseData* tc = doctest::getContextOptions()->currentTest;
        const std::string test_name = tc ? tc->m_name : "?";
        std::vector<const Property*> failing;
        int counted = 0;
        for (const Property& p : properties) {
            if (p.failed_checks > 0) failing.push_back(&p);
            if (!p.has_children || p.failed_checks > 0) ++counted;
        }
        if (!not_implemented.empty()) {
            out << "[todo] " << test_name << ": " << not_implemented << "\n";
        } else if (!failing.empty() || stats.failure_flags != 0 || !stats.testCaseSuccess) {
            out << "[fail] " << test_name << ": " << failing.size() << " of " << counted << " properties fail\n";
            int detailed = 0;
            for (const Property* p : failing) {
                out << "       x " << p->name << "\n";
                if (detailed++ >= properties_with_details) continue;
                for (const std::string& line : p->details) out << "           " << line << "\n";
                if (p->failed_checks > 1)
                    out << "           (and " << p->failed_checks - 1 << " more failing check(s) in this property)\n";
            }
        } else {
            out << "[pass] " << test_name << " (" << counted << " properties, " << stats.numAssertsCurrentTest
                << " checks)\n";
        }
    }
};

}  // namespace

REGISTER_REPORTER("course", 1, CourseReporter);
