#include "python_str_view.hpp"

#include "json/unicode.hpp"

namespace evalcore {

bool view_str(PyObject* value, HeldObjects& held, std::deque<std::string>& arena, std::string_view& out,
              uint32_t& utf16_units) {
    if (!is_ready_str(value)) return false;
    if (PyUnicode_IS_ASCII(value)) held.hold(value);  // viewed in place
    return view_held_str(value, arena, out, utf16_units);
}

bool view_held_str(PyObject* value, std::deque<std::string>& arena, std::string_view& out, uint32_t& utf16_units) {
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(value));
    if (PyUnicode_IS_ASCII(value)) {
        out = std::string_view(static_cast<const char*>(PyUnicode_DATA(value)), n);
        utf16_units = static_cast<uint32_t>(n > UINT32_MAX ? UINT32_MAX : n);
        return true;
    }
    std::string utf8;
    if (!encode_str_utf8(value, utf8, &utf16_units)) return false;
    arena.push_back(std::move(utf8));
    out = arena.back();
    return true;
}

bool encode_str_utf8(PyObject* value, std::string& out, uint32_t* utf16_units) {
    const size_t n = static_cast<size_t>(PyUnicode_GET_LENGTH(value));
    out.clear();
    StringInfo info;
    switch (PyUnicode_KIND(value)) {
        case PyUnicode_1BYTE_KIND: encode_code_points(PyUnicode_1BYTE_DATA(value), n, out, info); break;
        case PyUnicode_2BYTE_KIND: encode_code_points(PyUnicode_2BYTE_DATA(value), n, out, info); break;
        default: encode_code_points(PyUnicode_4BYTE_DATA(value), n, out, info); break;
    }
    if (utf16_units != nullptr) *utf16_units = info.utf16_units;
    return !info.lone_surrogate;
}

}  // namespace evalcore
