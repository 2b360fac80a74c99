// Groth16 setup with the fixed-base multiplications on the GPU: for the same
// toxic waste its parameter file is byte-identical to the CPU setup's, and
// the proofs it gives verify. Without a GPU: the setup_muls_t seam is honoured
// (a second CPU implementation through it gives the same parameters) and the
// GPU setup refuses with a clear error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "circuits/circuits.hpp"
#include "gpu/device.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

std::string file_bytes(const parameters_t& p, const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() / ("cuzk_gpu_setup_" + std::to_string(::getpid()) + name);
  write_parameters(path.string(), p);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  return bytes;
}

// Scalar multiplication by double-and-add, independent of ec::fixed_base_t.
template <class C>
std::vector<ec::affine_t<C>> naive_muls(const ec::affine_t<C>& g, std::span<const fr_t> s) {
  std::vector<ec::affine_t<C>> out;
  for (const auto& x : s) {
    const auto k = x.to_canonical();
    auto acc = ec::jacobian_t<C>::infinity();
    for (int bit = 255; bit >= 0; --bit) {
      acc = acc.dbl();
      if ((k[bit / 64] >> (bit % 64)) & 1) acc = acc.add_mixed(g);
    }
    out.push_back(acc.to_affine());
  }
  return out;
}

}  // namespace

TEST(gpu_setup, muls_seam_gives_the_same_parameters) {
  const uint64_t seed = test::seed("gpu_setup seam");
  auto circuit = circuits::make_circuit("hash-chain", 40);
  seeded_rng rng(seed);
  const auto tw = toxic_waste_t::random(rng);
  size_t g1_points = 0, g2_points = 0;
  setup_muls_t naive{[&](std::span<const fr_t> s) {
                       g1_points += s.size();
                       return naive_muls(ec::g1_generator(), s);
                     },
                     [&](std::span<const fr_t> s) {
                       g2_points += s.size();
                       return naive_muls(ec::g2_generator(), s);
                     }};
  const auto via_seam = generate_parameters(*circuit, tw, naive);
  const auto on_cpu = generate_parameters(*circuit, tw);
  EXPECT_EQ(g2_points, on_cpu.b_g2.size());
  EXPECT_EQ(g1_points, on_cpu.h.size() + on_cpu.vk.ic.size() + on_cpu.l.size() + on_cpu.a.size() + on_cpu.b_g1.size());
  EXPECT_EQ(file_bytes(via_seam, "seam"), file_bytes(on_cpu, "cpu"));
}

TEST(gpu_setup, byte_identical_to_cpu_setup_and_proofs_verify) {
  auto circuit = circuits::make_circuit("hash-chain", 3000);
  seeded_rng rng(test::seed("gpu_setup"));
  const auto tw = toxic_waste_t::random(rng);
  if (gpu::device_count() == 0) {
    EXPECT_THROW(generate_parameters_gpu(*circuit, tw), std::runtime_error);
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU part skipped";
  }
  const auto on_gpu = generate_parameters_gpu(*circuit, tw);
  const auto on_cpu = generate_parameters(*circuit, tw);
  EXPECT_TRUE(on_gpu == on_cpu);
  EXPECT_EQ(file_bytes(on_gpu, "gpu"), file_bytes(on_cpu, "cpu"));

  const auto inputs = circuit->public_inputs();
  prepared_vk_t pvk(on_gpu.vk);
  const proof_t p = prove(on_gpu, *circuit, rng);
  EXPECT_TRUE(pvk.verify(p, inputs));
  auto bad = inputs;
  bad[0] += fr_t::one();
  EXPECT_FALSE(pvk.verify(p, bad));
}
