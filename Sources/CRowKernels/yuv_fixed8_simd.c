// The AVX2 (16-bit lanes, 16 a register) and AVX-512 BW + VBMI (32 a register) builds of the 8-bit
// fixed-point YUV steps: the integer arithmetic of yuv_fixed8.c's scalar reference lane by lane, so
// they give its codes. Packed rgb24 is split into and joined from byte vectors per channel by byte
// shuffles (AVX2, 16 pixels a step) or two-table byte permutes (AVX-512, 64 pixels a step); rows of
// planes (the one-pass transform's) are read and written as they are.
#include "yuv_plan.h"

#if FD_X86_SIMD

// ---------------------------------------------------------------------------------------------
// AVX2

// 2× widening of chroma samples, 16 a step: taps (0, 3, 1) summed, then the largest tap added with
// saturation (the sum can pass 32767 only there), centred.
FD_AVX2 static int widen_avx2(const Fixed8 *k, const int16_t *padded, int16_t *d, int count) {
    const __m256i e0 = _mm256_set1_epi16(k->even[0]), e1 = _mm256_set1_epi16(k->even[1]),
                  e2 = _mm256_set1_epi16(k->even[2]), e3 = _mm256_set1_epi16(k->even[3]),
                  o0 = _mm256_set1_epi16(k->odd[0]), o1 = _mm256_set1_epi16(k->odd[1]),
                  o2 = _mm256_set1_epi16(k->odd[2]), o3 = _mm256_set1_epi16(k->odd[3]),
                  centre = _mm256_set1_epi16(16384);
    int j = 0;
    for (; j + 16 <= count; j += 16) {
        __m256i c[5];
        for (int t = 0; t < 5; t++)
            c[t] = _mm256_loadu_si256((const __m256i *)(padded + j + t));
        __m256i e = _mm256_add_epi16(_mm256_mulhrs_epi16(c[0], e0), _mm256_mulhrs_epi16(c[3], e3));
        e = _mm256_add_epi16(e, _mm256_mulhrs_epi16(c[1], e1));
        e = _mm256_sub_epi16(_mm256_adds_epi16(e, _mm256_mulhrs_epi16(c[2], e2)), centre);
        __m256i o = _mm256_add_epi16(_mm256_mulhrs_epi16(c[1], o0), _mm256_mulhrs_epi16(c[4], o3));
        o = _mm256_add_epi16(o, _mm256_mulhrs_epi16(c[3], o2));
        o = _mm256_sub_epi16(_mm256_adds_epi16(o, _mm256_mulhrs_epi16(c[2], o1)), centre);
        const __m256i low = _mm256_unpacklo_epi16(e, o), high = _mm256_unpackhi_epi16(e, o);
        _mm256_storeu_si256((__m256i *)(d + 2 * j), _mm256_permute2x128_si256(low, high, 0x20));
        _mm256_storeu_si256((__m256i *)(d + 2 * j + 16), _mm256_permute2x128_si256(low, high, 0x31));
    }
    return j;
}

// Channel c of 16 rgb24 pixels `a` as 16 bytes.
FD_AVX2 static inline __m128i split16(const Fixed8 *k, const __m128i a[3], int c) {
    __m128i x = _mm_shuffle_epi8(a[0], _mm_loadu_si128((const __m128i *)k->split16[0][c]));
    x = _mm_or_si128(x, _mm_shuffle_epi8(a[1], _mm_loadu_si128((const __m128i *)k->split16[1][c])));
    return _mm_or_si128(x, _mm_shuffle_epi8(a[2], _mm_loadu_si128((const __m128i *)k->split16[2][c])));
}

// 16 pixels of bytes per channel as rgb24 at d.
FD_AVX2 static inline void join16(const Fixed8 *k, const __m128i channel[3], uint8_t *d) {
    for (int v = 0; v < 3; v++) {
        __m128i out = _mm_setzero_si128();
        for (int c = 0; c < 3; c++)
            out = _mm_or_si128(out,
                _mm_shuffle_epi8(channel[c], _mm_loadu_si128((const __m128i *)k->join16[v][c])));
        _mm_storeu_si128((__m128i *)(d + 16 * v), out);
    }
}

