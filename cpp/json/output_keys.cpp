#include "json/output_keys.hpp"

namespace evalcore {

std::string_view key_name(Key key) noexcept {
    static constexpr std::string_view names[] = {
#define EVALCORE_KEY_NAME(name) #name,
        EVALCORE_OUTPUT_KEYS(EVALCORE_KEY_NAME)
#undef EVALCORE_KEY_NAME
    };
    return names[static_cast<size_t>(key)];
}

std::string_view quoted_key_name(Key key) noexcept {
    static constexpr std::string_view names[] = {
#define EVALCORE_QUOTED_KEY(name) "\"" #name "\":",
        EVALCORE_OUTPUT_KEYS(EVALCORE_QUOTED_KEY)
#undef EVALCORE_QUOTED_KEY
    };
    return names[static_cast<size_t>(key)];
}

}  // namespace evalcore
