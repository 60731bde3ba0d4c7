// The emitter interface every operation's result is written through, and its JSON form.
//
// An operation computes typed results once, then calls one `emit_*` template with an
// emitter: JsonEmitter (here) writes the compact JSON that outputSha256 covers; the
// bindings' PythonEmitter builds the Python objects. One function decides the key order
// for both, so they cannot drift apart.
//
// Emitter interface: begin_object(n), begin_array(n), end(), key(Key), null_value(),
// boolean(b), number(double), integer(int64), literal(string_view) for constant ASCII
// text, string(string_view) for any UTF-8 text, input_string(doc, node) for a string taken
// from the request (the Python emitter reuses the caller's str object), and await(n) where an
// operation's emitter may have to wait for the first n items to be computed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/document.hpp"
#include "json/writer.hpp"
#include "json/output_keys.hpp"

namespace evalcore {

// The "conventions" member of a result: its key and the sentences, through any emitter.
template <class Out>
void emit_conventions(const std::vector<std::string>& conventions, Out& out) {
    out.key(Key::conventions);
    out.begin_array(conventions.size());
    for (const std::string& sentence : conventions) out.literal(sentence);
    out.end();
}

class JsonEmitter {
public:
    explicit JsonEmitter(std::string& out) : out_(out) {}

    void begin_object(size_t = 0) { open('{'); }
    void begin_array(size_t = 0) { open('['); }
    void end() {
        out_.ch(closers_[--depth_]);
        after_value();
    }
    void key(Key key) {
        separate();
        out_.raw(quoted_key_name(key));  // "name":
        after_key_ = true;
    }
    void null_value() { scalar("null"); }
    void boolean(bool value) { scalar(value ? "true" : "false"); }
    void number(double value) {
        separate();
        out_.number(value);
        after_value();
    }
    void integer(int64_t value) {
        separate();
        out_.integer(value);
        after_value();
    }
    void literal(std::string_view ascii) {
        separate();
        out_.string(ascii);
        after_value();
    }
    void string(std::string_view utf8) {
        separate();
        out_.string(utf8);
        after_value();
    }
    void input_string(const Document& doc, uint32_t node) {
        separate();
        out_.string(doc.string(node));
        after_value();
    }
    // Everything is computed before JSON is written.
    void await(size_t) {}
    // Trims the output string to what was written; call once at the end.
    void finish() { out_.finish(); }

private:
    static constexpr int max_depth = 16;  // results are shallow; the deepest is 5
    void separate() {
        if (after_key_) {
            after_key_ = false;
        } else if (depth_ > 0 && !first_[depth_ - 1]) {
            out_.ch(',');
        }
    }
    void after_value() {
        if (depth_ > 0) first_[depth_ - 1] = false;
    }
    void scalar(std::string_view text) {
        separate();
        out_.raw(text);
        after_value();
    }
    void open(char bracket) {
        separate();
        out_.ch(bracket);
        closers_[depth_] = bracket == '{' ? '}' : ']';
        first_[depth_++] = true;
    }

    JsonText out_;
    int depth_ = 0;
    bool after_key_ = false;
    bool first_[max_depth] = {};
    char closers_[max_depth] = {};
};

}  // namespace evalcore
