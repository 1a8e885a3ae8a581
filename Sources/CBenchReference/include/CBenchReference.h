// Plain C reference implementations for abconsole-bench (SPEC §2 bucketing, §4 decisions and the
// batch `assign --json` output), so the benchmark can show Swift's speed beside C's in one run.
// Used only by the benchmark; not part of ExperimentCore.
#ifndef CBENCHREFERENCE_H
#define CBENCHREFERENCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// fnv1a32 over `count` bytes, continuing from `state` (2166136261 for a fresh hash).
uint32_t cbr_fnv1a(uint32_t state, const uint8_t *bytes, int64_t count);

/// fnv1a32(decimal(first)) mod 10000: the bucket of a subject whose first hash is `first`.
uint32_t cbr_bucket(uint32_t first);

/// Plain per-subject loop: bucket(salt, subject) and the owning segment of each packed subject.
/// Subject i is bytes[ends[i-1] ..< ends[i]] (ends[-1] = 0). `starts` are the segment starts
/// (ascending, starts[0] = 0), `owners` their variant index (-1 unallocated → `control`).
/// Writes the variant index of each subject to `out`.
void cbr_assign_plain(const uint8_t *salt, int64_t salt_count, const uint8_t *bytes, const int64_t *ends, int64_t count,
                      const int32_t *starts, const int32_t *owners, int32_t segment_count, int32_t control, int32_t *out);

/// The same answers with the algorithm ExperimentCore uses: four subjects' FNV chains interleaved,
/// the leading decimal digits from a table, and a branch-free count of segment starts.
void cbr_assign_interleaved(const uint8_t *salt, int64_t salt_count, const uint8_t *bytes, const int64_t *ends, int64_t count,
                            const int32_t *starts, const int32_t *owners, int32_t segment_count, int32_t control, int32_t *out);

/// One experiment of a batch assign, precomputed from the store by the benchmark.
typedef struct {
    const uint8_t *salt;
    int64_t salt_count;
    /// >= 0: every subject gets this variant (resolved: winner; paused: control).
    int32_t fixed_index;
    int32_t is_draft;
    int32_t control_index;
    int32_t segment_count;
    const int32_t *starts;
    const int32_t *owners;
    /// Whitelisted subjects, packed like the subjects above, and their variant index.
    int64_t whitelist_count;
    const uint8_t *whitelist_bytes;
    const int64_t *whitelist_ends;
    const int32_t *whitelist_variants;
    /// The JSON fragment of each variant, e.g. `,"e3":"treatment"` (no comma for the first experiment).
    int32_t variant_count;
    const uint8_t *fragment_bytes;
    const int64_t *fragment_ends;
} cbr_experiment;

/// Reads subject ids from `subjects_path` (one per line, LF or CRLF, blank lines skipped, each
/// checked: 1–256 bytes of printable ASCII, else the run fails), decides every experiment for each
/// and writes `{"subject":ID` + `middle` + fragments + `}}\n` per subject to `output_path`.
/// Returns the number of subjects, or a negative number on error.
int64_t cbr_batch_assign(const char *subjects_path, const char *output_path, const cbr_experiment *experiments, int32_t count,
                         const uint8_t *middle, int64_t middle_count);

#ifdef __cplusplus
}
#endif

#endif
