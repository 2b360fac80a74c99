#include "filecoin/parameter_digest.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

EVP_MD_CTX* evp(void* p) { return static_cast<EVP_MD_CTX*>(p); }

std::string read_marker(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  in >> s;
  return s;
}

}  // namespace

void blake2b_512_t::ctx_deleter::operator()(void* p) const { EVP_MD_CTX_free(evp(p)); }

blake2b_512_t::blake2b_512_t() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(evp(ctx_.get()), EVP_blake2b512(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL: cannot initialize BLAKE2b-512");
  }
}

blake2b_512_t::~blake2b_512_t() = default;

void blake2b_512_t::update(std::span<const std::uint8_t> data) {
  if (!data.empty() && EVP_DigestUpdate(evp(ctx_.get()), data.data(), data.size()) != 1) {
    throw std::runtime_error("OpenSSL: BLAKE2b-512 update failed");
  }
}

std::array<std::uint8_t, 64> blake2b_512_t::finish() {
  std::array<std::uint8_t, 64> out{};
  unsigned len = 0;
  if (EVP_DigestFinal_ex(evp(ctx_.get()), out.data(), &len) != 1 || len != out.size() ||
      EVP_DigestInit_ex(evp(ctx_.get()), EVP_blake2b512(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL: BLAKE2b-512 final failed");
  }
  return out;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (auto b : bytes) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

std::string parameter_digest(std::span<const std::uint8_t> bytes) {
  blake2b_512_t h;
  h.update(bytes);
  return to_hex(h.finish()).substr(0, 32);
}

std::string file_parameter_digest(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  constexpr std::size_t block = std::size_t(16) << 20;
  const auto buf = std::make_unique_for_overwrite<std::uint8_t[]>(block);
  blake2b_512_t h;
  for (;;) {
    const ssize_t n = ::read(fd, buf.get(), block);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(path + ": read failed: " + std::strerror(err));
    }
    h.update({buf.get(), std::size_t(n)});
  }
  ::close(fd);
  return to_hex(h.finish()).substr(0, 32);
}

std::string_view to_string(file_status_t s) {
  switch (s) {
    case file_status_t::ok: return "ok";
    case file_status_t::missing: return "missing";
    case file_status_t::corrupt: return "CORRUPT";
    case file_status_t::development: return "DEVELOPMENT";
    case file_status_t::unreadable: return "UNREADABLE";
  }
  return "?";
}

std::size_t parameter_dir_report_t::count(file_status_t s) const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.status == s;
  return n;
}

bool parameter_dir_report_t::all_present_ok() const {
  return count(file_status_t::corrupt) + count(file_status_t::development) + count(file_status_t::unreadable) == 0;
}

parameter_dir_report_t check_parameter_dir(const std::string& dir, const parameter_manifest_t& manifest,
                                           const std::function<void(const parameter_file_status_t&)>& on_file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw std::invalid_argument("parameter directory " + dir +
                                (fs::exists(dir, ec) ? " is not a directory" : " does not exist"));
  }
  parameter_dir_report_t r;
  r.dir = dir;
  for (const auto& e : manifest.entries()) r.files.push_back({&e, file_status_t::missing, {}, 0, {}});
  for (const auto& de : fs::directory_iterator(dir, ec)) {
    const std::string name = de.path().filename().string();
    if (manifest.find(name)) continue;
    std::error_code fe;
    if (de.is_regular_file(fe)) ++r.others;
  }
  std::vector<parameter_file_status_t*> present;
  for (auto& f : r.files) {
    const fs::path p = fs::path(dir) / f.entry->name;
    std::error_code fe;
    const auto st = fs::status(p, fe);
    if (fe || !fs::exists(st)) continue;
    if (!fs::is_regular_file(st)) {
      f.status = file_status_t::unreadable;
      f.error = "not a regular file";
      continue;
    }
    f.bytes = fs::file_size(p, fe);
    present.push_back(&f);
  }
  // One file per task: a file's hash is sequential, files are independent.
  std::mutex report_mu;
  tbb::parallel_for(std::size_t(0), present.size(), [&](std::size_t i) {
    auto& f = *present[i];
    const fs::path p = fs::path(dir) / f.entry->name;
    try {
      f.got = file_parameter_digest(p.string());
      if (f.got == f.entry->digest) {
        f.status = file_status_t::ok;
      } else {
        const fs::path marker = p.string() + std::string(development_marker_suffix);
        std::error_code me;
        f.status = fs::is_regular_file(marker, me) && read_marker(marker) == f.got ? file_status_t::development
                                                                                   : file_status_t::corrupt;
      }
    } catch (const std::exception& e) {
      f.status = file_status_t::unreadable;
      f.error = e.what();
    }
    if (on_file) {
      std::lock_guard lk(report_mu);
      on_file(f);
    }
  });
  return r;
}

}  // namespace cuzk::filecoin
