#include "files/buffer_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "files/npy.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::files {
namespace {

std::string system_error() { return std::strerror(errno); }

// "standard input" for "-", else "input 'PATH'" (`side` "input" or "output").
std::string name_of(const std::string& path, const std::string& side) {
  return path == "-" ? "standard " + side : side + " '" + path + "'";
}

// An input file, or standard input for "-", read in whole blocks.
class InputFile {
 public:
  explicit InputFile(const std::string& path) : name_(name_of(path, "input")) {
    file_ = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) throw Error("cannot open " + name_ + ": " + system_error());
    struct stat st {};
    if (fstat(fileno(file_), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        if (file_ != stdin) std::fclose(file_);
        throw Error("cannot read " + name_ + ": it is a directory");
      }
      // Standard input redirected from a file may have been read from already.
      if (S_ISREG(st.st_mode)) {
        const off_t at = lseek(fileno(file_), 0, SEEK_CUR);
        if (at >= 0) size_ = st.st_size - at;
      }
    }
  }
  ~InputFile() {
    if (file_ != stdin) std::fclose(file_);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& name() const { return name_; }
  // The size of a regular file; none for a pipe or a terminal, whose size
  // is known only once read.
  std::optional<int64_t> regular_size() const { return size_; }

  // Fills up to n bytes, fewer only at the end of the input.
  size_t read(uint8_t* to, size_t n) {
    size_t got = 0;
    while (got < n) {
      const size_t r = std::fread(to + got, 1, n - got, file_);
      got += r;
      if (r == 0) {
        if (std::ferror(file_)) throw Error("cannot read " + name_ + ": " + system_error());
        break;
      }
    }
    return got;
  }

  // Reads to the end and returns how many bytes were left.
  int64_t count_rest() {
    std::vector<uint8_t> scratch(size_t{1} << 16);
    int64_t rest = 0;
    while (const size_t r = read(scratch.data(), scratch.size())) {
      rest += static_cast<int64_t>(r);
      if (r < scratch.size()) break;
    }
    return rest;
  }

 private:
  std::FILE* file_ = nullptr;
  std::string name_;
  std::optional<int64_t> size_;
};

// An output file written to a temporary file beside it and renamed into
// place by commit(); destroyed uncommitted, it removes the temporary file.
// Standard output ("-") and what is not a regular file (/dev/null, a pipe)
// are written directly: the caller writes only once every input has been
// checked. A symbolic link is followed, so its target is replaced.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : name_(name_of(path, "output")) {
    if (path == "-") {
      file_ = stdout;
      return;
    }
    mode_t mode = 0;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) throw Error("cannot write " + name_ + ": it is a directory");
      if (!S_ISREG(st.st_mode)) {
        file_ = std::fopen(path.c_str(), "wb");
        if (file_ == nullptr) throw Error("cannot write " + name_ + ": " + system_error());
        return;
      }
      mode = st.st_mode & 07777;  // an existing file keeps its permissions
      char* real = realpath(path.c_str(), nullptr);
      if (real == nullptr) throw Error("cannot write " + name_ + ": " + system_error());
      path_ = real;
      std::free(real);
    } else {
      mode = 0666 & ~current_umask();
      path_ = path;
    }
    const size_t slash = path_.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    temp_ = dir + "." + base + ".tilecheck-XXXXXX";
    const int fd = mkstemp(temp_.data());
    if (fd < 0) {
      const std::string why = system_error();
      temp_.clear();
      throw Error("cannot write " + name_ + ": cannot create a file in '" + (dir.empty() ? "." : dir) +
                  "': " + why);
    }
    file_ = fdopen(fd, "wb");
    if (file_ == nullptr || fchmod(fd, mode) != 0) {
      const std::string why = system_error();
      if (file_ == nullptr) close(fd);
      discard();
      throw Error("cannot write " + name_ + ": " + why);
    }
  }
  ~OutputFile() { discard(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, size_t n) {
    if (n > 0 && std::fwrite(data, 1, n, file_) != n) fail();
  }

  void commit() {
    if (file_ == stdout) {
      if (std::fflush(stdout) != 0) fail();
      return;
    }
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0) fail();
    if (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0) fail();
    temp_.clear();
  }

 private:
  static mode_t current_umask() {
    const mode_t mask = umask(0);
    umask(mask);
    return mask;
  }
  [[noreturn]] void fail() {
    const std::string why = system_error();
    discard();
    throw Error("cannot write " + name_ + ": " + why);
  }
  void discard() {
    if (file_ != nullptr && file_ != stdout) std::fclose(file_);
    if (file_ != stdout) file_ = nullptr;
    if (!temp_.empty()) std::remove(temp_.c_str());
    temp_.clear();
  }

  std::string path_, name_, temp_;  // path_: the file the temporary one replaces
  std::FILE* file_ = nullptr;
};

