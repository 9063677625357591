// A shared library that loads but exports none of the conformance functions
// (tilecheck/conformance_plugin.h), only a near-miss name: `gate --impl` must say
// so and exit 2.
extern "C" int tilecheck_impl_version() { return 1; }
