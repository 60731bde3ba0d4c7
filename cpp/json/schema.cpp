#include "json/schema.hpp"

#include <cmath>
#include <vector>

#include "common/errors.hpp"
#include "common/limits.hpp"
#include "json/writer.hpp"
#include "json/reader.hpp"

namespace evalcore {

std::string Path::pointer() const {
    std::vector<const Path*> chain;
    for (const Path* p = this; p != nullptr && p->parent != nullptr; p = p->parent) chain.push_back(p);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if ((*it)->index >= 0) {
            out.push_back('/');
            out += std::to_string((*it)->index);
        } else {
            append_pointer_token(out, (*it)->key);
        }
    }
    return out;
}

void SchemaChecker::fail(const Path& path, std::string message) const {
    throw RequestError(ErrorCode::schema_violation, path.pointer(), std::move(message));
}

const char* SchemaChecker::type_name(const Node& node) const {
    switch (node.kind) {
        case Kind::null_value: return "null";
        case Kind::boolean: return "a boolean";
        case Kind::number: return "a number";
        case Kind::string: return "a string";
        case Kind::array: return "an array";
        case Kind::object: return "an object";
    }
    return "a value";
}

std::string SchemaChecker::shown(uint32_t index) const {
    const Node& node = doc_[index];
    std::string out;
    switch (node.kind) {
        case Kind::string: append_json_string(out, doc_.string(node)); break;
        case Kind::number:
        case Kind::boolean:
        case Kind::null_value: append_compact_json(out, doc_, index); break;
        default: out = type_name(node); break;
    }
    return shorten_for_message(out);
}

namespace {
std::string join(std::initializer_list<std::string_view> names, bool quoted) {
    std::string out;
    for (std::string_view name : names) {
        if (!out.empty()) out += ", ";
        if (quoted) out.push_back('\'');
        out += name;
        if (quoted) out.push_back('\'');
    }
    return out;
}

std::string format_bound(double value) {
    std::string out;
    append_ecma_number(out, value);
    return out;
}
}  // namespace

const Node& SchemaChecker::object(uint32_t index, const Path& path, const char* what,
                                  std::initializer_list<std::string_view> required) const {
    const Node& node = doc_[index];
    if (node.kind != Kind::object) fail(path, std::string(what) + " must be an object, got " + type_name(node));
    for (std::string_view name : required) {
        bool found = false;
        for (uint32_t i = 0; i < node.size && !found; ++i) found = doc_.string(doc_.member_key(node, i)) == name;
        if (!found) fail(path, std::string(what) + " is missing the required field '" + std::string(name) + "'");
    }
    return node;
}

size_t SchemaChecker::member(const Node& object, uint32_t i, const Path& path, const char* what,
                             std::initializer_list<std::string_view> known) const {
    uint32_t key_index = doc_.member_key(object, i);
    std::string_view key = doc_.string(key_index);
    size_t position = 0;
    for (std::string_view name : known) {
        if (key == name) return position;
        ++position;
    }
    fail(path.child(key), std::string(what) + " has no field " + shown(key_index) + "; allowed: " + join(known, false));
}

const Node& SchemaChecker::array(uint32_t index, const Path& path, const char* what, int64_t min_items,
                                 int64_t max_items, const char* limit_name) const {
    const Node& node = doc_[index];
    if (node.kind != Kind::array) fail(path, std::string(what) + " must be an array, got " + type_name(node));
    if (static_cast<int64_t>(node.size) < min_items) {
        fail(path, std::string(what) + " needs at least " + std::to_string(min_items) + " item(s), got " +
                       std::to_string(node.size));
    }
    if (static_cast<int64_t>(node.size) > max_items) {
        fail(path, std::string(what) + " has " + std::to_string(node.size) + " items; the limit " + limit_name + " is " +
                       std::to_string(max_items) + raise_hint(limit_name));
    }
    return node;
}

const Node& SchemaChecker::string(uint32_t index, const Path& path, const char* what, int64_t min_units,
                                  int64_t max_units, const char* limit_name) const {
    const Node& node = doc_[index];
    if (node.kind != Kind::string) fail(path, std::string(what) + " must be a string, got " + type_name(node));
    if (static_cast<int64_t>(node.utf16) < min_units || static_cast<int64_t>(node.utf16) > max_units) {
        fail(path, std::string(what) + " must be " + std::to_string(min_units) + " to " + std::to_string(max_units) +
                       " UTF-16 code units long, got " + std::to_string(node.utf16) + ": " + shown(index) +
                       (limit_name != nullptr && static_cast<int64_t>(node.utf16) > max_units
                            ? "; " + std::to_string(max_units) + " is the " + limit_name + " limit" + raise_hint(limit_name)
                            : std::string()));
    }
    return node;
}

double SchemaChecker::number(uint32_t index, const Path& path, const char* what, double minimum, double maximum,
                             bool exclusive_minimum, bool integer, const char* limit_name) const {
    const Node& node = doc_[index];
    if (node.kind != Kind::number) {
        fail(path, std::string(what) + (integer ? " must be an integer, got " : " must be a number, got ") + type_name(node));
    }
    double value = node.number;
    if (integer && std::trunc(value) != value) fail(path, std::string(what) + " must be an integer, got " + shown(index));
    bool low_ok = exclusive_minimum ? value > minimum : value >= minimum;
    if (!low_ok || !(value <= maximum)) {
        fail(path, std::string(what) + " must be " + (exclusive_minimum ? "greater than " : "at least ") +
                       format_bound(minimum) + " and at most " + format_bound(maximum) + ", got " + shown(index) +
                       (limit_name != nullptr && !(value <= maximum)
                            ? "; " + format_bound(maximum) + " is the " + limit_name + " limit" + raise_hint(limit_name)
                            : std::string()));
    }
    return value;
}

size_t SchemaChecker::enumeration(uint32_t index, const Path& path, const char* what,
                                  std::initializer_list<std::string_view> allowed) const {
    const Node& node = doc_[index];
    if (node.kind == Kind::string) {
        size_t position = 0;
        for (std::string_view name : allowed) {
            if (doc_.string(node) == name) return position;
            ++position;
        }
    }
    fail(path, std::string(what) + " must be one of " + join(allowed, true) + ", got " + shown(index));
}

}  // namespace evalcore
