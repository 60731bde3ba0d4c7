// Which code the TREC parsers take (trec_bytes.hpp): the wide one where the processor runs it.
#include "runs/trec_bytes.hpp"

#include <atomic>

namespace evalcore {

namespace {

std::atomic<bool> baseline_only{false};

}  // namespace

void use_baseline_bytes(bool baseline) { baseline_only.store(baseline, std::memory_order_relaxed); }

#ifdef EVALCORE_WIDE_BYTES
bool wide_bytes_usable() {
    // Asked once (the processor does not change); __builtin_cpu_supports also checks that the
    // OS saves the AVX registers.
    static const bool runs = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2");
    }();
    return runs && !baseline_only.load(std::memory_order_relaxed);
}
#endif

const char* trec_bytes_code() {
#ifdef EVALCORE_WIDE_BYTES
    if (wide_bytes_usable()) return "avx2";
#endif
#ifdef EVALCORE_SSE2_BYTES
    return "sse2";
#else
    return "portable";  // 64-bit word arithmetic (no SSE2, or EVALCORE_PORTABLE_BYTES)
#endif
}

}  // namespace evalcore
