// Every object key evalcore emits. Output trees store keys as these small integers so that
// serializing and converting to Python never compare or allocate key strings.
#pragma once

#include <cstdint>
#include <string_view>

namespace evalcore {

#define EVALCORE_OUTPUT_KEYS(X) \
    X(profile)                  \
    X(k)                        \
    X(queryCount)               \
    X(queries)                  \
    X(macro)                    \
    X(definedQueryCounts)       \
    X(conventions)              \
    X(precisionAtK)             \
    X(recallAtK)                \
    X(reciprocalRankAtK)        \
    X(averagePrecisionAtK)      \
    X(ndcgAtK)                  \
    X(id)                       \
    X(relevantJudgmentCount)    \
    X(retrievedAtKCount)        \
    X(hitsAtK)                  \
    X(unjudgedAtKCount)         \
    X(dcgAtK)                   \
    X(idealDcgAtK)              \
    X(missedRelevantIds)        \
    X(ranking)                  \
    X(rank)                     \
    X(grade)                    \
    X(relevant)                 \
    X(judged)                   \
    X(offsetUnit)               \
    X(referenceCount)           \
    X(predictionCount)          \
    X(matchedCount)             \
    X(precision)                \
    X(recall)                   \
    X(f1)                       \
    X(precisionDefined)         \
    X(recallDefined)            \
    X(meanMatchedIou)           \
    X(matches)                  \
    X(predictionId)             \
    X(referenceId)              \
    X(label)                    \
    X(iou)                      \
    X(exactBoundaries)          \
    X(unmatchedPredictionIds)   \
    X(unmatchedReferenceIds)    \
    X(perLabel)                 \
    X(documentCount)            \
    X(match)                    \
    X(minimumIou)               \
    X(overall)                  \
    X(matched)                  \
    X(predictions)              \
    X(references)               \
    X(perDocument)              \
    X(metrics)                  \
    X(f2)                       \
    X(count)                    \
    X(per_item)                 \
    X(aggregate)                \
    /* the span corpus for NER users (issue 24 item 5) */ \
    X(documentsWithoutText)     \
    X(weighted)                 \
    X(perDocumentTextChecked)

enum class Key : uint16_t {
#define EVALCORE_KEY_ENUM(name) name,
    EVALCORE_OUTPUT_KEYS(EVALCORE_KEY_ENUM)
#undef EVALCORE_KEY_ENUM
        count_
};

constexpr size_t key_count = static_cast<size_t>(Key::count_);

// The key's text (ASCII, needs no escaping).
std::string_view key_name(Key key) noexcept;
// The key as JSON writes it before a value: "name":
std::string_view quoted_key_name(Key key) noexcept;

}  // namespace evalcore
