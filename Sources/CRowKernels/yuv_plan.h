// What the YUV 4:2:0 conversions share (internal to the target): the plan of one frame size, depth,
// matrix and range, and the 8-bit fixed-point conversions (yuv_fixed8.c) that
// yuv_convert.c's entry points call for 8-bit plans.
#ifndef FRAMEDIAL_YUV_PLAN_H
#define FRAMEDIAL_YUV_PLAN_H

#include "YUVConvert.h"
#include "simd_support.h"

// Taps of one output sample: `count` source indices (clamped to the source) and their weights, as
// floats (10-bit paths) and as Q15 fixed point (8-bit paths; 32767 stands for a weight of 1).
enum { TAPS_UP = 4, TAPS_DOWN_MAX = 16 };

typedef struct {
    int first;  // index of the first tap before clamping
    int count;
    float weight[TAPS_DOWN_MAX];
    int16_t fixed[TAPS_DOWN_MAX];
} Taps;

// The constants of the 8-bit fixed-point conversions (see yuv_fixed8.c for the arithmetic).
typedef struct {
    // YUV → RGB. 2× chroma enlargement: Q15 taps of even and odd columns.
    int16_t even[4], odd[4];
    // Luma: Q14 yk (unsigned) and the constant (offset, rounding) in 1/64 codes; Q14 coefficients
    // rv, gu, gv, and bu − 2.
    uint16_t ky;
    int16_t l_base, krv, kgu, kgv, kbu;
    // RGB → YUV. Luma: Q16 coefficients and the constant (offset, rounding) in 1/256 codes.
    uint16_t kry, kgy, kby, y_base;
    // Chroma of a pixel pair: Q15 coefficients of the pair's sums × 64.
    int16_t kru, kgu2, kbu2, krv2, kgv2, kbv2;
    // AVX-512 VBMI byte permutes between 64 rgb24 pixels (three 64-byte vectors) and 64 bytes per
    // channel: join[k] gathers output vector k from the R and G vectors (two-table permute), then
    // from B where join_mask[k] is set; split[c] gathers channel c from input vectors 0 and 1, then
    // from vector 2 where split_mask[c] is set. The R, G, B vectors joined hold pixels in the order
    // _mm512_packus_epi16 leaves them (see to_rgb_avx512).
    uint8_t join[3][64], split[3][64];
    uint64_t join_mask[3], split_mask[3];
    // AVX-512: the byte permute from _mm512_packus_epi16's order back to pixel order (planar rows).
    uint8_t unpack_order[64];
    // AVX-512: 16-bit indices interleaving even and odd columns (first and second 32 outputs); byte
    // indices placing 32 bytes in the high bytes of 32 words, and taking the high bytes of the words
    // _mm512_unpacklo_epi8 and _mm512_unpackhi_epi8 made of 64 bytes back in their order.
    uint16_t interleave[2][32];
    uint8_t high_bytes[64], unpacked_high_bytes[64];
    // Columns whose own taps (up_columns) differ from the 2× taps at even widths (see make_taps):
    // widened by their own after the rest.
    int own_taps[8], own_tap_count;
    // 16-byte shuffles (AVX2) between 16 rgb24 pixels (three 16-byte vectors) and 16 bytes per channel:
    // join16[k][c] places channel c into vector k, split16[k][c] takes channel c from vector k.
    uint8_t join16[3][3][16], split16[3][3][16];
} Fixed8;

struct FDYUVPlan {
    int width, height, chroma_width, chroma_height, depth;
    // YUV → RGB: R = yk (Y − yo) + rv (V − co); G = yk (Y − yo) − gu (U − co) − gv (V − co);
    // B = yk (Y − yo) + bu (U − co), in RGB codes (0 … rgb_max). (Floats for the 10-bit paths, the
    // source of the 8-bit paths' fixed-point constants.)
    float yo, co, yk, rv, gu, gv, bu, rgb_max, code_max;
    // swscale keeps widened chroma in 19-bit integers at 10 bits, which clips overshoot above the top
    // code; this is that ceiling in codes.
    float chroma_ceiling;
    // RGB → YUV: Y = yo + ry R + gy G + by B; U = co + ru R + gu2 G + bu2 B; V likewise.
    float ry, gy, by, ru, gu2, bu2, rv2, gv2, bv2;
    Taps *up_rows;      // per output row: 4 chroma rows
    Taps *up_columns;   // per output column: 4 chroma columns (edges, odd widths)
    Taps *down_rows;    // per chroma row: the luma rows it reduces
    float even_weights[4], odd_weights[4];  // 2× enlargement: columns 2j and 2j + 1
    Fixed8 fixed;                            // 8-bit plans
};

static inline int clamp_index(int i, int size) { return i < 0 ? 0 : i >= size ? size - 1 : i; }

