#include <gtest/gtest.h>
#include "proofs/prove_command.h"
TEST(Placeholder, Builds) {}
