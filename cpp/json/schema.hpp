// Phase 2 of docs/validation-order.md: typed checks on a request Document that raise
// SCHEMA_VIOLATION with a pointer and a message naming the field and the bound.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "json/document.hpp"

namespace evalcore {

// A location in the request, kept on the stack while checking; turned into an RFC 6901
// pointer only when a fault is reported.
struct Path {
    const Path* parent = nullptr;
    std::string_view key;  // used when index < 0
    int64_t index = -1;

    Path child(std::string_view name) const { return Path{this, name, -1}; }
    Path child(int64_t i) const { return Path{this, {}, i}; }
    std::string pointer() const;
};

class SchemaChecker {
public:
    explicit SchemaChecker(const Document& doc) : doc_(doc) {}

    // An object with every `required` field present (first missing one, in this order, is the fault).
    const Node& object(uint32_t index, const Path& path, const char* what, std::initializer_list<std::string_view> required) const;
    // Which of `known` the i-th member's key is; an unknown key is a fault at the member.
    size_t member(const Node& object, uint32_t i, const Path& path, const char* what,
                  std::initializer_list<std::string_view> known) const;
    const Node& array(uint32_t index, const Path& path, const char* what, int64_t min_items, int64_t max_items,
                      const char* limit_name) const;
    // `limit_name`: the limit (Limits) the maximum comes from, named with how to raise it
    // when the value is over it (none: the contract fixes the maximum).
    const Node& string(uint32_t index, const Path& path, const char* what, int64_t min_units, int64_t max_units,
                       const char* limit_name = nullptr) const;
    double number(uint32_t index, const Path& path, const char* what, double minimum, double maximum,
                  bool exclusive_minimum = false, bool integer = false, const char* limit_name = nullptr) const;
    size_t enumeration(uint32_t index, const Path& path, const char* what,
                       std::initializer_list<std::string_view> allowed) const;

    // "a string", "an object", ...
    const char* type_name(const Node& node) const;
    // A scalar as it appears in messages (containers by their type), at most 80 characters.
    std::string shown(uint32_t index) const;

private:
    [[noreturn]] void fail(const Path& path, std::string message) const;
    const Document& doc_;
};

}  // namespace evalcore
