#pragma once
// Digests of parameter files and the check of a parameter directory against
// the manifest (rust-fil-proofs parameter_cache.rs verify_production_entry:
// the digest is the first 32 hex characters of the unkeyed BLAKE2b-512 of the
// whole file). BLAKE2b is OpenSSL's: ~1.3 GB/s on one core here (a 32 GiB
// PoRep file, ~47 GB, in ~36 s), 4x our portable one under -march=native.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/parameter_manifest_t.hpp"

namespace cuzk::filecoin {

// Streaming unkeyed BLAKE2b-512.
class blake2b_512_t {
 public:
  blake2b_512_t();
  ~blake2b_512_t();
  blake2b_512_t(const blake2b_512_t&) = delete;
  blake2b_512_t& operator=(const blake2b_512_t&) = delete;
  void update(std::span<const std::uint8_t> data);
  std::array<std::uint8_t, 64> finish();

 private:
  struct ctx_deleter {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, ctx_deleter> ctx_;
};

std::string to_hex(std::span<const std::uint8_t> bytes);

// The manifest's form: the first 32 hex characters of BLAKE2b-512(bytes).
std::string parameter_digest(std::span<const std::uint8_t> bytes);
// Of a whole file, read in 16 MiB blocks. Throws std::runtime_error naming the
// file when it cannot be opened or read.
std::string file_parameter_digest(const std::string& path);

// `cuzk setup --official-names` marks the development parameters it writes
// under official names with a file beside each, "<name>.development", holding
// the digest of what it wrote; check_parameter_dir reports such a file as
// development (not the ceremony's) rather than corrupt while its digest is
// still the recorded one.
inline constexpr std::string_view development_marker_suffix = ".development";

enum class file_status_t : std::uint8_t {
  ok,           // present, digest matches the manifest
  missing,      // not in the directory
  corrupt,      // present, digest differs (truncated, damaged, or another file)
  development,  // present, digest differs, and it is the one cuzk setup recorded
  unreadable,   // present but could not be read (permissions, not a file)
};
std::string_view to_string(file_status_t s);

struct parameter_file_status_t {
  const manifest_entry_t* entry = nullptr;  // into the manifest checked against
  file_status_t status = file_status_t::missing;
  std::string got;            // the file's digest (ok, corrupt, development)
  std::uint64_t bytes = 0;    // file size when present
  std::string error;          // unreadable: why
};

struct parameter_dir_report_t {
  std::string dir;
  // Every manifest entry, in manifest (name) order.
  std::vector<parameter_file_status_t> files;
  // Regular files in dir that are not in the manifest (markers, our own
  // <circuit_id>.params, ...): ignored, only counted.
  std::size_t others = 0;

  std::size_t count(file_status_t s) const;
  // No file present is corrupt, development or unreadable.
  bool all_present_ok() const;
};

// Checks every manifest entry present in dir, several files at once. The
// callback, when given, is called (from any thread, one call at a time) as
// each present file has been hashed. Throws std::invalid_argument when dir is
// not a directory.
parameter_dir_report_t check_parameter_dir(
    const std::string& dir, const parameter_manifest_t& manifest = parameter_manifest_t::official(),
    const std::function<void(const parameter_file_status_t&)>& on_file = {});

}  // namespace cuzk::filecoin
