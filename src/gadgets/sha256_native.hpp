#pragma once
// SHA-256 (FIPS 180-4) on the CPU, for the native side of PoRep: labels,
// Tree D, replica_id and challenges (FILECOIN_POREP.md §3.1). Sealing an
// 8 MiB sector hashes every node of every layer, so the compression function
// uses the x86 SHA extensions (SHA-NI) when the running CPU has them
// (checked once at run time) and portable code otherwise; both give the same
// bytes (tests/gadgets/test_sha256_native.cpp checks each against OpenSSL).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::gadgets {

using sha256_digest_t = std::array<std::uint8_t, 32>;

// The FIPS 180-4 initial hash value H(0).
inline constexpr std::array<std::uint32_t, 8> sha256_iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// The 64 round constants K (FIPS 180-4 §4.2.2); the circuit uses them too.
extern const std::array<std::uint32_t, 64> sha256_k;

// One compression: state <- state + rounds(state, block). block64 holds 64
// bytes, big-endian words as in the standard.
void sha256_compress(std::array<std::uint32_t, 8>& state, const std::uint8_t* block64);

// Streaming hash. update() may be called any number of times; finish() pads,
// returns the digest and leaves the context reset for a new message.
class sha256_ctx_t {
 public:
  void update(std::span<const std::uint8_t> data);
  sha256_digest_t finish();

 private:
  std::array<std::uint32_t, 8> state_ = sha256_iv;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

sha256_digest_t sha256(std::span<const std::uint8_t> data);

namespace detail {
// The two back ends, exposed so tests can run both on any machine that has
// SHA-NI. `blocks` consecutive 64-byte blocks are compressed in turn.
void sha256_compress_portable(std::array<std::uint32_t, 8>& state, const std::uint8_t* data, std::size_t blocks);
void sha256_compress_shani(std::array<std::uint32_t, 8>& state, const std::uint8_t* data, std::size_t blocks);
bool cpu_has_sha_ni();
}  // namespace detail

}  // namespace cuzk::gadgets
