// cuzk decode-proof FILE|HEX
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/proof_file.hpp"
#include "ec/encoding.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

void print_coordinate(std::string_view name, const ff::fp_t& v) { fmt::print("  {:<11}0x{}\n", name, v.to_hex()); }

void print_point(const ec::g1_affine_t& p) {
  print_coordinate("x", p.x);
  print_coordinate("y", p.y);
}

void print_point(const ec::g2_affine_t& p) {
  print_coordinate("x.c0", p.x.c0);
  print_coordinate("x.c1", p.x.c1);
  print_coordinate("y.c0", p.y.c0);
  print_coordinate("y.c1", p.y.c1);
}

// Decodes one element on its own, so every element's state is shown even
// when an earlier one is bad.
template <class A>
bool show(const char* title, std::span<const uint8_t> bytes) {
  A p;
  auto err = ec::decode(bytes, p);
  fmt::print("{}\n", title);
  fmt::print("  {:<11}{}\n", "compressed", ec::to_hex(bytes));
  if (err != ec::point_error::none) {
    fmt::print("  invalid: {}\n", ec::describe(err));
    return false;
  }
  if (p.is_inf()) {
    fmt::print("  the point at infinity\n");
  } else {
    print_point(p);
  }
  return true;
}

int run_decode_proof(const std::string& source) {
  auto bytes = read_proof_bytes(source, literal_hex::accept);
  if (bytes.size() != groth16::proof_size) {
    throw groth16::format_error(source, "proof must be 192 bytes, got " + std::to_string(bytes.size()));
  }
  std::span<const uint8_t> b(bytes);
  show<ec::g1_affine_t>("A (G1)", b.subspan(0, 48));
  show<ec::g2_affine_t>("B (G2)", b.subspan(48, 96));
  show<ec::g1_affine_t>("C (G1)", b.subspan(144, 48));
  groth16::proof_t proof;
  if (auto r = groth16::decode_proof(bytes, proof); !r.ok()) return report_error(source + ": " + r.message());
  return exit_ok;
}

}  // namespace

command_t add_decode_proof_command(CLI::App& root) {
  auto source = std::make_shared<std::string>();
  auto* app = root.add_subcommand(
      "decode-proof", "Print a proof's A, B, C; exit 0 only when all three are valid subgroup points, else 2");
  app->add_option("proof", *source, "Proof file (192 raw bytes or hex text) or a hex string")->required();
  return {app, [source] { return run_decode_proof(*source); }};
}

}  // namespace cuzk::cli
