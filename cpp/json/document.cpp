#include "json/document.hpp"

#include <stdexcept>

namespace evalcore {

void Document::clear() {
    nodes.clear();
    slots.clear();
    text.clear();
}

namespace {
uint32_t checked_u32(size_t value) {
    // Limits keep real requests far below this; a document this large is refused, not wrapped.
    if (value > UINT32_MAX) throw std::length_error("JSON document too large for 32-bit indices");
    return static_cast<uint32_t>(value);
}
}  // namespace

// Appends a node and returns it for the caller to fill in place: building a Node on the
// stack and copying it costs a store-forwarding stall per node (measured: most of this
// function's time).
Node& TreeBuilder::push(Kind kind) {
    const uint32_t index = checked_u32(doc_.nodes.size());
    Node& node = doc_.nodes.emplace_back();
    node.kind = kind;
    if (!frames_.empty()) pending_.push_back(index);
    return node;
}

void TreeBuilder::number(double value) { push(Kind::number).number = value; }

void TreeBuilder::string_appended(uint32_t offset, const StringInfo& info) {
    const uint32_t size = checked_u32(doc_.text.size() - offset);
    Node& node = push(Kind::string);
    node.flag = info.lone_surrogate;
    node.ascii = info.ascii;
    node.offset = offset;
    node.size = size;
    node.utf16 = info.utf16_units;
}

void TreeBuilder::begin(Kind kind) {
    const uint32_t index = checked_u32(doc_.nodes.size());
    push(kind);
    frames_.push_back(Frame{index, checked_u32(pending_.size())});
}

void TreeBuilder::end() {
    Frame frame = frames_.back();
    frames_.pop_back();
    Node& node = doc_.nodes[frame.node];
    uint32_t count = checked_u32(pending_.size() - frame.first_pending);
    node.offset = checked_u32(doc_.slots.size());
    node.size = node.kind == Kind::object ? count / 2 : count;
    doc_.slots.insert(doc_.slots.end(), pending_.begin() + frame.first_pending, pending_.end());
    pending_.resize(frame.first_pending);
}

}  // namespace evalcore
