// Which code the TREC parsers take (trec_bytes.hpp): the wide one where the processor runs it.
#include "runs/trec_bytes.hpp"

#include <atomic>
#include <cstdint>

#ifdef EVALCORE_WIDE_BYTES
#include <cpuid.h>
#endif

namespace evalcore {

namespace {

std::atomic<bool> baseline_only{false};

}  // namespace

void use_baseline_bytes(bool baseline) { baseline_only.store(baseline, std::memory_order_relaxed); }

#ifdef EVALCORE_WIDE_BYTES
namespace {

// The processor's own answer (CPUID, XGETBV), not __builtin_cpu_supports: the wheels are built
// by zig's clang, whose compiler-rt never fills __builtin_cpu_supports' data, so it said "no"
// on every processor and the wheels never took the wide code (CI's test of it caught that).
bool processor_runs_wide_code() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0, nullptr) < 7) return false;
    __cpuid_count(1, 0, eax, ebx, ecx, edx);
    const bool popcnt = (ecx >> 23) & 1u, avx = (ecx >> 28) & 1u, osxsave = (ecx >> 27) & 1u;
    // XGETBV exists only when the OS has enabled XSAVE (OSXSAVE); XCR0's bits 1 and 2 say that
    // it saves the SSE and AVX registers on a context switch, without which AVX code is unsafe.
    if (!popcnt || !avx || !osxsave) return false;
    uint32_t xcr0_low = 0, xcr0_high = 0;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 0x6u) != 0x6u) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const bool avx2 = (ebx >> 5) & 1u, bmi1 = (ebx >> 3) & 1u, bmi2 = (ebx >> 8) & 1u;
    return avx2 && bmi1 && bmi2;
}

}  // namespace

bool wide_bytes_usable() {
    static const bool runs = processor_runs_wide_code();  // asked once: the processor does not change
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
