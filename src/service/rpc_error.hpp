#pragma once
// A gRPC call that did not return OK, seen from a client: the code and the
// server's message. INVALID_ARGUMENT and NOT_FOUND come from what the caller
// sent; the CLI reports those as bad input (exit 2), the rest as exit 3.
#include <grpcpp/support/status.h>

#include <stdexcept>
#include <string>

namespace cuzk::service {

class rpc_error : public std::runtime_error {
 public:
  rpc_error(const std::string& what, grpc::StatusCode code) : std::runtime_error(what), code_(code) {}
  grpc::StatusCode code() const { return code_; }
  bool is_caller_error() const {
    return code_ == grpc::StatusCode::INVALID_ARGUMENT || code_ == grpc::StatusCode::NOT_FOUND;
  }

 private:
  grpc::StatusCode code_;
};

}  // namespace cuzk::service
