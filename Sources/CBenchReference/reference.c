// Plain C references for abconsole-bench. Straightforward code, as a C programmer would first
// write it; cbr_assign_interleaved mirrors ExperimentCore's algorithm for a like-for-like ratio.
#include "CBenchReference.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FNV_PRIME 16777619u
#define FNV_BASIS 2166136261u

uint32_t cbr_fnv1a(uint32_t state, const uint8_t *bytes, int64_t count) {
    for (int64_t i = 0; i < count; i++) state = (state ^ bytes[i]) * FNV_PRIME;
    return state;
}

uint32_t cbr_bucket(uint32_t first) {
    char digits[10];
    int n = 0;
    do {
        digits[n++] = (char)('0' + first % 10);
        first /= 10;
    } while (first != 0);
    uint32_t hash = FNV_BASIS;
    while (n-- > 0) hash = (hash ^ (uint8_t)digits[n]) * FNV_PRIME;
    return hash % 10000;
}

static int32_t owner_of(uint32_t bucket, const int32_t *starts, const int32_t *owners, int32_t segment_count) {
    int32_t segment = 0;
    while (segment + 1 < segment_count && (int32_t)bucket >= starts[segment + 1]) segment++;
    return owners[segment];
}

void cbr_assign_plain(const uint8_t *salt, int64_t salt_count, const uint8_t *bytes, const int64_t *ends, int64_t count,
                      const int32_t *starts, const int32_t *owners, int32_t segment_count, int32_t control, int32_t *out) {
    uint32_t salted = cbr_fnv1a(FNV_BASIS, salt, salt_count);
    int64_t start = 0;
    for (int64_t i = 0; i < count; i++) {
        uint32_t bucket = cbr_bucket(cbr_fnv1a(salted, bytes + start, ends[i] - start));
        int32_t owner = owner_of(bucket, starts, owners, segment_count);
        out[i] = owner >= 0 ? owner : control;
        start = ends[i];
    }
}

// --- The ExperimentCore algorithm in C ---------------------------------------------------------

static uint32_t top_states[4295];
static uint32_t triples[1000];
static int tables_ready;

static void build_tables(void) {
    if (tables_ready) return;
    for (uint32_t top = 0; top < 4295; top++) {
        char text[8];
        int n = 0;
        uint32_t rest = top;
        do { text[n++] = (char)('0' + rest % 10); rest /= 10; } while (rest != 0);
        uint32_t hash = FNV_BASIS;
        while (n-- > 0) hash = (hash ^ (uint8_t)text[n]) * FNV_PRIME;
        top_states[top] = hash;
    }
    for (uint32_t t = 0; t < 1000; t++) triples[t] = (48 + t / 100) | (48 + t / 10 % 10) << 8 | (48 + t % 10) << 16;
    tables_ready = 1;
}

static inline uint32_t table_bucket(uint32_t value) {
    if (value < 1000000u) return cbr_bucket(value);
    uint32_t top = value / 1000000u, bottom = value - top * 1000000u;
    uint32_t high = bottom / 1000u, low = bottom - high * 1000u;
    uint32_t a = triples[high], b = triples[low], h = top_states[top];
    h = (h ^ (a & 0xFF)) * FNV_PRIME;
    h = (h ^ (a >> 8 & 0xFF)) * FNV_PRIME;
    h = (h ^ (a >> 16)) * FNV_PRIME;
    h = (h ^ (b & 0xFF)) * FNV_PRIME;
    h = (h ^ (b >> 8 & 0xFF)) * FNV_PRIME;
    h = (h ^ (b >> 16)) * FNV_PRIME;
    return h % 10000;
}

static inline int32_t counted_owner(uint32_t bucket, const int32_t *starts, const int32_t *owners, int32_t segment_count) {
    int32_t segment = 0;
    for (int32_t i = 1; i < segment_count; i++) segment += (int32_t)bucket >= starts[i];
    return owners[segment];
}

