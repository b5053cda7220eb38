# Cross-compiling the course for 64-bit ARM (aarch64) with Debian's cross compiler and the arm64
# packages of its libraries (multiarch); tools/arm64/check uses it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Libraries (OpenBLAS) from /usr/lib/aarch64-linux-gnu, not the machine's own.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Programs the build runs (doctest lists each test binary's cases) run under user-mode emulation.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
