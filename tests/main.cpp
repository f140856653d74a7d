// Entry point of the doctest suite (one executable for all of tests/).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
