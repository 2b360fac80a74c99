// Explicit instantiations: every member of both fields is compiled once here,
// so a template error surfaces in this file rather than at first use.
#include "ff/ff.hpp"

namespace cuzk::ff {
template struct mont_field<fp_params>;
template struct mont_field<fr_params>;
}  // namespace cuzk::ff