// The source rows a range of chroma rows reads (clamped to the frame) and the luma rows it writes.
typedef struct {
    int first, last;            // source rows
    int luma_start, luma_end;   // luma rows written: [luma_start, luma_end)
} FDYUVNarrowRange;

// The rows of chroma rows [chroma_start, chroma_end) (chroma_start < chroma_end).
FDYUVNarrowRange fd_yuv_narrow_range(const FDYUVPlan *plan, int chroma_start, int chroma_end);

// Slots for the 4 chroma rows output row `row` blends, in a cache of 4 slots whose chroma rows are
// `cached` (−1: empty): slots[t] holds tap t's row, cached[slots[t]] is that row, and fresh[t] is
// non-zero when the slot was just given to it (the caller fills it). Slots no tap needs are reused.
void fd_yuv_chroma_slots(const FDYUVPlan *plan, int row, int cached[4], int slots[4], int fresh[4]);

// Fills plan->fixed, but for its 2× taps (which fd_yuv_plan_create sets), from the plan's
// coefficients (8-bit plans).
void fd_yuv8_prepare(FDYUVPlan *plan);

// Whether `count` Q15 taps pair up, weight k equal to weight count − 1 − k (every 2:1 reduction):
// then the 8-bit chroma reduction adds rows k and count − 1 − k (16 bits hold the sum of two rows of
// pair chroma) before their common weight multiplies them.
static inline int paired_taps(const int16_t *weight, int count) {
    if (count % 2) return 0;
    for (int k = 0; k < count / 2; k++)
        if (weight[k] != weight[count - 1 - k]) return 0;
    return 1;
}

// Where a row's RGB pixels are: channel c of pixel x at channel[c][x * step]; packed rgb24 has
// channel[c] = base + c and step 3, a row of three planes step 1.
typedef struct {
    uint8_t *channel[3];
    int step;
} RGBRow;

// A packed rgb24 row at `base`.
static inline RGBRow rgb_row_packed(uint8_t *base) {
    RGBRow row = {{base, base + 1, base + 2}, 3};
    return row;
}

// SIMD builds of the 8-bit fixed-point steps (yuv_fixed8_simd.c). Each converts the longest prefix of
// its row it can in whole blocks, exactly as the scalar reference in yuv_fixed8.c, and returns its
// length; the scalar reference converts the rest.
typedef struct {
    // Chroma samples [0, return) of a 2× widening (see widen2x_scalar) of `count` samples.
    int (*widen)(const Fixed8 *k, const int16_t *padded, int16_t *d, int count);
    // Pixels [0, return) of n of an output row (see to_rgb8_scalar).
    int (*to_rgb)(const Fixed8 *k, const uint8_t *y, const int16_t *const *su,
        const int16_t *const *sv, const int16_t *weight, const RGBRow *d, int n);
    // Pixels [0, return) of n of a source row, an even number (see from_rgb8_scalar).
    int (*from_rgb)(const Fixed8 *k, const RGBRow *rgb, uint8_t *y, int16_t *u, int16_t *v, int n);
    // Columns [0, return) of n of a chroma row (see reduce_scalar).
    int (*reduce)(const int16_t *const *rows, const int16_t *weight, int count, uint8_t *d, int n);
} Kernels8;

#if FD_X86_SIMD
extern const Kernels8 fd_yuv8_avx2;    // call only when fd_simd_path() is FD_SIMD_AVX2 or faster
extern const Kernels8 fd_yuv8_avx512;  // call only when fd_simd_path() is FD_SIMD_AVX512
#endif

// The 8-bit conversions behind fd_yuv420_to_rgb and fd_rgb_to_yuv420 (same arguments).
void fd_yuv8_to_rgb(const FDYUVPlan *plan, const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u,
    ptrdiff_t u_stride, const uint8_t *v, ptrdiff_t v_stride, uint8_t *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end);
void fd_yuv8_from_rgb(const FDYUVPlan *plan, const uint8_t *rgb, ptrdiff_t rgb_stride, uint8_t *y,
    ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride,
    int chroma_start, int chroma_end);

// The 8-bit RGB → YUV conversion fed one packed rgb24 source row at a time, in order from
// fd_yuv_narrow_range(plan, chroma_start, chroma_end).first to .last (fd_yuv420_transform16's 8-bit
// output): each row's luma, and every chroma row it completes, as fd_yuv8_from_rgb writes them. NULL
// for a plan not of 8 bits, an empty range or no memory.
typedef struct FDYUV8Narrowing FDYUV8Narrowing;
FDYUV8Narrowing *fd_yuv8_narrowing_create(const FDYUVPlan *plan, int chroma_start, int chroma_end);
void fd_yuv8_narrowing_row(FDYUV8Narrowing *narrowing, int row, const uint8_t *rgb, uint8_t *y,
    ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride);
void fd_yuv8_narrowing_free(FDYUV8Narrowing *narrowing);

#endif
