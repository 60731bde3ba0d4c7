#include "conventions.hpp"

#include <string>
#include <vector>

namespace evalcore {

ConventionsTable conventions_from_python(const py::tuple& table) {
    ConventionsTable out;
    out.reserve(table.size());
    for (const py::handle& variant : table) {
        std::vector<std::string> sentences;
        for (const py::handle& sentence : variant) sentences.push_back(sentence.cast<std::string>());
        out.push_back(std::move(sentences));
    }
    return out;
}

}  // namespace evalcore