// "the dense array of f32[3,5]{1,0:T(2,2)} (15 elements of 4 bytes)".
std::string describe(Content content, const impl::IndexPlan& plan) {
  const ShapeWithLayout& shape = plan.shape();
  const std::string text = shown_text(print_shape(shape));
  if (content == Content::kDense) {
    return "the dense array of " + text + " (" + std::to_string(plan.element_count()) +
           " elements of " + std::to_string(shape.dense_element_bytes()) + " bytes)";
  }
  return "the physical buffer of " + text + " (" + std::to_string(plan.padded_element_count()) +
         " positions of " + std::to_string(shape.element_bits()) + " bits)";
}

int64_t payload_bytes(Content content, const impl::IndexPlan& plan) {
  return content == Content::kDense ? plan.dense_byte_size() : plan.byte_size();
}

// The header of the .npy file holding `content` of `plan`'s layout.
NpyHeader npy_header_for(Content content, const impl::IndexPlan& plan) {
  if (content == Content::kDense) return NpyHeader{dense_dtype(plan.shape()), false, plan.shape().dims};
  return NpyHeader{std::string(kPhysicalDtype), false, {plan.byte_size()}};
}

// Checks a .npy header read from a file against what `content` of `plan`'s
// layout needs. Throws Error (without the file's name).
void check_npy_header(const NpyHeader& found, Content content, const impl::IndexPlan& plan) {
  const NpyHeader expected = npy_header_for(content, plan);
  const std::string what = describe(content, plan);
  check_dtype(found.descr, expected.descr, what);
  if (found.shape != expected.shape) {
    throw Error("shape " + python_tuple(found.shape) + ", but " + what + " has shape " +
                python_tuple(expected.shape) +
                (content == Content::kPhysical ? " (a physical buffer is a 1-D array of its bytes)" : ""));
  }
  // Fortran order changes the bytes' meaning only with two dims above 1.
  int64_t long_dims = 0;
  for (const int64_t d : found.shape) long_dims += d > 1;
  if (found.fortran_order && long_dims > 1) {
    throw Error("fortran_order is True (a column-major array); tilecheck reads C-order (row-major) "
                "arrays only: save np.ascontiguousarray(a) instead");
  }
}

bool starts_like_npy(std::span<const uint8_t> data) {
  static constexpr uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  return data.size() >= sizeof kMagic && std::memcmp(data.data(), kMagic, sizeof kMagic) == 0;
}

}  // namespace

Format format_from_name(std::string_view name) {
  if (name == "raw") return Format::kRaw;
  if (name == "npy") return Format::kNpy;
  throw Error("format '" + std::string(name) + "' is not one of raw, npy");
}

FileArg file_arg(std::string path, std::optional<Format> given) {
  const bool npy_name = path.size() > 4 && path.ends_with(".npy");
  const Format format = given ? *given : npy_name ? Format::kNpy : Format::kRaw;
  return FileArg{std::move(path), format};
}

