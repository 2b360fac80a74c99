// [gpus] backend: the documented default, each accepted name, and a bad name
// rejected with a message naming the key and the choices.
#include <gtest/gtest.h>

#include <string>

#include "service/config_error.hpp"
#include "service/daemon_config_t.hpp"

namespace cuzk::service {
namespace {

TEST(ServiceConfigBackend, DefaultIsAutoAndEachNameIsKept) {
  EXPECT_EQ(parse_daemon_config("", "empty.toml").backend, "auto");
  for (std::string name : {"auto", "cpu", "cuda"}) {
    const auto c = parse_daemon_config("[gpus]\nbackend = \"" + name + "\"\n", "b.toml");
    EXPECT_EQ(c.backend, name);
    EXPECT_TRUE(c.warnings.empty()) << "gpus.backend reported as unknown";
  }
}

TEST(ServiceConfigBackend, UnknownBackendIsRejectedNamingTheKey) {
  try {
    parse_daemon_config("[gpus]\nbackend = \"opencl\"\n", "b.toml");
    ADD_FAILURE() << "gpus.backend = opencl accepted";
  } catch (const config_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("backend"), std::string::npos) << what;
    EXPECT_NE(what.find("opencl"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace cuzk::service
