// SHA-256 (FIPS 180-4). Uses the x86 SHA extensions when the CPU has them, else portable code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace evalcore {

class Sha256 {
public:
    Sha256();
    void update(const void* data, size_t size);
    void update(std::string_view data) { update(data.data(), data.size()); }
    void finish(uint8_t digest[32]);
    std::string hex_digest();  // lowercase; finishes the hash

private:
    uint32_t state_[8];
    uint8_t block_[64];
    size_t block_used_ = 0;
    uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view data);

// True when the SHA-NI code path is in use (for the benchmark's report).
bool sha256_uses_cpu_extensions();

}  // namespace evalcore
