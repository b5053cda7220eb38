// The test runner's main, plus the "course" reporter that `./course check` uses: one line
// per exercise (pass / fail / todo), and for a failure the property (SUBCASE) that failed,
// the check, the values it compared and the file the learner should edit.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct CourseReporter : public doctest::IReporter {
    std::ostream& out;
    std::vector<std::string> subcases;    // the property being checked right now
    std::vector<std::string> details;     // what to print under a failing test case
    int failures_shown = 0;
    std::string last_property;
    bool not_implemented = false;
    std::string exception_text;

    explicit CourseReporter(const doctest::ContextOptions& options) : out(*options.cout) {}

    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}

    void test_case_start(const doctest::TestCaseData&) override {
        subcases.clear();
        details.clear();
        failures_shown = 0;
        last_property.clear();
        not_implemented = false;
        exception_text.clear();
    }
    void test_case_reenter(const doctest::TestCaseData&) override { subcases.clear(); }

    std::string property() const {
        std::string joined;
        for (const std::string& name : subcases) joined += (joined.empty() ? "" : " / ") + name;
        return joined.empty() ? "(the test's set-up, before any property)" : joined;
    }

    // "tests/00_foundations/test_softmax.cpp" rather than wherever the checkout lives.
    static std::string relative(const char* file) {
        const std::string path = file;
        const std::size_t at = path.rfind("/tests/");
        return at == std::string::npos ? path : path.substr(at + 1);
    }

    static std::string contexts() {
        std::ostringstream text;
        const int n = doctest::IReporter::get_num_active_contexts();
        const doctest::IContextScope* const* scopes = doctest::IReporter::get_active_contexts();
        for (int i = 0; i < n; ++i) {
            scopes[i]->stringify(&text);
            text << "\n";
        }
        return text.str();
    }

    void remember_failure(const std::string& where, const std::string& what) {
        if (++failures_shown > 2) return;   // the first failures say it all; more is noise
        if (property() != last_property) details.push_back("property: " + property());
        last_property = property();
        details.push_back("check:    " + where);
        std::istringstream lines(what);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty()) details.push_back("          " + line);
    }

    void log_assert(const doctest::AssertData& a) override {
        if (!a.m_failed) return;
        std::ostringstream where;
        where << relative(a.m_file) << ":" << a.m_line;
        // CHECK_ALLCLOSE names itself in its message; its inner expression says nothing.
        if (std::string(a.m_expr) != "allclose_result_.ok") where << "  " << a.m_expr;
        std::string what = contexts();
        if (a.m_threw) what += "threw: " + std::string(a.m_exception.c_str()) + "\n";
        else if (a.m_decomp.size() > 0 && std::string(a.m_decomp.c_str()) != "false")
            what += "values: " + std::string(a.m_decomp.c_str()) + "\n";
        remember_failure(where.str(), what);
    }

    void log_message(const doctest::MessageData& m) override {
        if (!(m.m_severity & doctest::assertType::is_warn))
            remember_failure(relative(m.m_file) + ":" + std::to_string(m.m_line), m.m_string.c_str());
    }

    void test_case_exception(const doctest::TestCaseException& e) override {
        exception_text = e.error_string.c_str();
        not_implemented = exception_text.find("not implemented yet:") != std::string::npos;
        if (!not_implemented) details.push_back("property: " + property());
    }

    void subcase_start(const doctest::SubcaseSignature& s) override { subcases.emplace_back(s.m_name.c_str()); }
    void subcase_end() override {
        if (!subcases.empty()) subcases.pop_back();
    }

    void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
        const doctest::TestCaseData* tc = doctest::getContextOptions()->currentTest;
        const std::string test_name = tc ? tc->m_name : "?";
        if (not_implemented) {
            out << "[todo] " << test_name << ": " << exception_text << "\n";
        } else if (!exception_text.empty()) {
            out << "[fail] " << test_name << ": threw an exception: " << exception_text << "\n";
            for (const std::string& line : details) out << "       " << line << "\n";
        } else if (stats.failure_flags != 0 || !stats.testCaseSuccess) {
            out << "[fail] " << test_name << "\n";
            for (const std::string& line : details) out << "       " << line << "\n";
        } else {
            out << "[pass] " << test_name << " (" << stats.numAssertsCurrentTest << " checks)\n";
        }
    }

    void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_REPORTER("course", 1, CourseReporter);
