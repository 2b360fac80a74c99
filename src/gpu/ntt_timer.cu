// ntt_timer: device buffers, random fill and event timing.
#include <stdexcept>
#include <vector>

#include "gpu/device_buffer.cuh"
#include "gpu/event.cuh"
#include "gpu/ntt_device.cuh"
#include "gpu/ntt_domain_d.cuh"
#include "gpu/ntt_timer.hpp"
#include "gpu/stream.cuh"

namespace cuzk::gpu {

struct ntt_timer::impl {
  uint32_t log_n;
  stream_t s;
  event_t start, stop;
  std::vector<device_buffer<fr_d>> bufs;

  template <class F>
  double time(F&& work) {
    start.record(s);
    work();
    stop.record(s);
    stop.sync();
    return stop.ms_since(start);
  }
};

ntt_timer::ntt_timer(uint32_t log_n, int buffers) : impl_(std::make_unique<impl>()) {
  impl_->log_n = log_n;
  const size_t n = size_t(1) << log_n;
  for (int i = 0; i < buffers; ++i) {
    impl_->bufs.emplace_back(n);
    fill_random_d(impl_->bufs.back().data(), n, 0x1234 + i, impl_->s);
  }
  ntt_domain(log_n);  // build the tables outside any timed region
  impl_->s.sync();
}

ntt_timer::~ntt_timer() = default;

double ntt_timer::ntt_ms(ntt_dir dir, bool coset, ntt_config cfg) {
  return impl_->time([&] { ntt_d(impl_->bufs[0].data(), impl_->log_n, dir, coset, impl_->s, cfg); });
}

double ntt_timer::nr_passes_ms(ntt_dir dir, ntt_config cfg) {
  return impl_->time([&] { ntt_nr_d(impl_->bufs[0].data(), impl_->log_n, dir, {}, {}, impl_->s, cfg); });
}

double ntt_timer::bit_reverse_ms() {
  return impl_->time([&] { bit_reverse_d(impl_->bufs[0].data(), impl_->log_n, impl_->s); });
}

double ntt_timer::compute_h_ms(ntt_config cfg) {
  if (impl_->bufs.size() < 3) throw std::invalid_argument("ntt_timer::compute_h_ms needs 3 buffers");
  return impl_->time([&] {
    compute_h_d(impl_->bufs[0].data(), impl_->bufs[1].data(), impl_->bufs[2].data(), impl_->log_n, impl_->s, cfg);
  });
}

}  // namespace cuzk::gpu
