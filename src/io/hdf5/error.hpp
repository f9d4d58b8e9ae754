#pragma once
// The one exception of the HDF5 layer. Every failed HDF5 call becomes an Error whose message names
// the call, the file and the object (group, dataset or attribute), followed by what HDF5's error
// stack says, so a failed write reads like "H5Dwrite failed (file 'out.h5.partial-42', dataset
// '/links/bytes'): ... : No space left on device".
#include <stdexcept>
#include <string>

namespace rackscale::io::hdf5 {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace rackscale::io::hdf5
