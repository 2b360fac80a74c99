// Native SHA-256 against the FIPS 180-4 examples (NIST "SHA-256" example
// values, csrc.nist.gov Examples with Intermediate Values) and against
// OpenSSL's SHA256 on random messages; both compression back ends.
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <random>
#include <string>
#include <vector>

#include "gadgets/sha256_native.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;

namespace {

std::string hex(const sha256_digest_t& d) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : d) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

sha256_digest_t hash_str(const std::string& s) {
  return sha256(std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
}

sha256_digest_t openssl_sha256(const std::vector<std::uint8_t>& m) {
  sha256_digest_t d;
  SHA256(m.data(), m.size(), d.data());
  return d;
}

}  // namespace

TEST(Sha256Native, FipsVectors) {
  EXPECT_EQ(hex(hash_str("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(hash_str("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(hash_str("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(hash_str("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopq"
                         "rstnopqrstu")),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  // One million 'a', fed in uneven pieces to exercise the streaming buffer.
  sha256_ctx_t ctx;
  std::string chunk(997, 'a');
  std::size_t left = 1000000;
  while (left > 0) {
    std::size_t n = std::min(left, chunk.size());
    ctx.update(std::span(reinterpret_cast<const std::uint8_t*>(chunk.data()), n));
    left -= n;
  }
  EXPECT_EQ(hex(ctx.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Native, RandomLengthsMatchOpenssl) {
  std::mt19937_64 rng(cuzk::test::seed("Sha256Native.RandomLengthsMatchOpenssl"));
  for (std::size_t len = 0; len <= 300; ++len) {
    std::vector<std::uint8_t> m(len);
    for (auto& b : m) b = std::uint8_t(rng());
    sha256_digest_t want = openssl_sha256(m);
    ASSERT_EQ(sha256(m), want) << "length " << len;
    // The same message streamed in random splits.
    sha256_ctx_t ctx;
    std::size_t at = 0;
    while (at < len) {
      std::size_t n = std::min<std::size_t>(len - at, rng() % 70);
      ctx.update(std::span(m).subspan(at, n));
      at += n;
    }
    ASSERT_EQ(ctx.finish(), want) << "streamed, length " << len;
  }
}

TEST(Sha256Native, BothBackEndsAgree) {
  std::mt19937_64 rng(cuzk::test::seed("Sha256Native.BothBackEndsAgree"));
  if (!detail::cpu_has_sha_ni()) GTEST_SKIP() << "CPU lacks SHA-NI; only the portable path is in use";
  for (std::size_t blocks = 1; blocks <= 9; ++blocks) {
    std::vector<std::uint8_t> data(64 * blocks);
    for (auto& b : data) b = std::uint8_t(rng());
    std::array<std::uint32_t, 8> s1, s2;
    for (std::size_t i = 0; i < 8; ++i) s1[i] = s2[i] = std::uint32_t(rng());
    detail::sha256_compress_portable(s1, data.data(), blocks);
    detail::sha256_compress_shani(s2, data.data(), blocks);
    ASSERT_EQ(s1, s2) << blocks << " blocks";
  }
  // The portable path alone on the FIPS "abc" block (padded by hand).
  std::array<std::uint8_t, 64> block{};
  block[0] = 'a', block[1] = 'b', block[2] = 'c', block[3] = 0x80, block[63] = 24;
  std::array<std::uint32_t, 8> s = sha256_iv;
  detail::sha256_compress_portable(s, block.data(), 1);
  EXPECT_EQ(s[0], 0xba7816bfu);
  EXPECT_EQ(s[7], 0xf20015adu);
}
