#include "groth16/param_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <stdexcept>

#include "ec/encoding.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::groth16 {
namespace {

// Read-only mapping of a whole file; unmapped on destruction.
class mapped_file {
 public:
  explicit mapped_file(const std::string& path) : path_(path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw format_error(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw format_error(path, "not a regular file");
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        throw format_error(path, std::string("mmap failed: ") + std::strerror(errno));
      }
      data_ = static_cast<const uint8_t*>(p);
      ::madvise(p, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
  }
  ~mapped_file() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The smallest i in [0, n) for which bad(i) holds, or SIZE_MAX: the points
// are checked in parallel and the first bad one is what an error names.
template <class Bad>
size_t first_bad_index(size_t n, const Bad& bad) {
  std::atomic<size_t> first{SIZE_MAX};
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1024), [&](const auto& r) {
    for (size_t i = r.begin(); i < r.end(); ++i) {
      if (bad(i)) {
        size_t cur = first.load();
        while (i < cur && !first.compare_exchange_weak(cur, i)) {
        }
        return;  // later points of this range cannot be first
      }
    }
  });
  return first.load();
}

template <class A>
ec::point_error decode_point(std::span<const uint8_t> bytes, A& out, ec::subgroup_check chk) {
  auto e = ec::decode(bytes, out, chk);
  if (e == ec::point_error::none && out.is_inf()) e = ec::point_error::infinity;
  return e;
}

// Decodes out.size() points from `body` (their encodings back to back) in
// parallel, with the checks read_parameters makes (canonical, on the curve,
// `chk`'s subgroup check, not infinity); the first bad one is reported as
// what[first_index + i].
template <class A>
void decode_points(std::span<const uint8_t> body, std::span<A> out, ec::subgroup_check chk, const std::string& name,
                   const std::string& what, size_t first_index) {
  constexpr size_t sz = sizeof(A);
  const size_t i = first_bad_index(out.size(), [&](size_t k) {
    return decode_point(body.subspan(k * sz, sz), out[k], chk) != ec::point_error::none;
  });
  if (i != SIZE_MAX) {
    A p;  // decoded again alone: which check it failed
    throw format_error(name, what + "[" + std::to_string(first_index + i) + "]: " +
                                 ec::describe(decode_point(body.subspan(i * sz, sz), p, chk)));
  }
}

// Points [at, at + out.size()) of query q of a file with layout l, decoded
// with decode_points' checks; errors name the query and the point's index.
// Returns the file bytes those points were decoded from.
template <class A>
std::span<const uint8_t> decode_query_range(std::span<const uint8_t> file, const parameter_layout_t& l, uint32_t q, size_t at,
                        std::span<A> out, ec::subgroup_check chk, const std::string& name) {
  const uint64_t n = l.count(q);
  if (at > n || out.size() > n - at) {
    throw std::out_of_range(name + ": " + parameter_layout_t::name(q) + " [" + std::to_string(at) + ", " +
                            std::to_string(at + out.size()) + ") is outside its " + std::to_string(n) + " points");
  }
  const auto body = file.subspan(l.offset[q] + at * sizeof(A), out.size() * sizeof(A));
  decode_points<A>(body, out, chk, name, parameter_layout_t::name(q), at);
  return body;
}

// Sequential cursor over the file bytes with bounds checks that name the section.
class reader {
 public:
  reader(std::span<const uint8_t> b, const std::string& name) : b_(b), name_(name) {}

  std::span<const uint8_t> take(size_t n, const std::string& what) {
    if (b_.size() - off_ < n) {
      throw format_error(name_, "truncated in " + what + ": need " + std::to_string(n) + " bytes at offset " +
                                    std::to_string(off_) + ", file has " + std::to_string(b_.size()));
    }
    auto s = b_.subspan(off_, n);
    off_ += n;
    return s;
  }
  uint32_t u32(const std::string& what) {
    auto s = take(4, what + " count");
    return uint32_t(s[0]) << 24 | uint32_t(s[1]) << 16 | uint32_t(s[2]) << 8 | uint32_t(s[3]);
  }
  template <class A>
  A point(const std::string& what) {
    A p;
    if (auto e = decode_point(take(sizeof(A), what), p, ec::subgroup_check::check); e != ec::point_error::none) {
      throw format_error(name_, what + ": " + ec::describe(e));
    }
    return p;
  }
  // Count-prefixed vector, validated in parallel; reports the first bad index.
  template <class A>
  std::vector<A> points(const std::string& what, ec::subgroup_check chk = ec::subgroup_check::check) {
    auto body = counted(what, sizeof(A));
    std::vector<A> out(body.size() / sizeof(A));
    decode_points<A>(body, out, chk, name_, what, 0);
    return out;
  }
  // The bytes of a count-prefixed vector of `point_size`-byte points, skipped.
  std::span<const uint8_t> counted(const std::string& what, size_t point_size) {
    uint32_t n = u32(what);
    if ((b_.size() - off_) / point_size < n) {
      throw format_error(name_, "truncated in " + what + ": " + std::to_string(n) + " points of " +
                                    std::to_string(point_size) + " bytes declared at offset " + std::to_string(off_) +
                                    ", only " + std::to_string(b_.size() - off_) + " bytes remain");
    }
    return take(size_t(n) * point_size, what);
  }
  size_t remaining() const { return b_.size() - off_; }
  size_t offset() const { return off_; }

