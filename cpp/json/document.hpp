// A JSON value tree in flat arrays: what a request is read into, from Python objects or
// (later) raw JSON, before the operation's schema checks look at it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>


namespace evalcore {

enum class Kind : uint8_t {
    null_value,
    boolean,
    number,  // binary64
    string,  // UTF-8 in Document::text (lone surrogates kept as 3-byte WTF-8)
    array,
    object,
};

struct StringInfo {
    uint32_t utf16_units = 0;    // length as JavaScript counts it
    bool lone_surrogate = false; // holds a surrogate code point that is not half of a pair
    bool ascii = true;
};

struct Node {
    Kind kind = Kind::null_value;
    bool flag = false;       // boolean: its value; string: has a lone surrogate
    bool ascii = false;      // string: only ASCII bytes
    uint32_t size = 0;       // string: bytes; array: items; object: members
    uint32_t offset = 0;     // string: into text; array/object: first slot
    uint32_t utf16 = 0;      // string: UTF-16 code units
    double number = 0.0;
};

// Node 0 is the root. Nodes are numbered in document (pre-)order, so comparing two node
// indices compares positions in the document. An array's slots are its items' node
// indices; an object's slots are key and value node indices, alternating.
struct Document {
    std::vector<Node> nodes;
    std::vector<uint32_t> slots;
    std::string text;

    const Node& operator[](uint32_t index) const { return nodes[index]; }
    std::string_view string(const Node& node) const { return {text.data() + node.offset, node.size}; }
    std::string_view string(uint32_t index) const { return string(nodes[index]); }
    uint32_t item(const Node& array, uint32_t i) const { return slots[array.offset + i]; }
    uint32_t member_key(const Node& object, uint32_t i) const { return slots[object.offset + 2 * i]; }
    uint32_t member_value(const Node& object, uint32_t i) const { return slots[object.offset + 2 * i + 1]; }
    void clear();
};

// Appends nodes in document order and lays containers' slots out when they close.
class TreeBuilder {
public:
    explicit TreeBuilder(Document& doc) : doc_(doc) {}

    void null_value() { push(Kind::null_value); }
    void boolean(bool value) { push(Kind::boolean).flag = value; }
    void number(double value);
    // A string whose UTF-8 bytes the caller already appended to doc.text from `offset`.
    void string_appended(uint32_t offset, const StringInfo& info);
    void begin_array() { begin(Kind::array); }
    void begin_object() { begin(Kind::object); }
    void end();  // closes the innermost open array or object


private:
    Node& push(Kind kind);
    void begin(Kind kind);

    struct Frame {
        uint32_t node;
        uint32_t first_pending;
    };
    Document& doc_;
    std::vector<uint32_t> pending_;  // children of open containers, in order
    std::vector<Frame> frames_;
};

}  // namespace evalcore
