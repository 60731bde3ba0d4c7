#include "json_document.hpp"

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

void TreeBuilder::push(const Node& node) {
    uint32_t index = checked_u32(doc_.nodes.size());
    doc_.nodes.push_back(node);
    if (!frames_.empty()) pending_.push_back(index);
}

void TreeBuilder::number(double value) {
    Node node{Kind::number};
    node.number = value;
    push(node);
}


void TreeBuilder::string_appended(uint32_t offset, const StringInfo& info) {
    Node node{Kind::string, info.lone_surrogate, info.ascii};
    node.offset = offset;
    node.size = checked_u32(doc_.text.size() - offset);
    node.utf16 = info.utf16_units;
    push(node);
}

void TreeBuilder::string(std::string_view utf8, const StringInfo& info) {
    uint32_t offset = checked_u32(doc_.text.size());
    doc_.text.append(utf8);
    string_appended(offset, info);
}



void TreeBuilder::begin(Kind kind) {
    uint32_t index = checked_u32(doc_.nodes.size());
    push(Node{kind});
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
