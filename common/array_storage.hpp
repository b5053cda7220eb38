// Where every xt::xarray of the project keeps its entries: a reference-counted block, so that
// two arrays can share one buffer. That is what makes a Var's reshape a view (no copy, and
// writing through it writes its base; common/autodiff/ops_shape.cpp), as in PyTorch.
//
// It replaces xtensor's default allocator, so it must come before any xtensor header, in every
// translation unit alike: common/tensor.hpp and the precompiled header include it first, and
// tensor.hpp refuses to compile if an xtensor header came earlier.
//
// Sharing stays explicit. Copying an array still copies its entries (the copy gets a block of
// its own); only share_storage (common/autodiff/var.hpp) makes a second array over the same
// block, and the block is freed when the last array over it goes.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace attn {

namespace storage {

// 64 bytes in front of the entries, so that the entries start on a 64-byte boundary (AVX-512's
// width) and the block is found from the entries' address alone. (xtensor's containers swap
// buffers without their allocators, so nothing about a block may live in the allocator.)
struct alignas(64) Header {
    std::atomic<std::size_t> owners;
};

inline Header* header_of(void* entries) { return static_cast<Header*>(entries) - 1; }

// Freed blocks go straight back to malloc. (A cache of freed blocks by size, reused in the
// next training step, measured no faster and kept 4-14 MiB more: bench/README.md.)
inline void* allocate_block(std::size_t bytes) {
    void* block = std::aligned_alloc(alignof(Header), sizeof(Header) + (bytes + 63) / 64 * 64);
    if (block == nullptr) throw std::bad_alloc();
    Header* header = new (block) Header;
    header->owners.store(1, std::memory_order_relaxed);
    return header + 1;
}

inline void share_block(void* entries) { header_of(entries)->owners.fetch_add(1, std::memory_order_relaxed); }

// How many arrays hold the block whose entries start at `entries`.
inline std::size_t owners(const void* entries) {
    return header_of(const_cast<void*>(entries))->owners.load(std::memory_order_acquire);
}

inline void release_block(void* entries) noexcept {
    Header* header = header_of(entries);
    if (header->owners.fetch_sub(1, std::memory_order_acq_rel) == 1) std::free(header);
}

// The allocator of every xt::xarray (and xt::xtensor). allocate() makes a fresh block, except
// once after sharing(entries): then it hands out that existing block (one more owner).
template <class T>
class SharedAllocator {
public:
    using value_type = T;
    template <class U> struct rebind { using other = SharedAllocator<U>; };

    SharedAllocator() noexcept = default;
    template <class U> SharedAllocator(const SharedAllocator<U>&) noexcept {}

    // An allocator whose next allocate() returns `entries`, the start of another array's block.
    static SharedAllocator sharing(T* entries) noexcept {
        SharedAllocator allocator;
        allocator.share_ = entries;
        return allocator;
    }

    T* allocate(std::size_t n) {
        if (share_ != nullptr) {
            T* entries = share_;
            share_ = nullptr;   // once: a later resize of the array must get a block of its own
            share_block(entries);
            return entries;
        }
        return static_cast<T*>(allocate_block(n * sizeof(T)));
    }
    void deallocate(T* entries, std::size_t) noexcept { release_block(entries); }

    // A copied array gets its own block.
    SharedAllocator select_on_container_copy_construction() const noexcept { return SharedAllocator(); }

    template <class U> bool operator==(const SharedAllocator<U>&) const noexcept { return true; }
    template <class U> bool operator!=(const SharedAllocator<U>&) const noexcept { return false; }

private:
    T* share_ = nullptr;
};

}  // namespace storage
using storage::SharedAllocator;

}  // namespace attn

// In its own namespace, attn::storage: argument-dependent lookup searches the namespace of an
// array's allocator, and attn's own sum, mean, exp, ... must not join xtensor's calls.
#define XTENSOR_DEFAULT_ALLOCATOR(T) ::attn::storage::SharedAllocator<T>