// R, G, B of a register of pixels as 16-bit codes (r, g, b), from luma × 256 (`luma`), the widened
// chroma rows su, sv at x and the Q15 row taps w.
#define TO_RGB_WORDS(P, R, V)                                                                      \
    do {                                                                                          \
        R cu = P##_mulhrs_epi16(P##_loadu_##V((const R *)(su[0] + x)), w[0]);                     \
        R cv = P##_mulhrs_epi16(P##_loadu_##V((const R *)(sv[0] + x)), w[0]);                     \
        for (int t = 1; t < 4; t++) {                                                             \
            cu = P##_add_epi16(cu, P##_mulhrs_epi16(P##_loadu_##V((const R *)(su[t] + x)), w[t])); \
            cv = P##_add_epi16(cv, P##_mulhrs_epi16(P##_loadu_##V((const R *)(sv[t] + x)), w[t])); \
        }                                                                                         \
        const R l = P##_add_epi16(P##_mulhi_epu16(luma, ky), l_base);                            \
        r = P##_srai_epi16(P##_adds_epi16(l, P##_mulhrs_epi16(cv, krv)), 6);                      \
        g = P##_srai_epi16(                                                                       \
            P##_subs_epi16(l,                                                                     \
                P##_add_epi16(P##_mulhrs_epi16(cu, kgu), P##_mulhrs_epi16(cv, kgv))),             \
            6);                                                                                   \
        b = P##_srai_epi16(                                                                       \
            P##_adds_epi16(l, P##_add_epi16(cu, P##_mulhrs_epi16(cu, kbu))), 6);                  \
    } while (0)

FD_AVX2 static int to_rgb_avx2(const Fixed8 *k, const uint8_t *y, const int16_t *const *su,
    const int16_t *const *sv, const int16_t *weight, const RGBRow *d, int n) {
    const __m256i w[4] = {_mm256_set1_epi16(weight[0]), _mm256_set1_epi16(weight[1]),
        _mm256_set1_epi16(weight[2]), _mm256_set1_epi16(weight[3])};
    const __m256i ky = _mm256_set1_epi16((short)k->ky), l_base = _mm256_set1_epi16(k->l_base),
                  krv = _mm256_set1_epi16(k->krv), kgu = _mm256_set1_epi16(k->kgu),
                  kgv = _mm256_set1_epi16(k->kgv), kbu = _mm256_set1_epi16(k->kbu);
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i rs[2], gs[2], bs[2];
        for (int h = 0; h < 2; h++) {
            const int x = i + 16 * h;
            const __m256i luma =
                _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(y + x))), 8);
            __m256i r, g, b;
            TO_RGB_WORDS(_mm256, __m256i, si256);
            rs[h] = r;
            gs[h] = g;
            bs[h] = b;
        }
        // packus interleaves the halves 8 pixels at a time; the 64-bit permute restores the order.
        const __m256i r = _mm256_permute4x64_epi64(_mm256_packus_epi16(rs[0], rs[1]), 0xD8),
                      g = _mm256_permute4x64_epi64(_mm256_packus_epi16(gs[0], gs[1]), 0xD8),
                      b = _mm256_permute4x64_epi64(_mm256_packus_epi16(bs[0], bs[1]), 0xD8);
        if (d->step == 1) {
            _mm256_storeu_si256((__m256i *)(d->channel[0] + i), r);
            _mm256_storeu_si256((__m256i *)(d->channel[1] + i), g);
            _mm256_storeu_si256((__m256i *)(d->channel[2] + i), b);
            continue;
        }
        for (int h = 0; h < 2; h++) {
            const __m128i channel[3] = {h ? _mm256_extracti128_si256(r, 1) : _mm256_castsi256_si128(r),
                h ? _mm256_extracti128_si256(g, 1) : _mm256_castsi256_si128(g),
                h ? _mm256_extracti128_si256(b, 1) : _mm256_castsi256_si128(b)};
            join16(k, channel, d->channel[0] + 3 * (i + 16 * h));
        }
    }
    return i;
}

