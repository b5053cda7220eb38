// Process-wide settings that make small-model training fast on these machines: freed memory
// stays in the process (a fresh page costs ~12 us here; common/README.md, "xtensor pitfalls"), and
// OpenBLAS runs one thread unless OPENBLAS_NUM_THREADS says otherwise (our matrices are small,
// and a second thread mostly spins). Introduced in chapter 01; run_program calls it.
#pragma once

namespace attn {

struct RuntimeSettings {
    bool kept_freed_memory = false;   // glibc accepted the mallopt settings
    int blas_threads = 0;
};

RuntimeSettings tune_runtime();

}  // namespace attn