// The buffer of `content` (zeroed), or an Error naming it when this machine
// cannot hold it: more bytes than its memory (a layout whose padding is
// 2^62 bytes, say), or an allocation that fails.
std::vector<uint8_t> allocate(Content content, const impl::IndexPlan& plan) {
  const int64_t bytes = payload_bytes(content, plan);
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  const __int128 memory = pages > 0 && page_size > 0 ? __int128{pages} * page_size : __int128{INT64_MAX};
  if (bytes > memory) {
    throw Error(describe(content, plan) + " takes " + std::to_string(bytes) +
                " bytes, more than this machine's memory (" + std::to_string(static_cast<int64_t>(memory)) +
                " bytes)");
  }
  try {
    return std::vector<uint8_t>(static_cast<size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw Error("cannot allocate the " + std::to_string(bytes) + " bytes of " + describe(content, plan));
  }
}

std::vector<uint8_t> read_array(const FileArg& in, Content content, const impl::IndexPlan& plan) {
  InputFile file(in.path);
  const int64_t payload = payload_bytes(content, plan);
  int64_t preamble = 0;
  std::string header_note;
  if (in.format == Format::kNpy) {
    try {
      const NpyHeader header = read_npy_preamble(
          [&](uint8_t* to, size_t n) { return file.read(to, n); }, preamble);
      check_npy_header(header, content, plan);
      header_note = " after its " + std::to_string(preamble) + "-byte .npy header";
    } catch (const Error& e) {
      throw Error(file.name() + ": " + e.what());
    }
  }
  const auto wrong_size = [&](int64_t found, std::span<const uint8_t> start) {
    std::string hint;
    if (in.format == Format::kRaw && starts_like_npy(start)) {
      hint = "; it starts like a .npy file: --in-format npy reads it as one";
    }
    return Error(file.name() + ": " + std::to_string(found) + " bytes" + header_note + ", but " +
                 describe(content, plan) + " takes " + std::to_string(payload) + " bytes" + hint);
  };
  // A regular file's size is known before reading it.
  if (const std::optional<int64_t> size = file.regular_size(); size && *size - preamble != payload) {
    uint8_t start[6] = {};
    const size_t got = preamble == 0 ? file.read(start, sizeof start) : 0;
    throw wrong_size(std::max<int64_t>(*size - preamble, 0), std::span<const uint8_t>(start, got));
  }
  std::vector<uint8_t> data = allocate(content, plan);
  const size_t got = file.read(data.data(), data.size());
  const int64_t found = static_cast<int64_t>(got) + (got == data.size() ? file.count_rest() : 0);
  if (found != payload) throw wrong_size(found, std::span<const uint8_t>(data.data(), got));
  return data;
}

void write_array(const FileArg& out, Content content, const impl::IndexPlan& plan,
                 std::span<const uint8_t> bytes) {
  if (static_cast<int64_t>(bytes.size()) != payload_bytes(content, plan)) {
    throw Error("internal: " + std::to_string(bytes.size()) + " bytes to write as " +
                describe(content, plan));
  }
  OutputFile file(out.path);
  if (out.format == Format::kNpy) {
    const std::string preamble = npy_preamble(npy_header_for(content, plan));
    file.write(preamble.data(), preamble.size());
  }
  file.write(bytes.data(), bytes.size());
  file.commit();
}

namespace {

// One layout's dense array to its physical buffer (pack) or back (unpack).
void convert_file(const ShapeWithLayout& shape, Content from, const FileArg& in, const FileArg& out) {
  const impl::PackPlan plan(shape);
  const Content to = from == Content::kDense ? Content::kPhysical : Content::kDense;
  const std::vector<uint8_t> source = read_array(in, from, plan.index());
  std::vector<uint8_t> result = allocate(to, plan.index());
  if (from == Content::kDense) {
    plan.pack(source, result);
  } else {
    plan.unpack(source, result);
  }
  write_array(out, to, plan.index(), result);
}

}  // namespace

void pack_file(const ShapeWithLayout& shape, const FileArg& in, const FileArg& out) {
  convert_file(shape, Content::kDense, in, out);
}

void unpack_file(const ShapeWithLayout& shape, const FileArg& in, const FileArg& out) {
  convert_file(shape, Content::kPhysical, in, out);
}

void relayout_file(const ShapeWithLayout& from, const ShapeWithLayout& to, const FileArg& in,
                   const FileArg& out) {
  const std::string pair = "relayout " + shown_text(print_shape(from)) + " -> " + shown_text(print_shape(to)) + ": ";
  if (from.dims != to.dims) {
    throw Error(pair + "the dims differ, " + tuple(from.dims) + " and " + tuple(to.dims) +
                ": a relayout keeps every element where it is in the dense array");
  }
  if (from.type != to.type) {
    throw Error(pair + "the element types differ, " + std::string(element_type_name(from.type)) +
                " and " + std::string(element_type_name(to.type)) + ": a relayout keeps the element type");
  }
  if (from.dense_element_bytes() != to.dense_element_bytes()) {
    throw Error(pair + "the element widths, " + std::to_string(from.element_bits()) + " and " +
                std::to_string(to.element_bits()) + " bits, give dense elements of different sizes (" +
                std::to_string(from.dense_element_bytes()) + " and " +
                std::to_string(to.dense_element_bytes()) + " bytes)");
  }
  // Equal widths where impl::RelayoutPlan needs no dense copy of the whole
  // array (one pass, band by band, or block by block): it holds only source
  // and destination. Otherwise two pack plans
  // with the source freed between them hold two of source, dense array and
  // destination, and take pred in bytes to pred E(1).
  if (from.element_bits() == to.element_bits()) {
    const impl::RelayoutPlan plan(from, to);
    if (plan.by_tiles() || plan.banded() || plan.by_blocks()) {
      const impl::IndexPlan source(from), target(to);
      const std::vector<uint8_t> physical = read_array(in, Content::kPhysical, source);
      std::vector<uint8_t> result = allocate(Content::kPhysical, target);
      plan.run(physical, result);
      write_array(out, Content::kPhysical, target, result);
      return;
    }
  }
  const impl::PackPlan source(from), target(to);
  std::vector<uint8_t> dense = allocate(Content::kDense, source.index());
  {
    const std::vector<uint8_t> physical = read_array(in, Content::kPhysical, source.index());
    source.unpack(physical, dense);
  }
  std::vector<uint8_t> physical = allocate(Content::kPhysical, target.index());
  target.pack(dense, physical);
  write_array(out, Content::kPhysical, target.index(), physical);
}

}  // namespace tilecheck::files