FD_AVX2 static int from_rgb_avx2(const Fixed8 *k, const RGBRow *rgb, uint8_t *y, int16_t *u,
    int16_t *v, int n) {
    const __m256i kry = _mm256_set1_epi16((short)k->kry), kgy = _mm256_set1_epi16((short)k->kgy),
                  kby = _mm256_set1_epi16((short)k->kby), base = _mm256_set1_epi16((short)k->y_base),
                  kru = _mm256_set1_epi16(k->kru), kgu = _mm256_set1_epi16(k->kgu2),
                  kbu = _mm256_set1_epi16(k->kbu2), krv = _mm256_set1_epi16(k->krv2),
                  kgv = _mm256_set1_epi16(k->kgv2), kbv = _mm256_set1_epi16(k->kbv2),
                  sixty_four = _mm256_set1_epi8(64), zero = _mm256_setzero_si256();
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i x[3];
        if (rgb->step == 1) {
            for (int c = 0; c < 3; c++)
                x[c] = _mm256_loadu_si256((const __m256i *)(rgb->channel[c] + i));
        } else {
            __m128i halves[3][2];
            for (int h = 0; h < 2; h++) {
                const uint8_t *s = rgb->channel[0] + 3 * (i + 16 * h);
                const __m128i a[3] = {_mm_loadu_si128((const __m128i *)s),
                    _mm_loadu_si128((const __m128i *)(s + 16)),
                    _mm_loadu_si128((const __m128i *)(s + 32))};
                for (int c = 0; c < 3; c++) halves[c][h] = split16(k, a, c);
            }
            for (int c = 0; c < 3; c++) x[c] = _mm256_set_m128i(halves[c][1], halves[c][0]);
        }
        if (y) {
            // Channels × 256 in 16 bits; the unpacks and packus reorder alike.
            __m256i luma[2];
            for (int h = 0; h < 2; h++) {
                __m256i s = base;
                const __m256i k3[3] = {kry, kgy, kby};
                for (int c = 0; c < 3; c++) {
                    const __m256i words =
                        h ? _mm256_unpackhi_epi8(zero, x[c]) : _mm256_unpacklo_epi8(zero, x[c]);
                    s = _mm256_add_epi16(s, _mm256_mulhi_epu16(words, k3[c]));
                }
                luma[h] = _mm256_srli_epi16(s, 8);
            }
            _mm256_storeu_si256((__m256i *)(y + i), _mm256_packus_epi16(luma[0], luma[1]));
        }
        const __m256i rs = _mm256_maddubs_epi16(x[0], sixty_four),
                      gs = _mm256_maddubs_epi16(x[1], sixty_four),
                      bs = _mm256_maddubs_epi16(x[2], sixty_four);
        const __m256i cu = _mm256_add_epi16(
            _mm256_add_epi16(_mm256_mulhrs_epi16(rs, kru), _mm256_mulhrs_epi16(gs, kgu)),
            _mm256_mulhrs_epi16(bs, kbu));
        const __m256i cv = _mm256_add_epi16(
            _mm256_add_epi16(_mm256_mulhrs_epi16(rs, krv), _mm256_mulhrs_epi16(gs, kgv)),
            _mm256_mulhrs_epi16(bs, kbv));
        _mm256_storeu_si256((__m256i *)(u + i / 2), cu);
        _mm256_storeu_si256((__m256i *)(v + i / 2), cv);
    }
    return i;
}

// ((sum + 64) >> 7) + 128 of 16-bit sums.
#define CHROMA_CODES(P, s) \
    P##_add_epi16(P##_srai_epi16(P##_add_epi16(s, P##_set1_epi16(64)), 7), P##_set1_epi16(128))