 private:
  std::span<const uint8_t> b_;
  const std::string& name_;
  size_t off_ = 0;
};

// The subgroup checks parse_parameters skipped, over decoded points: in
// parallel, reporting the first point outside the subgroup by section and index.
template <class A>
void check_subgroup(const std::vector<A>& v, const std::string& name, const char* what) {
  if (size_t i = first_bad_index(v.size(), [&](size_t k) { return !ec::in_subgroup(v[k]); }); i != SIZE_MAX) {
    throw format_error(name, std::string(what) + "[" + std::to_string(i) + "]: " +
                                 ec::describe(ec::point_error::not_in_subgroup));
  }
}

verifying_key_t read_vk(reader& r, const std::string& name) {
  verifying_key_t vk;
  vk.alpha_g1 = r.point<g1_affine_t>("vk.alpha_g1");
  vk.beta_g1 = r.point<g1_affine_t>("vk.beta_g1");
  vk.beta_g2 = r.point<g2_affine_t>("vk.beta_g2");
  vk.gamma_g2 = r.point<g2_affine_t>("vk.gamma_g2");
  vk.delta_g1 = r.point<g1_affine_t>("vk.delta_g1");
  vk.delta_g2 = r.point<g2_affine_t>("vk.delta_g2");
  vk.ic = r.points<g1_affine_t>("vk.ic");
  if (vk.ic.empty()) throw format_error(name, "vk.ic is empty (needs at least the ONE term)");
  return vk;
}

class writer {
 public:
  explicit writer(const std::string& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
    if (!out_) throw format_error(path, "cannot open for writing");
  }
  void u32(uint32_t v) {
    uint8_t b[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
    out_.write(reinterpret_cast<const char*>(b), 4);
  }
  template <class A>
  void point(const A& p) {
    auto s = ec::serialize(p);
    out_.write(reinterpret_cast<const char*>(s.data()), std::streamsize(s.size()));
  }
  template <class A>
  void points(const std::vector<A>& v) {
    u32(uint32_t(v.size()));
    for (const auto& p : v) point(p);
  }
  void vk(const verifying_key_t& k) {
    point(k.alpha_g1);
    point(k.beta_g1);
    point(k.beta_g2);
    point(k.gamma_g2);
    point(k.delta_g1);
    point(k.delta_g2);
    points(k.ic);
  }
  void close() {
    out_.close();
    if (!out_) throw format_error(path_, "write failed");
  }

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace

parameters_t parse_parameters(std::span<const uint8_t> bytes, const std::string& name, ec::subgroup_check chk) {
  const parameter_layout_t l = parse_parameter_layout(bytes, name);
  parameters_t p;
  p.vk = l.vk;
  std::vector<g1_affine_t>* g1[4] = {&p.h, &p.l, &p.a, &p.b_g1};
  for (uint32_t q = 0; q < 4; ++q) {
    g1[q]->resize(l.count(q));
    decode_query_range<g1_affine_t>(bytes, l, q, 0, *g1[q], chk, name);
  }
  p.b_g2.resize(l.sizes.b_g2);
  decode_query_range<g2_affine_t>(bytes, l, 4, 0, p.b_g2, chk, name);
  return p;
}

verifying_key_t parse_verifying_key(std::span<const uint8_t> bytes, const std::string& name) {
  reader r(bytes, name);
  verifying_key_t vk;
  vk = read_vk(r, name);
  if (r.remaining() != 0) {
    throw format_error(name, std::to_string(r.remaining()) +
                                 " trailing bytes after the verifying key (is this a parameter file?)");
  }
  return vk;
}

parameters_t read_parameters(const std::string& path, ec::subgroup_check chk) {
  mapped_file f(path);
  return parse_parameters(f.bytes(), path, chk);
}

parameters_t read_parameters_if_trusted(const std::string& path,
                                        const std::function<bool(std::span<const uint8_t>)>& trusted,
                                        bool* trusted_out) {
  mapped_file f(path);
  // The hash reads the mapping on its own thread while the parser's threads
  // read it too: the file comes from disk once, and the hash (sequential)
  // overlaps the parse (parallel).
  auto verdict = std::async(std::launch::async, [&] {
    try {
      return trusted(f.bytes());
    } catch (const std::exception&) {
      return false;  // could not establish trust: check every point
    }
  });
  parameters_t p;
  try {
    p = parse_parameters(f.bytes(), path, ec::subgroup_check::skip);
  } catch (...) {
    verdict.wait();  // it reads f's mapping
    throw;
  }
  const bool ok = verdict.get();
  if (trusted_out) *trusted_out = ok;
  if (!ok) {
    check_subgroup(p.h, path, "h");
    check_subgroup(p.l, path, "l");
    check_subgroup(p.a, path, "a");
    check_subgroup(p.b_g1, path, "b_g1");
    check_subgroup(p.b_g2, path, "b_g2");
  }
  return p;
}

verifying_key_t read_verifying_key(const std::string& path) {
  mapped_file f(path);
  return parse_verifying_key(f.bytes(), path);
}

void write_parameters(const std::string& path, const parameters_t& p) {
  writer w(path);
  w.vk(p.vk);
  w.points(p.h);
  w.points(p.l);
  w.points(p.a);
  w.points(p.b_g1);
  w.points(p.b_g2);
  w.close();
}

void write_verifying_key(const std::string& path, const verifying_key_t& vk) {
  writer w(path);
  w.vk(vk);
  w.close();
}

uint64_t parameter_layout_t::count(uint32_t q) const {
  switch (q) {
    case 0: return sizes.h;
    case 1: return sizes.l;
    case 2: return sizes.a;
    case 3: return sizes.b_g1;
    case 4: return sizes.b_g2;
    default: throw std::out_of_range("parameter_layout_t: query " + std::to_string(q));
  }
}

uint64_t parameter_layout_t::query_bytes(uint32_t q) const {
  return count(q) * (q == 4 ? sizeof(g2_affine_t) : sizeof(g1_affine_t));
}

uint64_t parameter_layout_t::bytes_holding(uint32_t held) const {
  uint64_t b = sizeof(g1_affine_t) * vk.ic.size() + sizeof(verifying_key_t);
  for (uint32_t q = 0; q < queries; ++q) {
    if (held >> q & 1) b += query_bytes(q);
  }
  return b;
}

uint64_t parameter_file_bytes(const query_sizes_t& q) {
  constexpr uint64_t g1 = sizeof(g1_affine_t), g2 = sizeof(g2_affine_t), count = 4;
  const uint64_t vk = 3 * g1 + 3 * g2 + count + g1 * q.ic;
  return vk + 5 * count + g1 * (q.h + q.l + q.a + q.b_g1) + g2 * q.b_g2;
}

parameter_layout_t parse_parameter_layout(std::span<const uint8_t> bytes, const std::string& name) {
  reader r(bytes, name);
  parameter_layout_t l;
  l.file_bytes = bytes.size();
  l.vk = read_vk(r, name);
  size_t* counts[parameter_layout_t::queries] = {&l.sizes.h, &l.sizes.l, &l.sizes.a, &l.sizes.b_g1, &l.sizes.b_g2};
  for (uint32_t q = 0; q < parameter_layout_t::queries; ++q) {
    const size_t sz = q == 4 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    auto body = r.counted(parameter_layout_t::name(q), sz);
    l.offset[q] = uint64_t(body.data() - bytes.data());
    *counts[q] = body.size() / sz;
  }
  l.sizes.ic = l.vk.ic.size();
  if (r.remaining() != 0) {
    throw format_error(name, std::to_string(r.remaining()) + " trailing bytes after b_g2 at offset " +
                                 std::to_string(r.offset()));
  }
  if (l.sizes.a < l.sizes.ic) {
    throw format_error(name, "a has " + std::to_string(l.sizes.a) + " points, fewer than the " +
                                 std::to_string(l.sizes.ic) + " inputs of the verifying key");
  }
  return l;
}

struct parameter_file_t::mapping : mapped_file {
  using mapped_file::mapped_file;
};

parameter_file_t::parameter_file_t(const std::string& path)
    : path_(path), map_(std::make_unique<mapping>(path)), layout_(parse_parameter_layout(map_->bytes(), path)) {
  // Queries are read in pieces, in no particular order (device first).
  ::madvise(const_cast<uint8_t*>(map_->bytes().data()), map_->bytes().size(), MADV_NORMAL);
}

parameter_file_t::~parameter_file_t() = default;

std::span<const uint8_t> parameter_file_t::bytes() const { return map_->bytes(); }

namespace {

template <class A>
void read_range(std::span<const uint8_t> file, const parameter_layout_t& l, uint32_t q, size_t at, std::span<A> out,
                ec::subgroup_check chk, const std::string& path) {
  const auto body = decode_query_range<A>(file, l, q, at, out, chk, path);
  // The decoded pages leave this process's RSS (the page cache keeps them):
  // a 44 GiB file read piece by piece must not count as 44 GiB resident.
  // Only whole pages inside the range; the mapping is private and never
  // written, so a later read of them faults the same bytes in again.
  static const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (uintptr_t(body.data()) + page - 1) & ~(page - 1);
  const uintptr_t end = (uintptr_t(body.data()) + body.size()) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace

void parameter_file_t::read(uint32_t q, size_t at, std::span<g1_affine_t> out, ec::subgroup_check chk) const {
  if (q >= 4) throw std::out_of_range(path_ + ": query " + std::to_string(q) + " is not a G1 query");
  read_range(bytes(), layout_, q, at, out, chk, path_);
}

void parameter_file_t::read(size_t at, std::span<g2_affine_t> out, ec::subgroup_check chk) const {
  read_range(bytes(), layout_, 4, at, out, chk, path_);
}

std::vector<g1_affine_t> parameter_file_t::g1_query(uint32_t q, ec::subgroup_check chk) const {
  std::vector<g1_affine_t> v(layout_.count(q));
  read(q, 0, v, chk);
  return v;
}

std::vector<g2_affine_t> parameter_file_t::g2_query(ec::subgroup_check chk) const {
  std::vector<g2_affine_t> v(layout_.sizes.b_g2);
  read(0, v, chk);
  return v;
}

void parameter_file_t::check_subgroups(uint32_t q, size_t chunk) const {
  chunk = std::max<size_t>(chunk, 1);
  const size_t n = layout_.count(q);
  if (q == 4) {
    std::vector<g2_affine_t> buf(std::min(chunk, n));
    for (size_t at = 0; at < n; at += chunk) read(at, std::span(buf).first(std::min(chunk, n - at)), ec::subgroup_check::check);
  } else {
    std::vector<g1_affine_t> buf(std::min(chunk, n));
    for (size_t at = 0; at < n; at += chunk) {
      read(q, at, std::span(buf).first(std::min(chunk, n - at)), ec::subgroup_check::check);
    }
  }
}

parameters_t parameter_file_t::read_queries(uint32_t wanted, ec::subgroup_check chk) const {
  parameters_t p;
  p.vk = layout_.vk;
  std::vector<g1_affine_t>* g1[4] = {&p.h, &p.l, &p.a, &p.b_g1};
  for (uint32_t q = 0; q < 4; ++q) {
    if (wanted >> q & 1) *g1[q] = g1_query(q, chk);
  }
  if (wanted >> 4 & 1) p.b_g2 = g2_query(chk);
  return p;
}

file_summary summarize_file(const std::string& path, bool check_points) {
  mapped_file f(path);
  reader r(f.bytes(), path);
  file_summary s;
  s.file_bytes = f.bytes().size();
  s.vk = read_vk(r, path);
  if (r.remaining() == 0) {
    s.kind = "verifying key";
    return s;
  }
  s.kind = "parameters";
  const query_sizes_t q =
      check_points ? query_sizes_t::of(parse_parameters(f.bytes(), path)) : parse_parameter_layout(f.bytes(), path).sizes;
  s.h = q.h;
  s.l = q.l;
  s.a = q.a;
  s.b_g1 = q.b_g1;
  s.b_g2 = q.b_g2;
  return s;
}

}  // namespace cuzk::groth16
