// Process-wide runtime settings (see runtime.hpp).
#include "common/runtime.hpp"

#include "common/autodiff/blas.hpp"

#include <cstdlib>
#include <malloc.h>

namespace attn {

RuntimeSettings tune_runtime() {
    RuntimeSettings settings;
    const bool mmap_ok = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;   // glibc's largest value on 64-bit
    const bool trim_ok = mallopt(M_TRIM_THRESHOLD, 512 << 20) == 1;
    settings.kept_freed_memory = mmap_ok && trim_ok;
    if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) blas::set_threads(1);
    settings.blas_threads = blas::threads();
    return settings;
}

}  // namespace attn
