// Entry point of the doctest suite (one executable for all of tests/).
//
// ctest runs every test case as its own process with --test-case=<name> (doctest's CMake
// discovery). doctest exits 0 when a filter matches no test case, so a name that the
// discovery cannot pass through unchanged (a ';' is a list separator to CMake) would make its
// ctest entry pass without running anything. The listener below counts the test cases that
// passed the filters, and main() fails a filtered run that selected none.
#define DOCTEST_CONFIG_IMPLEMENT
#include <cstring>
#include <iostream>

#include <doctest/doctest.h>

namespace {

int g_selected = -1;  ///< test cases that passed the filters; -1: no test run happened

struct SelectionCounter final : doctest::IReporter {
  explicit SelectionCounter(const doctest::ContextOptions& /*options*/) {}
  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_selected = static_cast<int>(stats.numTestCasesPassingFilters);
  }
  void test_case_start(const doctest::TestCaseData& /*data*/) override {}
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*e*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}
};

DOCTEST_REGISTER_LISTENER("selection_counter", 1, SelectionCounter);

bool filters_by_test_case(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* option : {"--test-case=", "-tc=", "--dt-test-case=", "--dt-tc="}) {
      if (std::strncmp(argv[i], option, std::strlen(option)) == 0) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (result == 0 && g_selected == 0 && filters_by_test_case(argc, argv)) {
    std::cerr << "no test case matches the --test-case filter; a test name with ';' cannot be "
                 "registered with ctest, nor one with an unescaped ','\n";
    return 1;
  }
  return result;
}