// Row k of a chroma reduction at column i, added to its partner row when the taps pair up.
#define REDUCE_TERM(P, R, V, k, i)                                                                  \
    (paired ? P##_add_epi16(P##_loadu_##V((const R *)(rows[k] + (i))),                             \
                  P##_loadu_##V((const R *)(rows[count - 1 - (k)] + (i))))                         \
            : P##_loadu_##V((const R *)(rows[k] + (i))))

FD_AVX2 static int reduce_avx2(const int16_t *const *rows, const int16_t *weight, int count,
    uint8_t *d, int n) {
    const int paired = paired_taps(weight, count), terms = paired ? count / 2 : count;
    __m256i w[TAPS_DOWN_MAX];
    for (int k = 0; k < terms; k++) w[k] = _mm256_set1_epi16(weight[k]);
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
        for (int k = 0; k < terms; k++) {
            a = _mm256_add_epi16(
                a, _mm256_mulhrs_epi16(REDUCE_TERM(_mm256, __m256i, si256, k, i), w[k]));
            b = _mm256_add_epi16(
                b, _mm256_mulhrs_epi16(REDUCE_TERM(_mm256, __m256i, si256, k, i + 16), w[k]));
        }
        const __m256i codes = _mm256_packus_epi16(CHROMA_CODES(_mm256, a), CHROMA_CODES(_mm256, b));
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_permute4x64_epi64(codes, 0xD8));
    }
    return i;
}

const Kernels8 fd_yuv8_avx2 = {widen_avx2, to_rgb_avx2, from_rgb_avx2, reduce_avx2};

// ---------------------------------------------------------------------------------------------
// AVX-512 BW + VBMI

FD_AVX512 static int widen_avx512(const Fixed8 *k, const int16_t *padded, int16_t *d, int count) {
    const __m512i e0 = _mm512_set1_epi16(k->even[0]), e1 = _mm512_set1_epi16(k->even[1]),
                  e2 = _mm512_set1_epi16(k->even[2]), e3 = _mm512_set1_epi16(k->even[3]),
                  o0 = _mm512_set1_epi16(k->odd[0]), o1 = _mm512_set1_epi16(k->odd[1]),
                  o2 = _mm512_set1_epi16(k->odd[2]), o3 = _mm512_set1_epi16(k->odd[3]),
                  centre = _mm512_set1_epi16(16384),
                  first = _mm512_loadu_si512(k->interleave[0]),
                  second = _mm512_loadu_si512(k->interleave[1]);
    int j = 0;
    for (; j + 32 <= count; j += 32) {
        __m512i c[5];
        for (int t = 0; t < 5; t++)
            c[t] = _mm512_loadu_si512(padded + j + t);
        __m512i e = _mm512_add_epi16(_mm512_mulhrs_epi16(c[0], e0), _mm512_mulhrs_epi16(c[3], e3));
        e = _mm512_add_epi16(e, _mm512_mulhrs_epi16(c[1], e1));
        e = _mm512_sub_epi16(_mm512_adds_epi16(e, _mm512_mulhrs_epi16(c[2], e2)), centre);
        __m512i o = _mm512_add_epi16(_mm512_mulhrs_epi16(c[1], o0), _mm512_mulhrs_epi16(c[4], o3));
        o = _mm512_add_epi16(o, _mm512_mulhrs_epi16(c[3], o2));
        o = _mm512_sub_epi16(_mm512_adds_epi16(o, _mm512_mulhrs_epi16(c[2], o1)), centre);
        _mm512_storeu_si512(d + 2 * j, _mm512_permutex2var_epi16(e, first, o));
        _mm512_storeu_si512(d + 2 * j + 32, _mm512_permutex2var_epi16(e, second, o));
    }
    return j;
}