void cbr_assign_interleaved(const uint8_t *salt, int64_t salt_count, const uint8_t *bytes, const int64_t *ends, int64_t count,
                            const int32_t *starts, const int32_t *owners, int32_t segment_count, int32_t control, int32_t *out) {
    build_tables();
    uint32_t salted = cbr_fnv1a(FNV_BASIS, salt, salt_count);
    int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
        int64_t s0 = i == 0 ? 0 : ends[i - 1], s1 = ends[i], s2 = ends[i + 1], s3 = ends[i + 2];
        int64_t n0 = ends[i] - s0, n1 = ends[i + 1] - s1, n2 = ends[i + 2] - s2, n3 = ends[i + 3] - s3;
        const uint8_t *p0 = bytes + s0, *p1 = bytes + s1, *p2 = bytes + s2, *p3 = bytes + s3;
        int64_t shared = n0 < n1 ? n0 : n1;
        if (n2 < shared) shared = n2;
        if (n3 < shared) shared = n3;
        uint32_t h0 = salted, h1 = salted, h2 = salted, h3 = salted;
        for (int64_t j = 0; j < shared; j++) {
            h0 = (h0 ^ p0[j]) * FNV_PRIME;
            h1 = (h1 ^ p1[j]) * FNV_PRIME;
            h2 = (h2 ^ p2[j]) * FNV_PRIME;
            h3 = (h3 ^ p3[j]) * FNV_PRIME;
        }
        h0 = cbr_fnv1a(h0, p0 + shared, n0 - shared);
        h1 = cbr_fnv1a(h1, p1 + shared, n1 - shared);
        h2 = cbr_fnv1a(h2, p2 + shared, n2 - shared);
        h3 = cbr_fnv1a(h3, p3 + shared, n3 - shared);
        uint32_t h[4] = {h0, h1, h2, h3};
        for (int k = 0; k < 4; k++) {
            int32_t owner = counted_owner(table_bucket(h[k]), starts, owners, segment_count);
            out[i + k] = owner >= 0 ? owner : control;
        }
    }
    for (; i < count; i++) {
        int64_t start = i == 0 ? 0 : ends[i - 1];
        int32_t owner = counted_owner(table_bucket(cbr_fnv1a(salted, bytes + start, ends[i] - start)), starts, owners, segment_count);
        out[i] = owner >= 0 ? owner : control;
    }
}

// --- Batch assign ------------------------------------------------------------------------------

typedef struct {
    uint32_t salted;
    uint32_t mask;        // table size - 1
    uint32_t *hashes;     // first hash of each slot's subject
    int64_t *entries;     // whitelist entry index + 1 (0 = empty slot)
} whitelist_table;

static void build_whitelist(whitelist_table *table, const cbr_experiment *e) {
    table->salted = cbr_fnv1a(FNV_BASIS, e->salt, e->salt_count);
    uint32_t size = 2;
    while (size < 2 * e->whitelist_count) size *= 2;
    table->mask = size - 1;
    table->hashes = calloc(size, sizeof(uint32_t));
    table->entries = calloc(size, sizeof(int64_t));
    for (int64_t w = 0; w < e->whitelist_count; w++) {
        int64_t start = w == 0 ? 0 : e->whitelist_ends[w - 1];
        uint32_t hash = cbr_fnv1a(table->salted, e->whitelist_bytes + start, e->whitelist_ends[w] - start);
        uint32_t slot = hash & table->mask;
        while (table->entries[slot] != 0) slot = (slot + 1) & table->mask;
        table->hashes[slot] = hash;
        table->entries[slot] = w + 1;
    }
}

static int32_t whitelisted(const whitelist_table *table, const cbr_experiment *e, uint32_t hash, const uint8_t *id, int64_t count) {
    if (e->whitelist_count == 0) return -1;
    for (uint32_t slot = hash & table->mask; table->entries[slot] != 0; slot = (slot + 1) & table->mask) {
        if (table->hashes[slot] != hash) continue;
        int64_t w = table->entries[slot] - 1;
        int64_t start = w == 0 ? 0 : e->whitelist_ends[w - 1];
        if (e->whitelist_ends[w] - start == count && memcmp(e->whitelist_bytes + start, id, (size_t)count) == 0) return e->whitelist_variants[w];
    }
    return -1;
}

static int32_t decide(const cbr_experiment *e, const whitelist_table *table, const uint8_t *id, int64_t count) {
    if (e->fixed_index >= 0) return e->fixed_index;
    uint32_t first = cbr_fnv1a(table->salted, id, count);
    int32_t listed = whitelisted(table, e, first, id, count);
    if (listed >= 0) return listed;
    if (e->is_draft) return e->control_index;
    int32_t owner = owner_of(cbr_bucket(first), e->starts, e->owners, e->segment_count);
    return owner >= 0 ? owner : e->control_index;
}

