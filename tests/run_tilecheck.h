// Runs the built `tilecheck` (or another binary) as a user runs it and
// captures what it prints, for the tests of the command (cli_test and the
// tests of its golden files).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tilecheck::cli_testing {

struct Output {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `binary args...` with stdout and stderr captured in temporary files,
// and standard input read from `stdin_path` when one is given. With
// `alarm_seconds`, a run that takes longer is killed by SIGALRM (exit code
// 128 + 14): the alarm outlives exec.
inline Output run_binary(const char* binary, const std::vector<std::string>& args,
                         const std::string& stdin_path = "", unsigned alarm_seconds = 0) {
  std::string out_path = testing::TempDir() + "tilecheck_out_XXXXXX";
  std::string err_path = testing::TempDir() + "tilecheck_err_XXXXXX";
  const int out_fd = mkstemp(out_path.data()), err_fd = mkstemp(err_path.data());
  EXPECT_GE(out_fd, 0);
  EXPECT_GE(err_fd, 0);
  std::vector<char*> argv = {const_cast<char*>(binary)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (!stdin_path.empty()) {
      const int in_fd = open(stdin_path.c_str(), O_RDONLY);
      if (in_fd < 0) _exit(126);
      dup2(in_fd, 0);
    }
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (alarm_seconds > 0) alarm(alarm_seconds);
    execv(binary, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(out_fd);
  close(err_fd);
  Output r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_file(out_path),
        read_file(err_path)};
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return r;
}

inline Output tilecheck(const std::vector<std::string>& args) { return run_binary(TILECHECK_BINARY, args); }

// `args` and gate flags that check fewer positions one by one than the
// default (1,024, then 256 sampled), for a test about something other than
// the positions a run covers: the sanitizer build checks each slowly.
inline std::vector<std::string> with_fewer_positions(std::vector<std::string> args) {
  args.insert(args.end(), {"--exhaustive-limit", "1024", "--samples", "256"});
  return args;
}

inline void expect_ok(const Output& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// Whether process `pid` still runs: it exists and is not a zombie that
// init has yet to reap. Waits up to two seconds for it to go.
inline bool still_running(const std::string& pid) {
  const auto alive = [&] {
    const std::string stat = read_file("/proc/" + pid + "/stat");
    const size_t paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
  };
  for (int i = 0; i < 20 && alive(); ++i) usleep(100 * 1000);
  return alive();
}

}  // namespace tilecheck::cli_testing
