// The lut8 kernel's parameters and row functions (see colour_kernels.h): per-channel tables on 8-bit
// pixels, for CFrameKernels' fd_kernel_lut8 and colour_rows.c.

#include "colour_kernels.h"
#include "simd_support.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

#if FD_X86_SIMD
// Shuffle masks that split 48 interleaved RGB bytes (three 16-byte vectors A, B, C) into 16 bytes
// per band, and put them back: split[band][source], join[target][band].
typedef struct {
    uint8_t split[3][3][16];
    uint8_t join[3][3][16];
} RgbShuffles;

static RgbShuffles rgb_shuffles;

static void rgb_shuffles_init(void) {
    for (int band = 0; band < 3; band++)
        for (int vec = 0; vec < 3; vec++)
            for (int k = 0; k < 16; k++) {
                const int pos_split = 3 * k + band, pos_join = 16 * vec + k;
                rgb_shuffles.split[band][vec][k] = pos_split / 16 == vec ? (uint8_t)(pos_split % 16) : 0x80;
                rgb_shuffles.join[vec][band][k] = pos_join % 3 == band ? (uint8_t)(pos_join / 3) : 0x80;
            }
}

FD_AVX2 static inline __m256i broadcast16(const uint8_t *p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

// 256-entry byte lookup of 32 bytes by 16-entry shuffles. A shuffle yields zero where its index has
// the top bit set, so adds(v, 0x70 - 16h) (saturating) selects block h for every v below 16(h + 1):
// the blocks, XOR-differenced (see prepare_lut8_blocks), telescope to the entry of v's own block.
// Values of 128 and above go through the same scheme on v ^ 0x80, with blocks 8 … 15.
FD_AVX2 static inline __m256i lut8_lookup32(__m256i v, const uint8_t *blocks) {
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
FD_AVX2 static inline __m256i shuffle3(__m256i a, __m256i b, __m256i c, const uint8_t (*m)[16]) {
    return _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, broadcast16(m[0])),
        _mm256_shuffle_epi8(b, broadcast16(m[1]))), _mm256_shuffle_epi8(c, broadcast16(m[2])));
}

FD_AVX2 static inline __m256i load_two16(const uint8_t *low, const uint8_t *high) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)low)),
        _mm_loadu_si128((const __m128i *)high), 1);
}

// AVX2 lut8 of one RGB row of `count` bytes: 96 bytes (32 pixels) a step, split into band vectors,
// looked up, and joined again.
FD_AVX2 static void lut8_row3_avx2(const uint8_t *p, uint8_t *q, size_t count,
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
FD_AVX2 static void lut8_row1_avx2(const uint8_t *p, uint8_t *q, size_t count,
    const KernelParams *params) {
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
        _mm256_storeu_si256((__m256i *)(q + i), lut8_lookup32(v, params->lut8_blocks));
    }
    lut8_scalar(p + i, q + i, count - i, 1, 1, (const uint8_t *)params->tables);
}
#endif

#if FD_X86_SIMD
// AVX-512 VBMI lut8: a 256-entry table is four 64-byte registers; two two-register byte permutes look up
// the low and high halves and the top bit of each index picks between them: three instructions for 64
// bytes. An RGB row is read 192 bytes (64 pixels) at a time as three registers; in register k byte i
// belongs to band (64k + i) mod 3, so each register is looked up in all three tables and the results are
// merged by position.

typedef struct {
    __m512i t0, t1, t2, t3;
} Table512;

FD_AVX512 static inline Table512 load_table512(const uint8_t *table) {
    Table512 t = { _mm512_loadu_si512(table), _mm512_loadu_si512(table + 64),
        _mm512_loadu_si512(table + 128), _mm512_loadu_si512(table + 192) };
    return t;
}

FD_AVX512 static inline __m512i lookup512(__m512i index, const Table512 *t) {
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

FD_AVX512 static void lut8_row3_vbmi(const uint8_t *p, uint8_t *q, size_t count, const uint8_t *tables) {
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

FD_AVX512 static void lut8_row1_vbmi(const uint8_t *p, uint8_t *q, size_t count, const uint8_t *table) {
    const Table512 t = load_table512(table);
    size_t i = 0;
    for (; i + 64 <= count; i += 64)
        _mm512_storeu_si512(q + i, lookup512(_mm512_loadu_si512(p + i), &t));
    lut8_scalar(p + i, q + i, count - i, 1, 1, table);
}
#endif

int fd_lut8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels) {
#if FD_X86_SIMD
    if (params->lut8_blocks && params->colour_bands == 3 && fd_simd_path() == FD_SIMD_AVX512) {
        const uint8_t *tables = (const uint8_t *)params->tables;
        for (int c = 0; c < 3; c++) lut8_row1_vbmi(in[c], out[c], (size_t)pixels, tables + 256 * c);
        return pixels;
    }
#endif
    (void)params, (void)in, (void)out, (void)pixels;
    return 0;
}

void fd_lut8_row(const KernelParams *params, const uint8_t *p, uint8_t *q, int pixels, int bands) {
    const size_t count = (size_t)pixels * bands;
    // The SIMD paths serve RGB and grey, which carry no copied bands.
    const int simd = params->lut8_blocks && bands == params->colour_bands && bands != 2;
#if FD_X86_SIMD
    const FDSIMDPath path = simd ? fd_simd_path() : FD_SIMD_SCALAR;
    if (path == FD_SIMD_AVX512) {
        if (bands == 3)
            lut8_row3_vbmi(p, q, count, (const uint8_t *)params->tables);
        else
            lut8_row1_vbmi(p, q, count, (const uint8_t *)params->tables);
        return;
    }
    if (path == FD_SIMD_AVX2) {
        if (bands == 3)
            lut8_row3_avx2(p, q, count, params);
        else
            lut8_row1_avx2(p, q, count, params);
        return;
    }
#endif
    (void)simd;
    lut8_scalar(p, q, count, bands, params->colour_bands, (const uint8_t *)params->tables);
}

// Lays the tables out as 16-entry blocks for the SIMD lookups, when the path in force has them: block h is
// entries 16h … 16h + 15 XOR those of block h + 1, except blocks 7 and 15, which are plain.
static void prepare_lut8_blocks(KernelParams *params) {
#if FD_X86_SIMD
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (fd_simd_path() == FD_SIMD_SCALAR) return;
    pthread_once(&once, rgb_shuffles_init);
    const uint8_t *t = (const uint8_t *)params->tables;
    // Without memory for the blocks the scalar path runs, with the same codes.
    params->lut8_blocks = malloc((size_t)params->colour_bands * 512);
    if (!params->lut8_blocks) return;
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

KernelParams *fd_lut8_params(const uint8_t *tables, int colour_bands) {
    KernelParams *params = calloc(1, sizeof *params);
    if (!params) return NULL;
    params->colour_bands = colour_bands;
    params->tables = malloc((size_t)colour_bands * 256);
    if (!params->tables) {
        fd_kernel_params_free(params);
        return NULL;
    }
    memcpy(params->tables, tables, (size_t)colour_bands * 256);
    prepare_lut8_blocks(params);
    return params;
}
