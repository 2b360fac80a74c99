#include <fmt/core.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "engine/gpu_backend_t.hpp"
#include "service/config_error.hpp"
#include "service/daemon_t.hpp"

namespace cuzk::service {
namespace {

// Whether something accepts connections on the unix socket at `path`.
bool socket_is_live(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return live;
}

// %* in the json pattern: the message with JSON string escapes, so a log
// line is always one valid JSON object whatever the message holds.
class json_message_flag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    for (char c : msg.payload) {
      switch (c) {
        case '"': dest.append(std::string_view("\\\"")); break;
        case '\\': dest.append(std::string_view("\\\\")); break;
        case '\n': dest.append(std::string_view("\\n")); break;
        case '\t': dest.append(std::string_view("\\t")); break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            auto s = fmt::format("\\u{:04x}", static_cast<unsigned>(c));
            dest.append(s.data(), s.data() + s.size());
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<json_message_flag>(); }
};

}  // namespace

void configure_logging(const std::string& level, const std::string& format) {
  auto logger = std::make_shared<spdlog::logger>("cuzk", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  std::unique_ptr<spdlog::pattern_formatter> formatter;
  if (format == "json") {
    formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<json_message_flag>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","thread":%t,"msg":"%*"})");
  } else {
    formatter = std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%e %^%-5l%$ [%t] %v");
  }
  logger->set_formatter(std::move(formatter));
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") throw config_error(fmt::format("log level '{}' is unknown", level));
  logger->set_level(lvl);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
}

void daemon_t::prepare_unix_socket() const {
  namespace fs = std::filesystem;
  const fs::path path(listen_.path);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw config_error(fmt::format("{}: cannot create the socket's directory: {}", listen_.path, ec.message()));
  struct stat st {};
  if (::lstat(listen_.path.c_str(), &st) != 0) return;  // nothing there
  if (!S_ISSOCK(st.st_mode)) {
    throw config_error(fmt::format("{}: exists and is not a socket; refusing to replace it", listen_.path));
  }
  if (socket_is_live(listen_.path)) {
    throw config_error(fmt::format("{}: another daemon is listening on this socket", listen_.path));
  }
  spdlog::info("removing stale socket {}", listen_.path);
  if (::unlink(listen_.path.c_str()) != 0 && errno != ENOENT) {
    throw config_error(fmt::format("{}: cannot remove the stale socket: {}", listen_.path, std::strerror(errno)));
  }
}

daemon_t::daemon_t(const daemon_config_t& config, engine::engine_hooks_t hooks)
    : listen_(parse_listen_address(config.resolved_listen())) {
  address_ = listen_.grpc_target();
  if (listen_.is_unix) prepare_unix_socket();
  if (!listen_.is_loopback()) {
    spdlog::warn("listening on {}: the API has no authentication; anyone who can reach this address can submit work",
                 address_);
  }
  for (const auto& w : config.warnings) spdlog::warn("config: {}", w);

  if (!hooks.backend) hooks.backend = engine::make_backend(config.backend, config.gpu_options());
  spdlog::info("prove backend: {} ({} devices; CPU fallback)", hooks.backend->name(), hooks.backend->device_count());
  engine_ = std::make_unique<engine::engine_t>(config.engine_config(), std::move(hooks));
  for (const auto& id : config.srs_preload) {
    auto r = engine_->preload(id);
    spdlog::info("preloaded {} in {} ms", id, r.load_time_ms);
  }
  service_ = std::make_unique<proving_service_t>(*engine_);

  grpc::ServerBuilder builder;
  int bound_port = 0;
  builder.AddListeningPort(address_, grpc::InsecureServerCredentials(), &bound_port);
  builder.SetMaxReceiveMessageSize(max_message_bytes);
  builder.SetMaxSendMessageSize(max_message_bytes);
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  if (!server_ || bound_port == 0) {
    engine_->stop();
    throw config_error(fmt::format("cannot listen on {} (address in use or not permitted?)", address_));
  }
  spdlog::info("listening on {} (max message {} MiB)", address_, max_message_bytes >> 20);
}

void daemon_t::shutdown() {
  std::call_once(shutdown_once_, [this] {
    spdlog::info("draining: refusing new jobs, finishing accepted ones");
    auto t0 = std::chrono::steady_clock::now();
    engine_->drain();
    // Every job is finished, so waiting AwaitProof calls return within one
    // poll slice; the deadline only bounds calls stuck on a slow client.
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    engine_->stop();
    if (listen_.is_unix) ::unlink(listen_.path.c_str());
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    spdlog::info("stopped after draining for {:.0f} ms", ms);
  });
}

daemon_t::~daemon_t() { shutdown(); }

}  // namespace cuzk::service
