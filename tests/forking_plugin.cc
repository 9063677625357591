// A plugin whose linear_index forks in a loop and then never returns: the
// gate must stop it at --timeout and leave none of its processes behind.
// Bounded, so that the test cannot flood the machine: 32 children, each of
// which sleeps; their pids go, one per line, to the file named by the
// environment variable FORKING_PLUGIN_PIDS.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <tilecheck/conformance_plugin.h>

extern "C" __attribute__((visibility("default"))) int tilecheck_impl_linear_index(
    const char*, int64_t, const int64_t*, int64_t*) {
  const char* path = std::getenv("FORKING_PLUGIN_PIDS");
  FILE* pids = path ? std::fopen(path, "w") : nullptr;
  for (int i = 0; i < 32; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      for (;;) pause();  // a child that would live forever
    }
    if (pid > 0 && pids) std::fprintf(pids, "%d\n", static_cast<int>(pid));
  }
  if (pids) std::fclose(pids);
  for (;;) pause();
}