FD_AVX512 static int to_rgb_avx512(const Fixed8 *k, const uint8_t *y, const int16_t *const *su,
    const int16_t *const *sv, const int16_t *weight, const RGBRow *d, int n) {
    const __m512i w[4] = {_mm512_set1_epi16(weight[0]), _mm512_set1_epi16(weight[1]),
        _mm512_set1_epi16(weight[2]), _mm512_set1_epi16(weight[3])};
    const __m512i ky = _mm512_set1_epi16((short)k->ky), l_base = _mm512_set1_epi16(k->l_base),
                  krv = _mm512_set1_epi16(k->krv), kgu = _mm512_set1_epi16(k->kgu),
                  kgv = _mm512_set1_epi16(k->kgv), kbu = _mm512_set1_epi16(k->kbu),
                  high_bytes = _mm512_loadu_si512(k->high_bytes);
    const __m512i join[3] = {_mm512_loadu_si512(k->join[0]), _mm512_loadu_si512(k->join[1]),
        _mm512_loadu_si512(k->join[2])};
    const __mmask64 join_mask[3] = {k->join_mask[0], k->join_mask[1], k->join_mask[2]};
    int i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i rs[2], gs[2], bs[2];
        const __m512i bytes = _mm512_loadu_si512(y + i);
        for (int h = 0; h < 2; h++) {
            const int x = i + 32 * h;
            const __m512i luma = _mm512_maskz_permutexvar_epi8(0xAAAAAAAAAAAAAAAAull,
                h ? _mm512_add_epi8(high_bytes, _mm512_set1_epi8(32)) : high_bytes, bytes);
            __m512i r, g, b;
            TO_RGB_WORDS(_mm512, __m512i, si512);
            rs[h] = r;
            gs[h] = g;
            bs[h] = b;
        }
        // Pixels in packus order: per 16-byte lane L, pixels 8L … 8L + 7 then 32 + 8L … 32 + 8L + 7.
        const __m512i r = _mm512_packus_epi16(rs[0], rs[1]), g = _mm512_packus_epi16(gs[0], gs[1]),
                      b = _mm512_packus_epi16(bs[0], bs[1]);
        if (d->step == 1) {
            const __m512i order = _mm512_loadu_si512(k->unpack_order);
            _mm512_storeu_si512(d->channel[0] + i, _mm512_permutexvar_epi8(order, r));
            _mm512_storeu_si512(d->channel[1] + i, _mm512_permutexvar_epi8(order, g));
            _mm512_storeu_si512(d->channel[2] + i, _mm512_permutexvar_epi8(order, b));
            continue;
        }
        for (int v = 0; v < 3; v++)
            _mm512_storeu_si512(d->channel[0] + 3 * i + 64 * v,
                _mm512_mask_permutexvar_epi8(
                    _mm512_permutex2var_epi8(r, join[v], g), join_mask[v], join[v], b));
    }
    return i;
}

