// libFuzzer target for the raw-JSON front door: any bytes, every operation. A rejected
// request (RequestError) is fine; a crash, a sanitizer report or any other exception is not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/errors.hpp"
#include "common/evaluation.hpp"
#include "front_door/front_door.hpp"
#include "json/document.hpp"
#include "common/limits.hpp"

namespace {
const evalcore::ConventionsTable ranking_conventions(4, {"a sentence", "another \"escaped\" sentence"});
const evalcore::ConventionsTable span_conventions(2, {"a sentence"});
const evalcore::ConventionsTable no_conventions;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    evalcore::Limits limits;
    limits.matching_steps = 20000;  // keep each input fast
    evalcore::Document doc;
    evalcore::Evaluation evaluation;
    const struct {
        const char* name;
        const evalcore::ConventionsTable* conventions;
    } operations[] = {{"ranking-evaluate", &ranking_conventions}, {"span-evaluate", &span_conventions}, {"score", &no_conventions}};
    for (const auto& op : operations) {
        try {
            evalcore::evaluate_json_request(op.name, body, limits, *op.conventions, "0.0.0", 2, doc, evaluation);
        } catch (const evalcore::RequestError&) {
            // rejected as the contract says: fine
        }
    }
    return 0;
}
