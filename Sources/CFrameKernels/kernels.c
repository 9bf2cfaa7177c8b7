#include "FrameKernels.h"

#include <math.h>
#include <string.h>
#include <vips/vips.h>

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#include <immintrin.h>
#define FD_HAVE_X86_SIMD 1
#else
#define FD_HAVE_X86_SIMD 0
#endif

// The mix kernel's matrix is evaluated as separate multiplies and adds everywhere, so that the
// scalar and SIMD paths (and every platform) give the same float results.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// ---------------------------------------------------------------------------------------------
// Parameters and CPU dispatch

// Parameters live as long as the output image: they are freed when libvips closes it.
typedef struct {
    int colour_bands;
    int entries;
    int output_count;
    float scale;
    int square_root_index;
    float matrix[9];
    void *tables;         // lut8 / lut16 tables, or mix input tables (floats)
    void *output_tables;  // mix only
    uint8_t *lut8_blocks; // lut8 SIMD: per colour band, 16 blocks of 16 entries, each in both lanes
    float *mix_terms;     // mix8: per input band c and value v, column c of the matrix × input_c[v]
    void *mix_tables;     // mix8 AVX-512: MixTables (input byte planes, byte permutes), or NULL
    uint32_t *mix_codes;  // mix8 AVX-512: per channel c and index i, output_c[i] << 8c
    VipsImage *input;     // the output image keeps its input alive
} KernelParams;