FD_AVX512 static int from_rgb_avx512(const Fixed8 *k, const RGBRow *rgb, uint8_t *y, int16_t *u,
    int16_t *v, int n) {
    const __m512i kry = _mm512_set1_epi16((short)k->kry), kgy = _mm512_set1_epi16((short)k->kgy),
                  kby = _mm512_set1_epi16((short)k->kby), base = _mm512_set1_epi16((short)k->y_base),
                  kru = _mm512_set1_epi16(k->kru), kgu = _mm512_set1_epi16(k->kgu2),
                  kbu = _mm512_set1_epi16(k->kbu2), krv = _mm512_set1_epi16(k->krv2),
                  kgv = _mm512_set1_epi16(k->kgv2), kbv = _mm512_set1_epi16(k->kbv2),
                  sixty_four = _mm512_set1_epi8(64), zero = _mm512_setzero_si512(),
                  high_bytes = _mm512_loadu_si512(k->unpacked_high_bytes);
    const __m512i split[3] = {_mm512_loadu_si512(k->split[0]), _mm512_loadu_si512(k->split[1]),
        _mm512_loadu_si512(k->split[2])};
    const __mmask64 split_mask[3] = {k->split_mask[0], k->split_mask[1], k->split_mask[2]};
    int i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i x[3];
        if (rgb->step == 1) {
            for (int ch = 0; ch < 3; ch++) x[ch] = _mm512_loadu_si512(rgb->channel[ch] + i);
        } else {
            const uint8_t *s = rgb->channel[0] + 3 * i;
            const __m512i a = _mm512_loadu_si512(s), b = _mm512_loadu_si512(s + 64),
                          c = _mm512_loadu_si512(s + 128);
            for (int ch = 0; ch < 3; ch++)
                x[ch] = _mm512_mask_permutexvar_epi8(
                    _mm512_permutex2var_epi8(a, split[ch], b), split_mask[ch], split[ch], c);
        }
        if (y) {
            __m512i luma[2];
            const __m512i k3[3] = {kry, kgy, kby};
            for (int h = 0; h < 2; h++) {
                __m512i sum = base;
                for (int ch = 0; ch < 3; ch++) {
                    const __m512i words =
                        h ? _mm512_unpackhi_epi8(zero, x[ch]) : _mm512_unpacklo_epi8(zero, x[ch]);
                    sum = _mm512_add_epi16(sum, _mm512_mulhi_epu16(words, k3[ch]));
                }
                luma[h] = sum;
            }
            _mm512_storeu_si512(y + i, _mm512_permutex2var_epi8(luma[0], high_bytes, luma[1]));
        }
        const __m512i rs = _mm512_maddubs_epi16(x[0], sixty_four),
                      gs = _mm512_maddubs_epi16(x[1], sixty_four),
                      bs = _mm512_maddubs_epi16(x[2], sixty_four);
        const __m512i cu = _mm512_add_epi16(
            _mm512_add_epi16(_mm512_mulhrs_epi16(rs, kru), _mm512_mulhrs_epi16(gs, kgu)),
            _mm512_mulhrs_epi16(bs, kbu));
        const __m512i cv = _mm512_add_epi16(
            _mm512_add_epi16(_mm512_mulhrs_epi16(rs, krv), _mm512_mulhrs_epi16(gs, kgv)),
            _mm512_mulhrs_epi16(bs, kbv));
        _mm512_storeu_si512(u + i / 2, cu);
        _mm512_storeu_si512(v + i / 2, cv);
    }
    return i;
}

FD_AVX512 static int reduce_avx512(const int16_t *const *rows, const int16_t *weight, int count,
    uint8_t *d, int n) {
    const int paired = paired_taps(weight, count), terms = paired ? count / 2 : count;
    __m512i w[TAPS_DOWN_MAX];
    for (int k = 0; k < terms; k++) w[k] = _mm512_set1_epi16(weight[k]);
    int i = 0;
    if (paired && count == 8) {
        // 2:1: four pairs of rows, unrolled.
        const int16_t *r[8];
        for (int k = 0; k < 8; k++) r[k] = rows[k];
        for (; i + 32 <= n; i += 32) {
            __m512i a = _mm512_setzero_si512();
            for (int k = 0; k < 4; k++) {
                const __m512i pair =
                    _mm512_add_epi16(_mm512_loadu_si512(r[k] + i), _mm512_loadu_si512(r[7 - k] + i));
                a = _mm512_add_epi16(a, _mm512_mulhrs_epi16(pair, w[k]));
            }
            const __m512i codes = _mm512_max_epi16(CHROMA_CODES(_mm512, a), _mm512_setzero_si512());
            _mm256_storeu_si256((__m256i *)(d + i), _mm512_cvtusepi16_epi8(codes));
        }
        return i;
    }
    for (; i + 32 <= n; i += 32) {
        __m512i a = _mm512_setzero_si512();
        for (int k = 0; k < terms; k++)
            a = _mm512_add_epi16(
                a, _mm512_mulhrs_epi16(REDUCE_TERM(_mm512, __m512i, si512, k, i), w[k]));
        const __m512i codes = _mm512_max_epi16(CHROMA_CODES(_mm512, a), _mm512_setzero_si512());
        _mm256_storeu_si256((__m256i *)(d + i), _mm512_cvtusepi16_epi8(codes));
    }
    return i;
}

const Kernels8 fd_yuv8_avx512 = {widen_avx512, to_rgb_avx512, from_rgb_avx512, reduce_avx512};

#endif
