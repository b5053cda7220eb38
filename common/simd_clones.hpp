// Vector width chosen at run time. GCC compiles a function marked COURSE_SIMD_CLONES three
// times, for AVX-512, for AVX2 and for plain x86-64, and the program picks the widest one its
// CPU has when it starts (an ifunc). So the binaries stay portable (no -march=native) and
// still use 16 floats per instruction where the CPU can.
//
// The clones compute the same floating-point operations in the same order: the project is
// compiled with -ffp-contract=off, which keeps GCC from fusing a * b + c into one FMA where a
// clone's CPU has one, and nothing allows reassociation, so a marked loop gives bit-identical
// results on every CPU; only the speed differs. (The one exception is row_math.cpp, compiled
// with fusing on, as it always was: common/CMakeLists.txt says why.) Loops must have no calls
// and no branches inside to vectorize.
//
// A cloned function must not throw: GCC's dispatch to the clones lets no exception through
// (the program terminates). Check shapes and allocate in the caller; the clone only loops.
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(COURSE_NO_SIMD_CLONES)
#define COURSE_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
// Whether the program runs the AVX-512 clones (16 floats per vector), for a loop whose trick
// pays off only at that width.
inline bool simd_clones_run_avx512() {
    static const bool avx512 = __builtin_cpu_supports("avx512f");
    return avx512;
}
#else
#define COURSE_SIMD_CLONES
inline bool simd_clones_run_avx512() { return false; }
#endif