static void free_params(VipsImage *image, KernelParams *params) {
    (void)image;
    g_free(params->tables);
    g_free(params->output_tables);
    g_free(params->lut8_blocks);
    g_free(params->mix_terms);
    g_free(params->mix_tables);
    g_free(params->mix_codes);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// True when the AVX2 paths may run on this CPU.
static int cpu_has_avx2(void) {
#if FD_HAVE_X86_SIMD
    static int cached = -1;
    if (cached < 0) cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    return cached;
#else
    return 0;
#endif
}

// True when the AVX-512 byte-permute (VBMI) lookups may run on this CPU.
static int cpu_has_avx512_vbmi(void) {
#if FD_HAVE_X86_SIMD
    static int cached = -1;
    if (cached < 0)
        cached = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vbmi")
            ? 1
            : 0;
    return cached;
#else
    return 0;
#endif
}

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`.
static int attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params) {
    if (vips_image_pio_input(in)) {
        free_params(NULL, params);
        return -1;
    }
    VipsImage *image = vips_image_new();
    params->input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", G_CALLBACK(free_params), params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(image, vips_start_one, generate, vips_stop_one, in, params)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

static int check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name) {
    if (in->BandFmt != format) {
        vips_error(name, "expects %s input", format == VIPS_FORMAT_UCHAR ? "8-bit" : "16-bit");
        return -1;
    }
    if (colour_bands < 1 || colour_bands > 3 || in->Bands < colour_bands) {
        vips_error(name, "image has %d bands, kernel needs %d colour bands", in->Bands, colour_bands);
        return -1;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// lut8: per-channel tables on 8-bit pixels

// Scalar lut8 on `count` bytes of a row, where byte i belongs to band (first_band + i) % bands.
static void lut8_scalar(const uint8_t *p, uint8_t *q, size_t count, int bands, int colour,
    const uint8_t *t) {
    if (bands == 3 && colour == 3) {
        const uint8_t *t0 = t, *t1 = t + 256, *t2 = t + 512;
        for (size_t i = 0; i + 3 <= count; i += 3) {
            q[i] = t0[p[i]];
            q[i + 1] = t1[p[i + 1]];
            q[i + 2] = t2[p[i + 2]];
        }
        return;
    }
    int c = 0;
    for (size_t i = 0; i < count; i++) {
        q[i] = c < colour ? t[c * 256 + p[i]] : p[i];
        if (++c == bands) c = 0;
    }
}

#if FD_HAVE_X86_SIMD
// Shuffle masks that split 48 interleaved RGB bytes (three 16-byte vectors A, B, C) into 16 bytes
// per band, and put them back: split[band][source], join[target][band].
typedef struct {
    uint8_t split[3][3][16];
    uint8_t join[3][3][16];
} RgbShuffles;

static RgbShuffles rgb_shuffles;

static gpointer rgb_shuffles_init(gpointer unused) {
    (void)unused;
    for (int band = 0; band < 3; band++)
        for (int vec = 0; vec < 3; vec++)
            for (int k = 0; k < 16; k++) {
                const int pos_split = 3 * k + band, pos_join = 16 * vec + k;
                rgb_shuffles.split[band][vec][k] = pos_split / 16 == vec ? (uint8_t)(pos_split % 16) : 0x80;
                rgb_shuffles.join[vec][band][k] = pos_join % 3 == band ? (uint8_t)(pos_join / 3) : 0x80;
            }
    return NULL;
}

__attribute__((target("avx2"))) static inline __m256i broadcast16(const uint8_t *p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

// 256-entry byte lookup of 32 bytes by 16-entry shuffles. A shuffle yields zero where its index has
// the top bit set, so adds(v, 0x70 - 16h) (saturating) selects block h for every v below 16(h + 1):
// the blocks, XOR-differenced (see prepare_lut8_blocks), telescope to the entry of v's own block.
// Values of 128 and above go through the same scheme on v ^ 0x80, with blocks 8 … 15.
__attribute__((target("avx2"))) static inline __m256i lut8_lookup32(__m256i v, const uint8_t *blocks) {
    const __m256i *b = (const __m256i *)blocks;
    const __m256i upper = _mm256_xor_si256(v, _mm256_set1_epi8((char)0x80));
    __m256i result = _mm256_xor_si256(_mm256_shuffle_epi8(_mm256_loadu_si256(b + 7), v),
        _mm256_shuffle_epi8(_mm256_loadu_si256(b + 15), upper));
    for (int h = 0; h < 7; h++) {
        const __m256i bias = _mm256_set1_epi8((char)(0x70 - 16 * h));
        result = _mm256_xor_si256(result, _mm256_shuffle_epi8(_mm256_loadu_si256(b + h), _mm256_adds_epu8(v, bias)));
        result = _mm256_xor_si256(result,
            _mm256_shuffle_epi8(_mm256_loadu_si256(b + 8 + h), _mm256_adds_epu8(upper, bias)));
    }
    return result;
}

// Combines three shuffles of a, b, c by the masks m[0], m[1], m[2].
__attribute__((target("avx2"))) static inline __m256i shuffle3(__m256i a, __m256i b, __m256i c, const uint8_t (*m)[16]) {
    return _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, broadcast16(m[0])),
        _mm256_shuffle_epi8(b, broadcast16(m[1]))), _mm256_shuffle_epi8(c, broadcast16(m[2])));
}

__attribute__((target("avx2"))) static inline __m256i load_two16(const uint8_t *low, const uint8_t *high) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)low)),
        _mm_loadu_si128((const __m128i *)high), 1);
}

// AVX2 lut8 of one RGB row of `count` bytes: 96 bytes (32 pixels) a step, split into band vectors,
// looked up, and joined again.
__attribute__((target("avx2"))) static void lut8_row3_avx2(const uint8_t *p, uint8_t *q, size_t count,
    const KernelParams *params) {
    const uint8_t *blocks = params->lut8_blocks;
    const RgbShuffles *s = &rgb_shuffles;
    size_t i = 0;
    for (; i + 96 <= count; i += 96) {
        // Lane 0 holds pixels 0–15 and lane 1 pixels 16–31.
        const __m256i a = load_two16(p + i, p + i + 48);
        const __m256i b = load_two16(p + i + 16, p + i + 64);
        const __m256i c = load_two16(p + i + 32, p + i + 80);
        const __m256i r = lut8_lookup32(shuffle3(a, b, c, s->split[0]), blocks);
        const __m256i g = lut8_lookup32(shuffle3(a, b, c, s->split[1]), blocks + 512);
        const __m256i bl = lut8_lookup32(shuffle3(a, b, c, s->split[2]), blocks + 1024);
        const __m256i oa = shuffle3(r, g, bl, s->join[0]);
        const __m256i ob = shuffle3(r, g, bl, s->join[1]);
        const __m256i oc = shuffle3(r, g, bl, s->join[2]);
        _mm256_storeu_si256((__m256i *)(q + i), _mm256_permute2x128_si256(oa, ob, 0x20));
        _mm256_storeu_si256((__m256i *)(q + i + 32), _mm256_permute2x128_si256(oc, oa, 0x30));
        _mm256_storeu_si256((__m256i *)(q + i + 64), _mm256_permute2x128_si256(ob, oc, 0x31));
    }
    lut8_scalar(p + i, q + i, count - i, 3, 3, (const uint8_t *)params->tables);
}

// AVX2 lut8 of one single-band row.
__attribute__((target("avx2"))) static void lut8_row1_avx2(const uint8_t *p, uint8_t *q, size_t count,
    const KernelParams *params) {
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
        _mm256_storeu_si256((__m256i *)(q + i), lut8_lookup32(v, params->lut8_blocks));
    }
    lut8_scalar(p + i, q + i, count - i, 1, 1, (const uint8_t *)params->tables);
}
#endif

#if FD_HAVE_X86_SIMD
// AVX-512 VBMI lut8: a 256-entry table is four 64-byte registers; two two-register byte permutes look up
// the low and high halves and the top bit of each index picks between them: three instructions for 64
// bytes. An RGB row is read 192 bytes (64 pixels) at a time as three registers; in register k byte i
// belongs to band (64k + i) mod 3, so each register is looked up in all three tables and the results are
// merged by position.
#define FD_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

typedef struct {
    __m512i t0, t1, t2, t3;
} Table512;

FD_VBMI static inline Table512 load_table512(const uint8_t *table) {
    Table512 t = { _mm512_loadu_si512(table), _mm512_loadu_si512(table + 64),
        _mm512_loadu_si512(table + 128), _mm512_loadu_si512(table + 192) };
    return t;
}

FD_VBMI static inline __m512i lookup512(__m512i index, const Table512 *t) {
    const __m512i low = _mm512_permutex2var_epi8(t->t0, index, t->t1);
    const __m512i high = _mm512_permutex2var_epi8(t->t2, index, t->t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high);
}

// Bit i of band_mask(k, c) is set when byte i of register k (64k + i of the row) belongs to band c.
static inline uint64_t band_mask(int k, int c) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++)
        if ((64 * k + i) % 3 == c) mask |= (uint64_t)1 << i;
    return mask;
}

FD_VBMI static void lut8_row3_vbmi(const uint8_t *p, uint8_t *q, size_t count, const uint8_t *tables) {
    const Table512 r = load_table512(tables), g = load_table512(tables + 256),
                   b = load_table512(tables + 512);
    __mmask64 green[3], blue[3];
    for (int k = 0; k < 3; k++) {
        green[k] = band_mask(k, 1);
        blue[k] = band_mask(k, 2);
    }
    size_t i = 0;
    for (; i + 192 <= count; i += 192) {
        for (int k = 0; k < 3; k++) {
            const __m512i v = _mm512_loadu_si512(p + i + 64 * k);
            __m512i out = lookup512(v, &r);
            out = _mm512_mask_mov_epi8(out, green[k], lookup512(v, &g));
            out = _mm512_mask_mov_epi8(out, blue[k], lookup512(v, &b));
            _mm512_storeu_si512(q + i + 64 * k, out);
        }
    }
    lut8_scalar(p + i, q + i, count - i, 3, 3, tables);
}

FD_VBMI static void lut8_row1_vbmi(const uint8_t *p, uint8_t *q, size_t count, const uint8_t *table) {
    const Table512 t = load_table512(table);
    size_t i = 0;
    for (; i + 64 <= count; i += 64)
        _mm512_storeu_si512(q + i, lookup512(_mm512_loadu_si512(p + i), &t));
    lut8_scalar(p + i, q + i, count - i, 1, 1, table);
}
#endif

static int generate_lut8(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    const size_t count = (size_t)rect->width * bands;
    // The SIMD paths serve RGB and grey, which carry no copied bands.
    const int simd = params->lut8_blocks && bands == params->colour_bands && bands != 2;
    const int vbmi = simd && cpu_has_avx512_vbmi();
    for (int y = 0; y < rect->height; y++) {
        const uint8_t *p = VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
#if FD_HAVE_X86_SIMD
        if (vbmi) {
            if (bands == 3)
                lut8_row3_vbmi(p, q, count, (const uint8_t *)params->tables);
            else
                lut8_row1_vbmi(p, q, count, (const uint8_t *)params->tables);
            continue;
        }
        if (simd) {
            if (bands == 3)
                lut8_row3_avx2(p, q, count, params);
            else
                lut8_row1_avx2(p, q, count, params);
            continue;
        }
#endif
        (void)simd;
        (void)vbmi;
        lut8_scalar(p, q, count, bands, params->colour_bands, (const uint8_t *)params->tables);
    }
    return 0;
}

// Lays the tables out as 16-entry blocks for the SIMD lookups, when this CPU runs them: block h is
// entries 16h … 16h + 15 XOR those of block h + 1, except blocks 7 and 15, which are plain.
static void prepare_lut8_blocks(KernelParams *params) {
#if FD_HAVE_X86_SIMD
    static GOnce once = G_ONCE_INIT;
    if (!cpu_has_avx2()) return;
    g_once(&once, rgb_shuffles_init, NULL);
    const uint8_t *t = (const uint8_t *)params->tables;
    params->lut8_blocks = g_new(uint8_t, (size_t)params->colour_bands * 512);
    for (int c = 0; c < params->colour_bands; c++)
        for (int h = 0; h < 16; h++)
            for (int k = 0; k < 16; k++) {
                const uint8_t *entry = t + c * 256 + h * 16 + k;
                const uint8_t value = h % 8 == 7 ? entry[0] : (uint8_t)(entry[0] ^ entry[16]);
                params->lut8_blocks[c * 512 + h * 32 + k] = value;
                params->lut8_blocks[c * 512 + h * 32 + 16 + k] = value;
            }
#else
    (void)params;
#endif
}

// ---------------------------------------------------------------------------------------------
// lut16: per-channel tables on 16-bit pixels (stills)

static int generate_lut16(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    const int colour = params->colour_bands;
    const uint16_t *t = (const uint16_t *)params->tables;
    for (int y = 0; y < rect->height; y++) {
        const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
        if (bands == 3 && colour == 3) {
            const uint16_t *t0 = t, *t1 = t + 65536, *t2 = t + 2 * 65536;
            for (int x = 0; x < rect->width; x++, p += 3, q += 3) {
                q[0] = t0[p[0]];
                q[1] = t1[p[1]];
                q[2] = t2[p[2]];
            }
            continue;
        }
        for (int x = 0; x < rect->width; x++) {
            for (int c = 0; c < bands; c++) q[c] = c < colour ? t[c * 65536 + p[c]] : p[c];
            p += bands;
            q += bands;
        }
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// mix: input tables, 3×3 matrix, output tables

static inline int output_index(float value, float scale, int last, int square_root) {
    if (square_root) value = value > 0.0f ? sqrtf(value) : 0.0f;
    float position = value * scale + 0.5f;
    if (!(position > 0.0f)) return 0;  // also catches NaN
    if (position >= (float)last) return last;
    return (int)position;
}

// Scalar mix of `n` 8-bit pixels of `bands` bands (alpha and further bands copied).
static void mix8_scalar(const uint8_t *p, uint8_t *q, int n, int bands, const KernelParams *params) {
    const float *i0 = (const float *)params->tables, *i1 = i0 + 256, *i2 = i0 + 512;
    const float *m = params->matrix;
    const float scale = params->scale;
    const int count = params->output_count, last = count - 1, sqrt_index = params->square_root_index;
    const uint8_t *o0 = (const uint8_t *)params->output_tables, *o1 = o0 + count, *o2 = o1 + count;
    for (int x = 0; x < n; x++) {
        const float r = i0[p[0]], g = i1[p[1]], bl = i2[p[2]];
        q[0] = o0[output_index(m[0] * r + m[1] * g + m[2] * bl, scale, last, sqrt_index)];
        q[1] = o1[output_index(m[3] * r + m[4] * g + m[5] * bl, scale, last, sqrt_index)];
        q[2] = o2[output_index(m[6] * r + m[7] * g + m[8] * bl, scale, last, sqrt_index)];
        for (int c = 3; c < bands; c++) q[c] = p[c];
        p += bands;
        q += bands;
    }
}

// Scalar mix of `n` 16-bit pixels.
static void mix16_scalar(const uint16_t *p, uint16_t *q, int n, int bands, const KernelParams *params) {
    const float *i0 = (const float *)params->tables, *i1 = i0 + 65536, *i2 = i1 + 65536;
    const float *m = params->matrix;
    const float scale = params->scale;
    const int count = params->output_count, last = count - 1, sqrt_index = params->square_root_index;
    const uint16_t *o0 = (const uint16_t *)params->output_tables, *o1 = o0 + count, *o2 = o1 + count;
    for (int x = 0; x < n; x++) {
        const float r = i0[p[0]], g = i1[p[1]], bl = i2[p[2]];
        q[0] = o0[output_index(m[0] * r + m[1] * g + m[2] * bl, scale, last, sqrt_index)];
        q[1] = o1[output_index(m[3] * r + m[4] * g + m[5] * bl, scale, last, sqrt_index)];
        q[2] = o2[output_index(m[6] * r + m[7] * g + m[8] * bl, scale, last, sqrt_index)];
        for (int c = 3; c < bands; c++) q[c] = p[c];
        p += bands;
        q += bands;
    }
}

#if FD_HAVE_X86_SIMD
// Constants of the SSE2 mix path.
typedef struct {
    __m128 scale, half, zero, last_f;
    const uint8_t *o0, *o1, *o2;
} MixConstants;

// Mixes 8-bit pixels a 128-bit vector per pixel from the precomputed terms (lane k of terms[c][v]
// is matrix[k][c] × input_c[v]): (t0 + t1) + t2 is the scalar path's sum, term by term.
static inline __attribute__((always_inline)) void mix8_row_sse_mode(const uint8_t *restrict p,
    uint8_t *restrict q, int n, int bands, const __m128 *restrict terms, const MixConstants *k, int square_root) {
    const __m128 scale = k->scale, half = k->half, zero = k->zero, last_f = k->last_f;
    const uint8_t *restrict o0 = k->o0, *restrict o1 = k->o1, *restrict o2 = k->o2;
    for (int x = 0; x < n; x++, p += bands, q += bands) {
        __m128 value = _mm_add_ps(_mm_add_ps(terms[p[0]], terms[256 + p[1]]), terms[512 + p[2]]);
        if (square_root) value = _mm_sqrt_ps(_mm_max_ps(value, zero));
        __m128 position = _mm_add_ps(_mm_mul_ps(value, scale), half);
        position = _mm_min_ps(_mm_max_ps(position, zero), last_f);
        const __m128i index = _mm_cvttps_epi32(position);
        const uint64_t first_two = (uint64_t)_mm_cvtsi128_si64(index);
        const uint8_t r = o0[(uint32_t)first_two];
        const uint8_t g = o1[first_two >> 32];
        const uint8_t b = o2[(uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(index, index))];
        for (int c = 3; c < bands; c++) q[c] = p[c];
        q[0] = r;
        q[1] = g;
        q[2] = b;
    }
}

// AVX-512 VBMI mix of rows of 3 or 4 bands, 64 pixels at a time, giving exactly the scalar path's codes.
//
// Input: each float table is split into its four bytes, and each byte plane is looked up for 64 pixels
// at once (two byte permutes and a blend, as in lut8); unpacking the planes rebuilds the floats, four
// registers of 16 per channel, in the same pixel order for every channel. The matrix and the index are
// the scalar path's float operations, lane by lane. Output: gathers read each channel's code from a
// 32-bit copy of its table that holds the code in byte c, so OR-ing the three channels gives the
// pixel; transposing the 128-bit lanes of the four registers undoes the unpacking's pixel order. The
// byte permutes keep port 5 busy and the gathers the load ports, so the two halves overlap (a binary
// search over the code thresholds with word permutes instead was about 30 % slower).
typedef struct {
    uint8_t input_planes[3][4][256];  // byte j of input_c[v] (little-endian)
    // Byte permutes from 64 interleaved pixels to 3 planes of 64: [0] for RGB (192 bytes in three
    // registers), [1] for four bands (256 bytes in four; the fourth band is copied).
    uint8_t split[2][3][64];
    uint64_t split_high[2][3];
    uint8_t pack[64];                 // RGB output: bytes 0 … 2 of 16 pixel lanes, packed into 48
} MixTables;

FD_VBMI static inline void mix_plane_floats(__m512i index, const uint8_t (*planes)[256], __m512 out[4]) {
    const __mmask64 top = _mm512_movepi8_mask(index);
    __m512i b[4];
    for (int j = 0; j < 4; j++) {
        const uint8_t *t = planes[j];
        const __m512i low = _mm512_permutex2var_epi8(_mm512_loadu_si512(t), index, _mm512_loadu_si512(t + 64));
        const __m512i high =
            _mm512_permutex2var_epi8(_mm512_loadu_si512(t + 128), index, _mm512_loadu_si512(t + 192));
        b[j] = _mm512_mask_blend_epi8(top, low, high);
    }
    const __m512i w01lo = _mm512_unpacklo_epi8(b[0], b[1]), w01hi = _mm512_unpackhi_epi8(b[0], b[1]);
    const __m512i w23lo = _mm512_unpacklo_epi8(b[2], b[3]), w23hi = _mm512_unpackhi_epi8(b[2], b[3]);
    out[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(w01lo, w23lo));
    out[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(w01lo, w23lo));
    out[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(w01hi, w23hi));
    out[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(w01hi, w23hi));
}

// Every inner loop is unrolled fully, so that its small arrays of registers stay in registers instead of
// on the stack.
FD_VBMI static inline __attribute__((always_inline)) void mix8_row_vbmi_mode(const uint8_t *restrict p,
    uint8_t *restrict q, int n, int bands, const KernelParams *params, const MixConstants *k, int square_root) {
    const MixTables *tables = (const MixTables *)params->mix_tables;
    const int layout = bands == 3 ? 0 : 1;
    const float *mtx = params->matrix;
    const int count = params->output_count;
    __m512 m[9];
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 9; i++) m[i] = _mm512_set1_ps(mtx[i]);
    const __m512 scale = _mm512_set1_ps(params->scale), half = _mm512_set1_ps(0.5f),
                 zero = _mm512_setzero_ps(), last = _mm512_set1_ps((float)(count - 1));
    int x = 0;
    for (; x + 64 <= n; x += 64, p += 64 * bands, q += 64 * bands) {
        __m512i d[4];
        _Pragma("clang loop unroll(full)")
        for (int r = 0; r < bands; r++) d[r] = _mm512_loadu_si512(p + 64 * r);
        __m512 in[3][4];
        _Pragma("clang loop unroll(full)")
        for (int c = 0; c < 3; c++) {
            const __m512i split = _mm512_loadu_si512(tables->split[layout][c]);
            __m512i plane = _mm512_permutex2var_epi8(d[0], split, d[1]);
            const __mmask64 high = tables->split_high[layout][c];
            if (bands == 3)
                plane = _mm512_mask_permutexvar_epi8(plane, high, split, d[2]);
            else
                plane = _mm512_mask_mov_epi8(plane, high, _mm512_permutex2var_epi8(d[2], split, d[3]));
            mix_plane_floats(plane, tables->input_planes[c], in[c]);
        }
        // Lane L of pixel[r] holds pixels 16L + 4r … 16L + 4r + 3 (mix_plane_floats' order), R, G, B in
        // bytes 0, 1, 2.
        __m512i pixel[4];
        _Pragma("clang loop unroll(full)")
        for (int r = 0; r < 4; r++) {
            pixel[r] = _mm512_setzero_si512();
            _Pragma("clang loop unroll(full)")
            for (int row = 0; row < 3; row++) {
                __m512 v = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(m[row * 3], in[0][r]),
                                             _mm512_mul_ps(m[row * 3 + 1], in[1][r])),
                    _mm512_mul_ps(m[row * 3 + 2], in[2][r]));
                if (square_root) v = _mm512_sqrt_ps(_mm512_max_ps(v, zero));
                __m512 position = _mm512_add_ps(_mm512_mul_ps(v, scale), half);
                position = _mm512_min_ps(_mm512_max_ps(position, zero), last);
                const __m512i index = _mm512_cvttps_epi32(position);
                pixel[r] = _mm512_or_si512(pixel[r],
                    _mm512_i32gather_epi32(index, (const int *)(params->mix_codes + (size_t)row * count), 4));
            }
        }
        // Transposing the 4 × 4 lanes gives natural[L] = pixels 16L … 16L + 15 in order.
        const __m512i lo01 = _mm512_shuffle_i32x4(pixel[0], pixel[1], 0x44);
        const __m512i hi01 = _mm512_shuffle_i32x4(pixel[0], pixel[1], 0xEE);
        const __m512i lo23 = _mm512_shuffle_i32x4(pixel[2], pixel[3], 0x44);
        const __m512i hi23 = _mm512_shuffle_i32x4(pixel[2], pixel[3], 0xEE);
        const __m512i natural[4] = { _mm512_shuffle_i32x4(lo01, lo23, 0x88),
            _mm512_shuffle_i32x4(lo01, lo23, 0xDD), _mm512_shuffle_i32x4(hi01, hi23, 0x88),
            _mm512_shuffle_i32x4(hi01, hi23, 0xDD) };
        _Pragma("clang loop unroll(full)")
        for (int L = 0; L < 4; L++) {
            if (bands == 4) {
                const __m512i alpha = _mm512_and_si512(d[L], _mm512_set1_epi32((int)0xFF000000u));
                _mm512_storeu_si512(q + 64 * L, _mm512_or_si512(natural[L], alpha));
            } else {
                _mm512_mask_storeu_epi8(q + 48 * L, 0xFFFFFFFFFFFFULL,
                    _mm512_permutexvar_epi8(_mm512_loadu_si512(tables->pack), natural[L]));
            }
        }
    }
    mix8_row_sse_mode(p, q, n - x, bands, (const __m128 *)params->mix_terms, k, square_root);
}

// The AVX-512 mix of one row, specialised for its band count and index mode.
FD_VBMI static void mix8_row_vbmi(const uint8_t *p, uint8_t *q, int n, int bands, const KernelParams *params,
    const MixConstants *k) {
    const int sqrt_index = params->square_root_index ? 1 : 0;
    if (bands == 3 && sqrt_index) mix8_row_vbmi_mode(p, q, n, 3, params, k, 1);
    else if (bands == 3) mix8_row_vbmi_mode(p, q, n, 3, params, k, 0);
    else if (sqrt_index) mix8_row_vbmi_mode(p, q, n, 4, params, k, 1);
    else mix8_row_vbmi_mode(p, q, n, 4, params, k, 0);
}

// SSE2 mix of a whole 8-bit region.
static void mix8_region_sse(VipsRegion *in_region, VipsRegion *out_region, const KernelParams *params) {
    const VipsRect *rect = &out_region->valid;
    const int bands = out_region->im->Bands;
    MixConstants k;
    k.scale = _mm_set1_ps(params->scale);
    k.half = _mm_set1_ps(0.5f);
    k.zero = _mm_setzero_ps();
    k.last_f = _mm_set1_ps((float)(params->output_count - 1));
    k.o0 = (const uint8_t *)params->output_tables;
    k.o1 = k.o0 + params->output_count;
    k.o2 = k.o1 + params->output_count;
    const __m128 *terms = (const __m128 *)params->mix_terms;
    for (int y = 0; y < rect->height; y++) {
        const uint8_t *p = VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
        if (params->mix_tables && (bands == 3 || bands == 4)) {
            mix8_row_vbmi(p, q, rect->width, bands, params, &k);
            continue;
        }
        const int mode = (bands == 3 ? 0 : 2) + (params->square_root_index ? 1 : 0);
        switch (mode) {  // constant band counts and index modes let the compiler specialise the loop
        case 0: mix8_row_sse_mode(p, q, rect->width, 3, terms, &k, 0); break;
        case 1: mix8_row_sse_mode(p, q, rect->width, 3, terms, &k, 1); break;
        case 2: mix8_row_sse_mode(p, q, rect->width, bands, terms, &k, 0); break;
        default: mix8_row_sse_mode(p, q, rect->width, bands, terms, &k, 1); break;
        }
    }
}

#endif

static int generate_mix(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
#if FD_HAVE_X86_SIMD
    if (params->mix_terms) {
        mix8_region_sse(in_region, out_region, params);
        return 0;
    }
#endif
    for (int y = 0; y < rect->height; y++) {
        VipsPel *p = VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        VipsPel *q = VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
        if (params->entries == 256)
            mix8_scalar(p, q, rect->width, bands, params);
        else
            mix16_scalar((const uint16_t *)p, (uint16_t *)q, rect->width, bands, params);
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Public constructors of the per-pixel kernels

int fd_kernel_lut8(VipsImage *in, VipsImage **out, const uint8_t *tables, int colour_bands) {
    if (check(in, VIPS_FORMAT_UCHAR, colour_bands, "framedial_lut8")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = colour_bands;
    params->tables = g_memdup2(tables, (gsize)colour_bands * 256);
    prepare_lut8_blocks(params);
    return attach(in, out, generate_lut8, params);
}

int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands) {
    if (check(in, VIPS_FORMAT_USHORT, colour_bands, "framedial_lut16")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = colour_bands;
    params->tables = g_memdup2(tables, (gsize)colour_bands * 65536 * sizeof(uint16_t));
    return attach(in, out, generate_lut16, params);
}

// Precomputes the 8-bit SIMD path's terms: for input band c and value v, the 4 floats
// (matrix[0][c], matrix[1][c], matrix[2][c], 0) × input_c[v]. Indices must stay exact in float.
static void prepare_mix_terms(KernelParams *params) {
#if FD_HAVE_X86_SIMD
    if (params->entries != 256 || params->output_count > (1 << 24)) return;
    const float *in = (const float *)params->tables;
    params->mix_terms = g_malloc(3 * 256 * 4 * sizeof(float) + 16);  // g_malloc aligns to 16
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) {
            float *t = params->mix_terms + (c * 256 + v) * 4;
            for (int row = 0; row < 3; row++) t[row] = params->matrix[row * 3 + c] * in[c * 256 + v];
            t[3] = 0.0f;
        }
#else
    (void)params;
#endif
}

// Builds the AVX-512 mix path's tables (see MixTables) when this CPU runs it and the output tables have
// at most 65535 entries a channel (so that the code tables stay in the caches).
static void prepare_mix_tables(KernelParams *params) {
#if FD_HAVE_X86_SIMD
    if (!params->mix_terms || !cpu_has_avx512_vbmi() || params->output_count > 65535) return;
    const int count = params->output_count;
    const uint8_t *output = (const uint8_t *)params->output_tables;
    MixTables *tables = g_new0(MixTables, 1);
    const float *input = (const float *)params->tables;
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) {
            uint32_t bits;
            memcpy(&bits, &input[c * 256 + v], sizeof bits);
            for (int j = 0; j < 4; j++) tables->input_planes[c][j][v] = (uint8_t)(bits >> (8 * j));
        }
    for (int layout = 0; layout < 2; layout++) {
        const int bands = 3 + layout;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 64; i++) {
                // Pixel i's band c is byte `position` of the block; past the first two registers it
                // comes from the third (and fourth).
                const int position = bands * i + c;
                tables->split[layout][c][i] = (uint8_t)(position % 128);
                if (position >= 128) tables->split_high[layout][c] |= (uint64_t)1 << i;
            }
    }
    for (int i = 0; i < 48; i++) tables->pack[i] = (uint8_t)(4 * (i / 3) + i % 3);
    params->mix_codes = g_new(uint32_t, (size_t)3 * count);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < count; i++)
            params->mix_codes[c * count + i] = (uint32_t)output[c * count + i] << (8 * c);
    params->mix_tables = tables;
#else
    (void)params;
#endif
}

int fd_kernel_mix(VipsImage *in, VipsImage **out, int entries, const float *input_tables,
    const float *matrix, const void *output_tables, int output_count, float scale, int square_root_index) {
    VipsBandFormat format = entries == 256 ? VIPS_FORMAT_UCHAR : VIPS_FORMAT_USHORT;
    if ((entries != 256 && entries != 65536) || output_count < 1) {
        vips_error("framedial_mix", "bad table sizes %d and %d", entries, output_count);
        return -1;
    }
    if (check(in, format, 3, "framedial_mix")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = 3;
    params->entries = entries;
    params->output_count = output_count;
    params->scale = scale;
    params->square_root_index = square_root_index;
    memcpy(params->matrix, matrix, sizeof params->matrix);
    params->tables = g_memdup2(input_tables, (gsize)3 * entries * sizeof(float));
    size_t output_size = (size_t)3 * output_count * (entries == 256 ? sizeof(uint8_t) : sizeof(uint16_t));
    params->output_tables = g_memdup2(output_tables, output_size);
    prepare_mix_terms(params);
    prepare_mix_tables(params);
    return attach(in, out, generate_mix, params);
}

// ---------------------------------------------------------------------------------------------
// resize_bilinear8: separable bilinear resampling of 8-bit images
//
// Horizontal pass: each needed input row becomes a row of 16-bit values, value × 128, from
// 8-bit weights (of 256). Vertical pass: two such rows blend with 14-bit weights (of 16384) and
// round to 8 bits. The worst-case error against exact bilinear is about 0.51 of a level, so every
// output is within ±1 of the exact value rounded half up.

enum { H_WEIGHT_ONE = 256, V_WEIGHT_BITS = 14, V_WEIGHT_ONE = 1 << V_WEIGHT_BITS, V_SHIFT = V_WEIGHT_BITS + 7 };

typedef struct {
    int in_width, in_height, width, height, bands;
    int *x0, *x1;      // per output column: byte offsets of the two input pixels in a row
    int16_t *x_weight; // per output column: weight of the right pixel, 0 … 256
    int *y0, *y1;      // per output row: the two input rows
    int16_t *y_weight; // per output row: weight of the lower row, 0 … 16384
    struct ResizeChunk *chunks; // AVX-512 horizontal pass: per 32 output values of a row, or NULL
    VipsImage *input;  // the output image keeps its input alive
} ResizeParams;

// One libvips sequence: the input region and two cached horizontally-resampled rows.
typedef struct {
    VipsRegion *region;
    int16_t *rows[2];
    int row_y[2];           // input row held by each cache slot, -1 for none
    int row_left, row_width; // output columns the cached rows cover
} ResizeSequence;

static void free_resize_params(VipsImage *image, ResizeParams *params) {
    (void)image;
    g_free(params->x0);
    g_free(params->x1);
    g_free(params->x_weight);
    g_free(params->y0);
    g_free(params->y1);
    g_free(params->y_weight);
    g_free(params->chunks);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// Maps output positions 0 … out_size-1 onto input pixel centres of the window start … start + span:
// first/second input pixel and the second one's weight out of `one`.
static void resize_axis(int in_size, double start, double span, int out_size, int one, int *first, int *second,
    int16_t *weight) {
    for (int i = 0; i < out_size; i++) {
        double position = start + (i + 0.5) * span / out_size - 0.5;
        if (position < 0.0) position = 0.0;
        if (position > in_size - 1) position = in_size - 1;
        int index = (int)position;
        first[i] = index;
        second[i] = index + 1 < in_size ? index + 1 : index;
        weight[i] = (int16_t)(int)((position - index) * one + 0.5);
    }
}

static void *resize_start(VipsImage *out, void *a, void *b) {
    const ResizeParams *params = (const ResizeParams *)b;
    (void)out;
    ResizeSequence *seq = g_new0(ResizeSequence, 1);
    seq->region = vips_region_new((VipsImage *)a);
    size_t row_values = (size_t)params->width * params->bands + 32;
    seq->rows[0] = g_new(int16_t, row_values);
    seq->rows[1] = g_new(int16_t, row_values);
    seq->row_y[0] = seq->row_y[1] = -1;
    return seq;
}

static int resize_stop(void *sequence, void *a, void *b) {
    ResizeSequence *seq = (ResizeSequence *)sequence;
    (void)a;
    (void)b;
    g_object_unref(seq->region);
    g_free(seq->rows[0]);
    g_free(seq->rows[1]);
    g_free(seq);
    return 0;
}

// Horizontal pass over output columns [left, left + n) for a fixed band count; `row` is the input
// row with `base` the byte offset of its first pixel.
static inline __attribute__((always_inline)) void resize_horizontal_bands(const uint8_t *row, int base,
    const ResizeParams *params, int left, int n, int16_t *out, const int bands) {
    const int *x0 = params->x0 + left, *x1 = params->x1 + left;
    const int16_t *w = params->x_weight + left;
    for (int x = 0; x < n; x++) {
        const uint8_t *a = row + (x0[x] - base), *b = row + (x1[x] - base);
        const int wb = w[x], wa = H_WEIGHT_ONE - wb;
        for (int c = 0; c < bands; c++) out[x * bands + c] = (int16_t)((a[c] * wa + b[c] * wb + 1) >> 1);
    }
}

static void resize_horizontal(const uint8_t *row, int base, const ResizeParams *params, int left, int n,
    int16_t *out) {
    switch (params->bands) {
    case 1: resize_horizontal_bands(row, base, params, left, n, out, 1); break;
    case 2: resize_horizontal_bands(row, base, params, left, n, out, 2); break;
    case 3: resize_horizontal_bands(row, base, params, left, n, out, 3); break;
    default: resize_horizontal_bands(row, base, params, left, n, out, 4); break;
    }
}

// Vertical pass: blends `count` values of rows a and b with weight wb (of 16384) of b.
static void resize_vertical_scalar(const int16_t *a, const int16_t *b, int wb, uint8_t *out, int count) {
    const int wa = V_WEIGHT_ONE - wb;
    const int round = 1 << (V_SHIFT - 1);
    for (int i = 0; i < count; i++) out[i] = (uint8_t)((a[i] * wa + b[i] * wb + round) >> V_SHIFT);
}

#if FD_HAVE_X86_SIMD
// AVX2 vertical pass: interleaved (a, b) pairs times (wa, wb) pairs with madd, 32 values a step.
__attribute__((target("avx2"))) static void resize_vertical_avx2(const int16_t *a, const int16_t *b, int wb,
    uint8_t *out, int count) {
    const __m256i weights = _mm256_set1_epi32((V_WEIGHT_ONE - wb) | (wb << 16));
    const __m256i round = _mm256_set1_epi32(1 << (V_SHIFT - 1));
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i half[2];
        for (int h = 0; h < 2; h++) {
            const __m256i va = _mm256_loadu_si256((const __m256i *)(a + i + 16 * h));
            const __m256i vb = _mm256_loadu_si256((const __m256i *)(b + i + 16 * h));
            __m256i lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(va, vb), weights);
            __m256i hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(va, vb), weights);
            lo = _mm256_srai_epi32(_mm256_add_epi32(lo, round), V_SHIFT);
            hi = _mm256_srai_epi32(_mm256_add_epi32(hi, round), V_SHIFT);
            half[h] = _mm256_packs_epi32(lo, hi);
        }
        const __m256i bytes = _mm256_packus_epi16(half[0], half[1]);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(bytes, 0xd8));
    }
    resize_vertical_scalar(a + i, b + i, wb, out + i, count - i);
}
#endif

// The AVX-512 horizontal pass works on chunks of 32 output values (bytes of output pixels, bands
// interleaved): one or two masked loads fetch the input bytes the chunk needs (a window of at most 128
// bytes), one two-register byte permute lays out its (left, right) byte pairs, and 16-bit multiply-adds
// with the (256 - w, w) weights give the scalar pass's values exactly. The pairs are ordered so that the
// in-lane 32-to-16-bit pack puts the values back in order.
enum { RESIZE_CHUNK = 32 };

typedef struct ResizeChunk {
    uint8_t control[64];  // window positions of the left and right bytes of each pair
    int16_t weights[64];  // per pair (256 - w, w)
    uint64_t mask[2];     // window bytes to load from start and start + 64
    int32_t start;        // byte offset of the window in an input row; -1 when wider than 128 bytes
} ResizeChunk;

// Fills params->chunks when this CPU runs the AVX-512 pass (after x0 and x1 became byte offsets).
static void prepare_resize_chunks(ResizeParams *params) {
    if (!cpu_has_avx512_vbmi()) return;
    const int bands = params->bands, chunks = params->width * bands / RESIZE_CHUNK;
    if (chunks == 0) return;
    params->chunks = g_new0(ResizeChunk, chunks);
    for (int k = 0; k < chunks; k++) {
        ResizeChunk *chunk = &params->chunks[k];
        int low = INT32_MAX, high = 0;
        for (int i = 0; i < RESIZE_CHUNK; i++) {
            const int v = k * RESIZE_CHUNK + i, x = v / bands, c = v % bands;
            low = MIN(low, params->x0[x] + c);
            high = MAX(high, params->x1[x] + c);
        }
        const int span = high - low + 1;
        chunk->start = span <= 128 ? low : -1;
        if (chunk->start < 0) continue;
        chunk->mask[0] = span >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << span) - 1;
        chunk->mask[1] = span <= 64 ? 0 : span == 128 ? ~(uint64_t)0 : ((uint64_t)1 << (span - 64)) - 1;
        for (int i = 0; i < RESIZE_CHUNK; i++) {
            const int v = k * RESIZE_CHUNK + i, x = v / bands, c = v % bands;
            // Value i lands in word i of the packed result: lane i / 8, from the low (first 16 pairs)
            // or high (last 16) multiply-add when i % 8 is below or above 3.
            const int lane = i / 8, word = i % 8, pair = word < 4 ? 4 * lane + word : 16 + 4 * lane + word - 4;
            chunk->control[2 * pair] = (uint8_t)(params->x0[x] + c - low);
            chunk->control[2 * pair + 1] = (uint8_t)(params->x1[x] + c - low);
            chunk->weights[2 * pair] = (int16_t)(H_WEIGHT_ONE - params->x_weight[x]);
            chunk->weights[2 * pair + 1] = params->x_weight[x];
        }
    }
}

#if FD_HAVE_X86_SIMD
// Scalar horizontal pass over output values [from, to) of a row, written to out[v - first].
static void resize_values_scalar(const uint8_t *row, int base, const ResizeParams *params, int first, int from,
    int to, int16_t *out) {
    const int bands = params->bands;
    for (int v = from; v < to; v++) {
        const int x = v / bands, c = v - x * bands;
        const int a = row[params->x0[x] + c - base], b = row[params->x1[x] + c - base];
        const int wb = params->x_weight[x], wa = H_WEIGHT_ONE - wb;
        out[v - first] = (int16_t)((a * wa + b * wb + 1) >> 1);
    }
}

// AVX-512 horizontal pass over output columns [left, left + n); columns outside whole chunks, and chunks
// of wide windows (shrinking by about 4 or more), take the scalar pass.
FD_VBMI static void resize_horizontal_avx512(const uint8_t *row, int base, const ResizeParams *params,
    int left, int n, int16_t *out) {
    const int first = left * params->bands, end = (left + n) * params->bands;
    const __m512i one = _mm512_set1_epi32(1);
    int v = MIN(end, (first + RESIZE_CHUNK - 1) / RESIZE_CHUNK * RESIZE_CHUNK);
    resize_values_scalar(row, base, params, first, first, v, out);
    for (; v + RESIZE_CHUNK <= end; v += RESIZE_CHUNK) {
        const ResizeChunk *chunk = &params->chunks[v / RESIZE_CHUNK];
        if (chunk->start < 0) {
            resize_values_scalar(row, base, params, first, v, v + RESIZE_CHUNK, out);
            continue;
        }
        const uint8_t *window = row + (chunk->start - base);
        const __m512i w0 = _mm512_maskz_loadu_epi8(chunk->mask[0], window);
        const __m512i w1 = _mm512_maskz_loadu_epi8(chunk->mask[1], window + 64);
        const __m512i pairs = _mm512_permutex2var_epi8(w0, _mm512_loadu_si512(chunk->control), w1);
        const __m512i low = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(pairs));
        const __m512i high = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(pairs, 1));
        __m512i a = _mm512_madd_epi16(low, _mm512_loadu_si512(chunk->weights));
        __m512i b = _mm512_madd_epi16(high, _mm512_loadu_si512(chunk->weights + 32));
        a = _mm512_srai_epi32(_mm512_add_epi32(a, one), 1);
        b = _mm512_srai_epi32(_mm512_add_epi32(b, one), 1);
        _mm512_storeu_si512(out + (v - first), _mm512_packs_epi32(a, b));
    }
    resize_values_scalar(row, base, params, first, v, end, out);
}
#endif

// The cached horizontal row for input row `y`, computing it into the slot not holding row `keep`.
static const int16_t *resize_row(ResizeSequence *seq, const ResizeParams *params, const VipsRect *in_rect,
    int y, int keep, int left, int n) {
    for (int s = 0; s < 2; s++)
        if (seq->row_y[s] == y) return seq->rows[s];
    const int s = seq->row_y[0] == keep ? 1 : 0;
    const uint8_t *row = VIPS_REGION_ADDR(seq->region, in_rect->left, y);
#if FD_HAVE_X86_SIMD
    if (params->chunks)
        resize_horizontal_avx512(row, in_rect->left * params->bands, params, left, n, seq->rows[s]);
    else
#endif
        resize_horizontal(row, in_rect->left * params->bands, params, left, n, seq->rows[s]);
    seq->row_y[s] = y;
    return seq->rows[s];
}

static int generate_resize(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    ResizeSequence *seq = (ResizeSequence *)sequence;
    const ResizeParams *params = (const ResizeParams *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    const int right = rect->left + rect->width - 1, bottom = rect->top + rect->height - 1;
    VipsRect in_rect;
    in_rect.left = params->x0[rect->left] / params->bands;
    in_rect.top = params->y0[rect->top];
    in_rect.width = params->x1[right] / params->bands - in_rect.left + 1;
    in_rect.height = params->y1[bottom] - in_rect.top + 1;
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    if (seq->row_left != rect->left || seq->row_width != rect->width) {
        seq->row_y[0] = seq->row_y[1] = -1;
        seq->row_left = rect->left;
        seq->row_width = rect->width;
    }
    const int count = rect->width * params->bands;
    const int simd = cpu_has_avx2();
    for (int y = rect->top; y <= bottom; y++) {
        const int16_t *upper = resize_row(seq, params, &in_rect, params->y0[y], params->y1[y], rect->left, rect->width);
        const int16_t *lower = resize_row(seq, params, &in_rect, params->y1[y], params->y0[y], rect->left, rect->width);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, y);
#if FD_HAVE_X86_SIMD
        if (simd) {
            resize_vertical_avx2(upper, lower, params->y_weight[y], q, count);
            continue;
        }
#endif
        (void)simd;
        resize_vertical_scalar(upper, lower, params->y_weight[y], q, count);
    }
    return 0;
}

int fd_kernel_resize_bilinear8(VipsImage *in, VipsImage **out, int width, int height) {
    return fd_kernel_resample_bilinear8(in, out, width, height, 0, 0, in->Xsize, in->Ysize);
}

int fd_kernel_resample_bilinear8(VipsImage *in, VipsImage **out, int width, int height, double left, double top,
    double window_width, double window_height) {
    if (in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 || in->Bands > 4) {
        vips_error("framedial_resize", "expects an 8-bit image of 1 to 4 bands");
        return -1;
    }
    if (width < 1 || height < 1 || width > VIPS_MAX_COORD || height > VIPS_MAX_COORD) {
        vips_error("framedial_resize", "bad output size %d × %d", width, height);
        return -1;
    }
    if (!(window_width > 0 && window_height > 0 && isfinite(left) && isfinite(top) && isfinite(window_width)
            && isfinite(window_height))) {
        vips_error("framedial_resize", "bad window %g, %g, %g × %g", left, top, window_width, window_height);
        return -1;
    }
    if (vips_image_pio_input(in)) return -1;
    ResizeParams *params = g_new0(ResizeParams, 1);
    params->in_width = in->Xsize;
    params->in_height = in->Ysize;
    params->width = width;
    params->height = height;
    params->bands = in->Bands;
    params->x0 = g_new(int, width);
    params->x1 = g_new(int, width);
    params->x_weight = g_new(int16_t, width);
    params->y0 = g_new(int, height);
    params->y1 = g_new(int, height);
    params->y_weight = g_new(int16_t, height);
    resize_axis(in->Xsize, left, window_width, width, H_WEIGHT_ONE, params->x0, params->x1, params->x_weight);
    resize_axis(in->Ysize, top, window_height, height, V_WEIGHT_ONE, params->y0, params->y1, params->y_weight);
    for (int x = 0; x < width; x++) {
        params->x0[x] *= params->bands;
        params->x1[x] *= params->bands;
    }
    prepare_resize_chunks(params);
    VipsImage *image = vips_image_new();
    params->input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", G_CALLBACK(free_resize_params), params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(image);
        return -1;
    }
    image->Xsize = width;
    image->Ysize = height;
    if (vips_image_generate(image, resize_start, generate_resize, resize_stop, in, params)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}