typedef struct {
    int fd;
    uint8_t *buffer;
    size_t count, capacity;
    int failed;
} writer;

static void flush(writer *w) {
    size_t done = 0;
    while (done < w->count && !w->failed) {
        ssize_t n = write(w->fd, w->buffer + done, w->count - done);
        if (n < 0) w->failed = 1; else done += (size_t)n;
    }
    w->count = 0;
}

static inline void put(writer *w, const uint8_t *bytes, size_t count) {
    if (w->count + count > w->capacity) flush(w);
    memcpy(w->buffer + w->count, bytes, count);
    w->count += count;
}

int64_t cbr_batch_assign(const char *subjects_path, const char *output_path, const cbr_experiment *experiments, int32_t count,
                         const uint8_t *middle, int64_t middle_count) {
    int in = open(subjects_path, O_RDONLY);
    if (in < 0) return -1;
    struct stat info;
    if (fstat(in, &info) != 0) { close(in); return -1; }
    size_t size = (size_t)info.st_size;
    uint8_t *data = malloc(size + 1);
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(in, data + got, size - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(in);
    if (got != size) { free(data); return -1; }
    for (size_t i = 0; i < size; i++) if (data[i] >= 0x80) { free(data); return -2; }  // ASCII only here

    // Validate every line first (nothing is written when one is bad), remembering where each id is.
    int64_t capacity = 1024, subjects = 0;
    int64_t *starts = malloc(sizeof(int64_t) * capacity), *lengths = malloc(sizeof(int64_t) * capacity);
    size_t line = 0;
    while (line <= size) {
        uint8_t *newline = memchr(data + line, '\n', size - line);
        size_t end = newline ? (size_t)(newline - data) : size, stop = end;
        if (stop > line && data[stop - 1] == '\r') stop--;
        if (stop > line) {
            if (stop - line > 256) { free(data); return -3; }
            for (size_t i = line; i < stop; i++) if (data[i] < 0x20 || data[i] == 0x7F) { free(data); return -3; }
            if (subjects == capacity) {
                capacity *= 2;
                starts = realloc(starts, sizeof(int64_t) * capacity);
                lengths = realloc(lengths, sizeof(int64_t) * capacity);
            }
            starts[subjects] = (int64_t)line;
            lengths[subjects] = (int64_t)(stop - line);
            subjects++;
        }
        line = end + 1;
    }

    whitelist_table *tables = calloc((size_t)count, sizeof(whitelist_table));
    for (int32_t e = 0; e < count; e++) build_whitelist(&tables[e], &experiments[e]);

    writer w = {open(output_path, O_WRONLY | O_CREAT | O_TRUNC, 0644), malloc(1 << 20), 0, 1 << 20, 0};
    if (w.fd < 0) return -1;
    static const uint8_t head[] = "{\"subject\":\"";
    for (int64_t s = 0; s < subjects; s++) {
        const uint8_t *id = data + starts[s];
        int64_t length = lengths[s];
        put(&w, head, sizeof head - 1);
        if (w.count + 2 * (size_t)length > w.capacity) flush(&w);
        for (int64_t i = 0; i < length; i++) {
            if (id[i] == '"' || id[i] == '\\') w.buffer[w.count++] = '\\';
            w.buffer[w.count++] = id[i];
        }
        put(&w, middle, (size_t)middle_count);
        for (int32_t e = 0; e < count; e++) {
            const cbr_experiment *x = &experiments[e];
            int32_t v = decide(x, &tables[e], id, length);
            int64_t start = v == 0 ? 0 : x->fragment_ends[v - 1];
            put(&w, x->fragment_bytes + start, (size_t)(x->fragment_ends[v] - start));
        }
        put(&w, (const uint8_t *)"}}\n", 3);
    }
    flush(&w);
    close(w.fd);
    for (int32_t e = 0; e < count; e++) { free(tables[e].hashes); free(tables[e].entries); }
    free(tables);
    free(starts);
    free(lengths);
    free(data);
    free(w.buffer);
    return w.failed ? -1 : subjects;
}
