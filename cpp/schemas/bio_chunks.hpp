// nervaluate's chunking of BIO tags, shared by its "list" loader (evaluate_schemas' tags,
// cpp/bindings/register_schemas.cpp) and its "conll" loader (cpp/schemas/conll_text.cpp).
// Twin: chunk_bio in python/evalcore/reference/schemas/reading.py.
#pragma once

#include <cstdint>
#include <vector>

#include "schemas/schemas.hpp"

namespace evalcore {

// What a distinct tag says to the loaders.
struct BioTag {
    bool outside;        // the tag is "O"
    bool begins_b;       // its first character is 'B'
    bool starts_entity;  // it begins with "B-" or "I-"
    uint32_t label;      // its type: the text after its first two characters
};

// One document's entities, tag by tag: "O" ends an entity; any other tag continues the open
// one when its type is the same and it does not begin with 'B'; otherwise it ends the open
// entity and must begin with "B-" or "I-" to start one. Offsets are token positions, end
// inclusive; positions count the document's entities from 0.
class BioChunker {
public:
    explicit BioChunker(std::vector<SchemaEntity>& out) : out_(out), first_(out.size()) {}
    // False when `tag` would start an entity and cannot (the caller's fault to report).
    bool add(const BioTag& tag, int64_t offset) {
        if (tag.outside) {
            if (open_) close(offset - 1);
            open_ = false;
            return true;
        }
        if (open_ && tag.label == label_ && !tag.begins_b) return true;
        if (open_) close(offset - 1);
        open_ = false;
        if (!tag.starts_entity) return false;
        open_ = true;
        label_ = tag.label;
        start_ = offset;
        return true;
    }
    // The document ends; an open entity ends at `last`.
    void finish(int64_t last) {
        if (open_) close(last);
        open_ = false;
    }

private:
    std::vector<SchemaEntity>& out_;
    size_t first_;
    bool open_ = false;
    uint32_t label_ = 0;
    int64_t start_ = 0;
    void close(int64_t end) {
        out_.push_back(SchemaEntity{start_, end, label_, static_cast<uint32_t>(out_.size() - first_)});
    }
};

}  // namespace evalcore
