// Every xtensor header the course uses, from wherever the installed xtensor keeps it.
//
// xtensor 0.24 and 0.25 (Debian 12, Debian 13, Ubuntu 24.04) keep their headers side by side:
// <xtensor/xview.hpp>. From 0.26 on (Debian sid, Ubuntu 26.04, conda-forge, Homebrew) they live
// in folders by kind: <xtensor/views/xview.hpp>. This is the one file that knows; every other
// file of the course includes it (or common/tensor.hpp, which does), never an xtensor header
// by name. The C++ standard follows the same split (C++17 up to 0.25, C++20 from 0.26): the
// top-level CMakeLists.txt reads it from the xtensor it finds.
#pragma once
// First: it sets the allocator every xt::xarray uses, which xtensor reads from its first header.
#include "common/array_storage.hpp"

#if __has_include(<xtensor/containers/xtensor.hpp>)   // xtensor 0.26 and later
#include <xtensor/containers/xadapt.hpp>
#include <xtensor/containers/xarray.hpp>
#include <xtensor/containers/xtensor.hpp>
#include <xtensor/core/xmath.hpp>
#include <xtensor/core/xnoalias.hpp>
#include <xtensor/generators/xbuilder.hpp>
#include <xtensor/generators/xrandom.hpp>
#include <xtensor/io/xio.hpp>
#include <xtensor/io/xnpy.hpp>
#include <xtensor/misc/xmanipulation.hpp>
#include <xtensor/misc/xsort.hpp>
#include <xtensor/views/xbroadcast.hpp>
#include <xtensor/views/xstrided_view.hpp>
#include <xtensor/views/xview.hpp>
#else                                                 // xtensor 0.24 and 0.25
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xio.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xnpy.hpp>
#include <xtensor/xrandom.hpp>
#include <xtensor/xsort.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>
#endif
