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
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

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

namespace {

std::string read_pem(std::string_view key, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(fmt::format("daemon.{}: cannot read {}", key, path));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().find("-----BEGIN ") == std::string::npos) {
    throw config_error(fmt::format("daemon.{}: {} is not a PEM file (no -----BEGIN line)", key, path));
  }
  return text.str();
}

std::shared_ptr<grpc::ServerCredentials> tls_credentials(const daemon_config_t& config) {
  grpc::SslServerCredentialsOptions o(config.tls_client_ca.empty()
                                          ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  o.pem_key_cert_pairs.push_back({read_pem("tls_key", config.tls_key), read_pem("tls_cert", config.tls_cert)});
  if (!config.tls_client_ca.empty()) o.pem_root_certs = read_pem("tls_client_ca", config.tls_client_ca);
  return grpc::SslServerCredentials(o);
}

std::string ranges_text(const std::vector<address_range_t>& ranges) {
  std::string out;
  for (const auto& r : ranges) out += (out.empty() ? "" : ", ") + r.text();
  return out;
}

}  // namespace

daemon_t::daemon_t(const daemon_config_t& config, engine::engine_hooks_t hooks)
    : listen_(parse_listen_address(config.resolved_listen())) {
  address_ = listen_.grpc_target();
  const auto allow = config.allow_ranges();
  const bool open_beyond_loopback =
      std::any_of(allow.begin(), allow.end(), [](const address_range_t& r) { return !r.is_loopback(); });
  if (listen_.is_unix) {
    prepare_unix_socket();
  } else {
    // Bound before the engine starts, so a taken port fails fast.
    gate_ = std::make_unique<tcp_gate_t>(listen_, allow);
    listen_.port = gate_->port();
    address_ = listen_.grpc_target();
  }
  for (const auto& w : config.warnings) spdlog::warn("config: {}", w);
  std::shared_ptr<grpc::ServerCredentials> tls;
  if (!config.tls_listen.empty()) tls = tls_credentials(config);

  if (!hooks.backend) hooks.backend = engine::make_backend(config.backend, config.gpu_options());
  spdlog::info("prove backend: {} ({} devices; CPU fallback)", hooks.backend->name(), hooks.backend->device_count());
  engine_ = std::make_unique<engine::engine_t>(config.engine_config(), std::move(hooks));
  for (const auto& [id, r] : engine_->preload_all(config.srs_preload)) {
    spdlog::info("preloaded {} in {} ms", id, r.load_time_ms);
  }
  service_ = std::make_unique<proving_service_t>(*engine_, allow);

  grpc::ServerBuilder builder;
  int bound_port = 0, tls_port = 0;
  // The plaintext TCP listener is ours (tcp_gate_t); gRPC gets its connections by fd.
  if (listen_.is_unix) builder.AddListeningPort(address_, grpc::InsecureServerCredentials(), &bound_port);
  if (tls) builder.AddListeningPort(parse_listen_address(config.tls_listen).grpc_target(), tls, &tls_port);
  builder.SetMaxReceiveMessageSize(max_message_bytes);
  builder.SetMaxSendMessageSize(max_message_bytes);
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  if (!server_ || (listen_.is_unix && bound_port == 0) || (tls && tls_port == 0)) {
    engine_->stop();
    throw config_error(fmt::format("cannot listen on {} (address in use or not permitted?)",
                                   server_ && tls && tls_port == 0 ? config.tls_listen : address_));
  }
  if (gate_) {
    gate_->start(*server_);
    spdlog::info("TCP clients allowed from {} ([daemon] allow); others are refused at connect", ranges_text(allow));
    if (open_beyond_loopback) {
      spdlog::warn("listening on {} without authentication: any client in {} can submit work", address_,
                   ranges_text(allow));
    }
  }
  spdlog::info("listening on {} (max message {} MiB)", address_, max_message_bytes >> 20);
  if (tls) {
    auto t = parse_listen_address(config.tls_listen);
    t.port = uint16_t(tls_port);
    tls_address_ = t.grpc_target();
    spdlog::info("listening on {} with TLS ({}); clients allowed from {}", tls_address_,
                 config.tls_client_ca.empty() ? "server certificate only: encrypted, clients not authenticated"
                                              : "client certificates required (mTLS)",
                 ranges_text(allow));
  }
  if (!config.status_listen.empty()) {
    status_ = std::make_unique<status_server_t>(parse_listen_address(config.status_listen), allow, *engine_);
    auto s = parse_listen_address(config.status_listen);
    s.port = status_->port();
    status_address_ = s.grpc_target();
  }
}

void daemon_t::shutdown() {
  std::call_once(shutdown_once_, [this] {
    spdlog::info("draining: refusing new jobs, finishing accepted ones");
    auto t0 = std::chrono::steady_clock::now();
    engine_->drain();
    // Every job is finished, so waiting AwaitProof calls return within one
    // poll slice; the deadline only bounds calls stuck on a slow client.
    if (gate_) gate_->stop();  // no new connections for a server about to stop
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    status_.reset();
    engine_->stop();
    if (listen_.is_unix) ::unlink(listen_.path.c_str());
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    spdlog::info("stopped after draining for {:.0f} ms", ms);
  });
}

daemon_t::~daemon_t() { shutdown(); }

}  // namespace cuzk::service
