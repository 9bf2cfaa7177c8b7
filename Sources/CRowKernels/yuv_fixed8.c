// The 8-bit conversions in fixed point, 16-bit intermediates throughout as swscale keeps them: the
// portable scalar reference of every step, and the row drivers that run the AVX2 and AVX-512 builds
// (yuv_fixed8_simd.c) over whole blocks and the reference over the rest. The SIMD steps do the
// reference's integer arithmetic lane by lane (mulhrs: (a b + 2^14) >> 15; mulhi: (a b) >> 16
// unsigned; sums whose intermediates stay within 16 bits), so every path gives the same codes.
//
// YUV → RGB. A chroma row is widened 2× by 4 Q15 taps of its samples × 128; the sum saturates at
// 32767 (swscale's 15-bit ceiling) and is stored centred (− 128 × 128). An output row blends 4
// widened rows by its Q15 row taps: C_u, C_v, chroma × 128, centred (within ±24 200). Luma
// L = (Y × 256 × yk) >> 16 − yo yk × 64 + 32 with Q14 yk, in 1/64 codes; R = L + rv C_v / 2,
// G = L − (gu C_u + gv C_v) / 2, B = L + C_u + (bu − 2) C_u / 2 (Q14 coefficients), each saturated
// to 16 bits, shifted right by 6 and clamped to 0 … 255.
// RGB → YUV. Luma Y = (y_base + Σ (X × 256 × k_X) >> 16) >> 8, Q16 k_X (the sum, in 1/256 codes,
// stays below 2^16). Chroma of a pixel pair: Σ mulhrs((X₀ + X₁) × 64, k) with Q15 k, chroma × 128;
// a chroma row blends the rows of pairs by its Q15 taps (rows of equal taps added first), then
// ((sum + 64) >> 7) + 128, clamped.
#include "yuv_plan.h"

#include <math.h>
#include <stdlib.h>

static inline int mulhrs(int a, int b) { return (a * b + 0x4000) >> 15; }

static inline int mulhi(unsigned a, unsigned b) { return (int)((a * b) >> 16); }

static inline uint8_t byte_code(int x) { return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x); }

// ---------------------------------------------------------------------------------------------
// Constants

static int16_t q_signed(double x) {
    const long q = lround(x);
    return (int16_t)(q > 32767 ? 32767 : q < -32768 ? -32768 : q);
}

static uint16_t q_unsigned(double x) {
    const long q = lround(x);
    return (uint16_t)(q > 65535 ? 65535 : q < 0 ? 0 : q);
}

// Where _mm512_packus_epi16 of pixels 0 … 31 and 32 … 63 (16-bit) puts pixel i's byte.
static int packed_position(int i) {
    return i < 32 ? 16 * (i / 8) + i % 8 : 16 * ((i - 32) / 8) + 8 + i % 8;
}

void fd_yuv8_prepare(FDYUVPlan *p) {
    Fixed8 *k = &p->fixed;
    k->ky = q_unsigned(p->yk * 16384.0);
    k->l_base = (int16_t)(32 - lround(p->yo * k->ky / 256.0));
    k->krv = q_signed(p->rv * 16384.0);
    k->kgu = q_signed(p->gu * 16384.0);
    k->kgv = q_signed(p->gv * 16384.0);
    k->kbu = q_signed((p->bu - 2.0) * 16384.0);
    k->kry = q_unsigned(p->ry * 65536.0);
    k->kgy = q_unsigned(p->gy * 65536.0);
    k->kby = q_unsigned(p->by * 65536.0);
    // The three truncated products lose 1.5 / 256 of a code on average; 1 of it is added back.
    k->y_base = (uint16_t)(p->yo * 256 + 128 + 1);
    k->kru = q_signed(p->ru * 32768.0);
    k->kgu2 = q_signed(p->gu2 * 32768.0);
    k->kbu2 = q_signed(p->bu2 * 32768.0);
    k->krv2 = q_signed(p->rv2 * 32768.0);
    k->kgv2 = q_signed(p->gv2 * 32768.0);
    k->kbv2 = q_signed(p->bv2 * 32768.0);
    for (int v = 0; v < 3; v++) {
        k->join_mask[v] = k->split_mask[v] = 0;
        for (int i = 0; i < 64; i++) {
            // Output byte i of vector v is channel q % 3 of pixel q / 3.
            const int q = 64 * v + i, channel = q % 3;
            k->join[v][i] = (uint8_t)(packed_position(q / 3) + (channel == 1 ? 64 : 0));
            if (channel == 2) k->join_mask[v] |= 1ull << i;
            // Channel v of pixel i is input byte 3i + v.
            const int source = 3 * i + v;
            k->split[v][i] = (uint8_t)(source % 128);
            if (source >= 128) k->split_mask[v] |= 1ull << i;
        }
    }
    // Only the outermost 4 columns each side can have taps of their own.
    k->own_tap_count = 0;
    for (int x = 0; x < p->width && p->width % 2 == 0; x++) {
        if (x == 4 && p->width > 8) x = p->width - 4;
        const Taps *t = &p->up_columns[x];
        const int16_t *standard = x % 2 ? k->odd : k->even;
        int same = t->count == 4 && t->first == x / 2 - 2 + x % 2;
        for (int c = 0; c < 4 && same; c++) same = t->fixed[c] == standard[c];
        if (!same) k->own_taps[k->own_tap_count++] = x;
    }
    for (int i = 0; i < 64; i++) k->unpack_order[i] = (uint8_t)packed_position(i);
    for (int i = 0; i < 32; i++) {
        k->high_bytes[2 * i] = 0;
        k->high_bytes[2 * i + 1] = (uint8_t)i;
    }
    for (int i = 0; i < 64; i++) {
        // Byte i sits in 16-byte lane i / 16: in the low unpack's words if i % 16 < 8, else the high's.
        const int lane = i / 16, at = i % 16;
        k->unpacked_high_bytes[i] = (uint8_t)((at < 8 ? 0 : 64) + 2 * (8 * lane + at % 8) + 1);
    }
    for (int i = 0; i < 16; i++)
        for (int half = 0; half < 2; half++) {
            k->interleave[half][2 * i] = (uint16_t)(16 * half + i);
            k->interleave[half][2 * i + 1] = (uint16_t)(32 + 16 * half + i);
        }
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 16; i++) {
                const int packed = 16 * v + i, position = 3 * i + c - 16 * v;
                k->join16[v][c][i] = packed % 3 == c ? (uint8_t)(packed / 3) : 0x80;
                k->split16[v][c][i] = position >= 0 && position < 16 ? (uint8_t)position : 0x80;
            }
}

// ---------------------------------------------------------------------------------------------
// Scalar reference

// Chroma samples [from, to) of a row widened 2× into d[2j], d[2j + 1]; padded[j + 2] is sample j
// × 128, two copies of each edge sample around.
static void widen2x_scalar(const Fixed8 *k, const int16_t *padded, int16_t *d, int from, int to) {
    for (int j = from; j < to; j++) {
        const int16_t *c = padded + j;
        int even = 0, odd = 0;
        for (int t = 0; t < 4; t++) {
            even += mulhrs(c[t], k->even[t]);
            odd += mulhrs(c[t + 1], k->odd[t]);
        }
        d[2 * j] = (int16_t)((even < 32767 ? even : 32767) - 16384);
        d[2 * j + 1] = (int16_t)((odd < 32767 ? odd : 32767) - 16384);
    }
}

// Column x of a row widened by its own taps (edges, odd widths), as widen2x_scalar.
static int16_t widen_column(const FDYUVPlan *p, const int16_t *padded, int x) {
    const Taps *t = &p->up_columns[x];
    int sum = 0;
    for (int k = 0; k < 4; k++)
        sum += mulhrs(padded[clamp_index(t->first + k, p->chroma_width) + 2], t->fixed[k]);
    return (int16_t)((sum < 32767 ? sum : 32767) - 16384);
}

// Pixels [from, to) of luma y and the 4 widened chroma rows su, sv blended by Q15 `weight` to row d.
static void to_rgb8_scalar(const Fixed8 *k, const uint8_t *y, const int16_t *const *su,
    const int16_t *const *sv, const int16_t *weight, const RGBRow *d, int from, int to) {
    uint8_t *dr = d->channel[0], *dg = d->channel[1], *db = d->channel[2];
    const int step = d->step;
    for (int x = from; x < to; x++) {
        int cu = 0, cv = 0;
        for (int r = 0; r < 4; r++) {
            cu += mulhrs(su[r][x], weight[r]);
            cv += mulhrs(sv[r][x], weight[r]);
        }
        const int l = mulhi(y[x] * 256u, k->ky) + k->l_base;
        dr[step * x] = byte_code((l + mulhrs(cv, k->krv)) >> 6);
        dg[step * x] = byte_code((l - (mulhrs(cu, k->kgu) + mulhrs(cv, k->kgv))) >> 6);
        db[step * x] = byte_code((l + (cu + mulhrs(cu, k->kbu))) >> 6);
    }
}

// Pixels [from, n) of row `rgb` (from even) to luma y (skipped when NULL) and the chroma of each
// pixel pair, u[j] and v[j] for pixels 2j and 2j + 1; an odd last pixel is a pair of itself.
static void from_rgb8_scalar(const Fixed8 *k, const RGBRow *rgb, uint8_t *y, int16_t *u, int16_t *v,
    int from, int n) {
    const uint8_t *r = rgb->channel[0], *g = rgb->channel[1], *b = rgb->channel[2];
    const int step = rgb->step;
    if (y)
        for (int x = from; x < n; x++) {
            const int at = step * x;
            y[x] = (uint8_t)((k->y_base + mulhi(r[at] * 256u, k->kry) + mulhi(g[at] * 256u, k->kgy) +
                                 mulhi(b[at] * 256u, k->kby)) >>
                8);
        }
    for (int x = from; x < n; x += 2) {
        const int s = step * x, t = x + 1 < n ? s + step : s;
        const int rs = (r[s] + r[t]) * 64, gs = (g[s] + g[t]) * 64, bs = (b[s] + b[t]) * 64;
        u[x / 2] = (int16_t)(mulhrs(rs, k->kru) + mulhrs(gs, k->kgu2) + mulhrs(bs, k->kbu2));
        v[x / 2] = (int16_t)(mulhrs(rs, k->krv2) + mulhrs(gs, k->kgv2) + mulhrs(bs, k->kbv2));
    }
}

// Columns [from, n) of a chroma row: `count` rows of pair chroma blended by Q15 `weight` (rows with
// equal weights added first when the taps pair up, see paired_taps), to codes.
static void reduce_scalar(const int16_t *const *rows, const int16_t *weight, int count, uint8_t *d,
    int from, int n) {
    const int paired = paired_taps(weight, count);
    for (int i = from; i < n; i++) {
        int sum = 0;
        if (paired)
            for (int k = 0; k < count / 2; k++)
                sum += mulhrs(rows[k][i] + rows[count - 1 - k][i], weight[k]);
        else
            for (int k = 0; k < count; k++) sum += mulhrs(rows[k][i], weight[k]);
        d[i] = byte_code(((sum + 64) >> 7) + 128);
    }
}

// ---------------------------------------------------------------------------------------------
// Paths

static const Kernels8 scalar_kernels = {NULL, NULL, NULL, NULL};

static const Kernels8 *kernels(void) {
#if FD_X86_SIMD
    switch (fd_simd_path()) {
    case FD_SIMD_AVX512: return &fd_yuv8_avx512;
    case FD_SIMD_AVX2: return &fd_yuv8_avx2;
    case FD_SIMD_SCALAR: break;
    }
#endif
    return &scalar_kernels;
}

// ---------------------------------------------------------------------------------------------
// YUV → RGB, one output row at a time

// Widened chroma rows (4 slots per plane, kept while consecutive output rows need them).
typedef struct {
    const FDYUVPlan *p;
    const Kernels8 *k;
    int16_t *rows_u, *rows_v;
    int16_t *padded;  // the chroma row being widened (see widen2x_scalar)
    int cached[4];  // chroma row held in each slot
} Widening;

// Bytes a Widening needs.
static size_t widening_bytes(const FDYUVPlan *p) {
    return sizeof(int16_t) * (8 * (size_t)p->width + (size_t)p->chroma_width + 4);
}

static void widening_init(Widening *s, const FDYUVPlan *p, const Kernels8 *k, void *scratch) {
    s->p = p;
    s->k = k;
    s->rows_u = scratch;
    s->rows_v = s->rows_u + 4 * (size_t)p->width;
    s->padded = s->rows_v + 4 * (size_t)p->width;
    for (int c = 0; c < 4; c++) s->cached[c] = -1;
}

// Widens chroma row `row` of `plane` into d: 2× by the fixed even and odd taps for even widths (the
// outermost columns by their own, see make_taps), by each column's taps otherwise.
static void widen_chroma(const Widening *s, const uint8_t *plane, ptrdiff_t stride, int row,
    int16_t *d) {
    const FDYUVPlan *p = s->p;
    const int w = p->width, cw = p->chroma_width;
    int16_t *padded = s->padded;
    const uint8_t *c = plane + stride * row;
    for (int j = 0; j < cw; j++) padded[j + 2] = (int16_t)(c[j] * 128);
    padded[0] = padded[1] = padded[2];
    padded[cw + 2] = padded[cw + 3] = padded[cw + 1];
    if (w % 2) {
        for (int x = 0; x < w; x++) d[x] = widen_column(p, padded, x);
        return;
    }
    const int done = s->k->widen ? s->k->widen(&p->fixed, padded, d, cw) : 0;
    widen2x_scalar(&p->fixed, padded, d, done, cw);
    for (int c = 0; c < p->fixed.own_tap_count; c++) {
        const int x = p->fixed.own_taps[c];
        d[x] = widen_column(p, padded, x);
    }
}

// Points su, sv at the 4 widened chroma rows output row `row` blends, widening those not cached.
static void chroma_rows(Widening *s, const uint8_t *u, ptrdiff_t u_stride, const uint8_t *v,
    ptrdiff_t v_stride, int row, const int16_t *su[4], const int16_t *sv[4]) {
    const size_t w = (size_t)s->p->width;
    int slots[4], fresh[4];
    fd_yuv_chroma_slots(s->p, row, s->cached, slots, fresh);
    for (int t = 0; t < 4; t++) {
        int16_t *ru = s->rows_u + (size_t)slots[t] * w, *rv = s->rows_v + (size_t)slots[t] * w;
        if (fresh[t]) {
            widen_chroma(s, u, u_stride, s->cached[slots[t]], ru);
            widen_chroma(s, v, v_stride, s->cached[slots[t]], rv);
        }
        su[t] = ru;
        sv[t] = rv;
    }
}

// Converts output row `row` into row d.
static void widen_row(Widening *s, const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u,
    ptrdiff_t u_stride, const uint8_t *v, ptrdiff_t v_stride, int row, const RGBRow *d) {
    const FDYUVPlan *p = s->p;
    const int16_t *su[4], *sv[4];
    chroma_rows(s, u, u_stride, v, v_stride, row, su, sv);
    const uint8_t *luma = y + y_stride * row;
    const int16_t *weight = p->up_rows[row].fixed;
    const int done = s->k->to_rgb ? s->k->to_rgb(&p->fixed, luma, su, sv, weight, d, p->width) : 0;
    to_rgb8_scalar(&p->fixed, luma, su, sv, weight, d, done, p->width);
}

void fd_yuv8_to_rgb(const FDYUVPlan *p, const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u,
    ptrdiff_t u_stride, const uint8_t *v, ptrdiff_t v_stride, uint8_t *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end) {
    void *scratch = malloc(widening_bytes(p));
    if (!scratch) return;
    Widening s;
    widening_init(&s, p, kernels(), scratch);
    for (int row = row_start; row < row_end; row++) {
        const RGBRow d = rgb_row_packed(rgb + rgb_stride * row);
        widen_row(&s, y, y_stride, u, u_stride, v, v_stride, row, &d);
    }
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// RGB → YUV, one source row at a time

// Rows of pair chroma in a ring (a chroma row reads at most TAPS_DOWN_MAX consecutive source rows, all
// still in the ring when its last one arrives).
enum { RING = TAPS_DOWN_MAX };

typedef struct {
    const FDYUVPlan *p;
    const Kernels8 *k;
    int16_t *ring_u, *ring_v;
    FDYUVNarrowRange range;
    int next_chroma, chroma_end;
} Narrowing;

static size_t narrowing_bytes(const FDYUVPlan *p) {
    return 2 * RING * sizeof(int16_t) * (size_t)p->chroma_width;
}

// Prepares the conversion of chroma rows [chroma_start, chroma_end) (chroma_start < chroma_end).
static void narrowing_init(Narrowing *s, const FDYUVPlan *p, const Kernels8 *k, void *scratch,
    int chroma_start, int chroma_end) {
    s->p = p;
    s->k = k;
    s->ring_u = scratch;
    s->ring_v = s->ring_u + RING * (size_t)p->chroma_width;
    s->range = fd_yuv_narrow_range(p, chroma_start, chroma_end);
    s->next_chroma = chroma_start;
    s->chroma_end = chroma_end;
}

// Writes every chroma row whose last source row is `row` (rows arrive in order from range.first).
static void emit_chroma(Narrowing *s, int row, uint8_t *u, ptrdiff_t u_stride, uint8_t *v,
    ptrdiff_t v_stride) {
    const FDYUVPlan *p = s->p;
    const int h = p->height, cw = p->chroma_width;
    while (s->next_chroma < s->chroma_end) {
        const int c = s->next_chroma;
        const Taps *t = &p->down_rows[c];
        if (clamp_index(t->first + t->count - 1, h) > row) break;
        const int16_t *rows_u[TAPS_DOWN_MAX], *rows_v[TAPS_DOWN_MAX];
        for (int k = 0; k < t->count; k++) {
            const size_t slot = (size_t)(clamp_index(t->first + k, h) % RING);
            rows_u[k] = s->ring_u + slot * (size_t)cw;
            rows_v[k] = s->ring_v + slot * (size_t)cw;
        }
        uint8_t *du = u + u_stride * c, *dv = v + v_stride * c;
        int done = s->k->reduce ? s->k->reduce(rows_u, t->fixed, t->count, du, cw) : 0;
        reduce_scalar(rows_u, t->fixed, t->count, du, done, cw);
        done = s->k->reduce ? s->k->reduce(rows_v, t->fixed, t->count, dv, cw) : 0;
        reduce_scalar(rows_v, t->fixed, t->count, dv, done, cw);
        s->next_chroma++;
    }
}

// Takes source row `row` from `rgb`: its luma codes when the range writes them, its pair chroma into
// the ring, then the chroma rows it completes.
static void narrow_row(Narrowing *s, int row, const RGBRow *rgb, uint8_t *y, ptrdiff_t y_stride,
    uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride) {
    const FDYUVPlan *p = s->p;
    const size_t slot = (size_t)(row % RING) * (size_t)p->chroma_width;
    uint8_t *luma =
        row >= s->range.luma_start && row < s->range.luma_end ? y + y_stride * row : NULL;
    const int done = s->k->from_rgb
        ? s->k->from_rgb(&p->fixed, rgb, luma, s->ring_u + slot, s->ring_v + slot, p->width)
        : 0;
    from_rgb8_scalar(&p->fixed, rgb, luma, s->ring_u + slot, s->ring_v + slot, done, p->width);
    emit_chroma(s, row, u, u_stride, v, v_stride);
}

void fd_yuv8_from_rgb(const FDYUVPlan *p, const uint8_t *rgb, ptrdiff_t rgb_stride, uint8_t *y,
    ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride,
    int chroma_start, int chroma_end) {
    void *scratch = malloc(narrowing_bytes(p));
    if (!scratch) return;
    Narrowing s;
    narrowing_init(&s, p, kernels(), scratch, chroma_start, chroma_end);
    for (int row = s.range.first; row <= s.range.last; row++) {
        // The row is only read.
        const RGBRow source = rgb_row_packed((uint8_t *)(uintptr_t)(rgb + rgb_stride * row));
        narrow_row(&s, row, &source, y, y_stride, u, u_stride, v, v_stride);
    }
    free(scratch);
}

struct FDYUV8Narrowing {
    Narrowing s;
    void *scratch;
};

FDYUV8Narrowing *fd_yuv8_narrowing_create(const FDYUVPlan *p, int chroma_start, int chroma_end) {
    if (p->depth != 8 || chroma_start >= chroma_end) return NULL;
    FDYUV8Narrowing *n = malloc(sizeof(FDYUV8Narrowing));
    void *scratch = malloc(narrowing_bytes(p));
    if (!n || !scratch) {
        free(n);
        free(scratch);
        return NULL;
    }
    n->scratch = scratch;
    narrowing_init(&n->s, p, kernels(), scratch, chroma_start, chroma_end);
    return n;
}

void fd_yuv8_narrowing_row(FDYUV8Narrowing *n, int row, const uint8_t *rgb, uint8_t *y,
    ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride) {
    // The row is only read.
    const RGBRow source = rgb_row_packed((uint8_t *)(uintptr_t)rgb);
    narrow_row(&n->s, row, &source, y, y_stride, u, u_stride, v, v_stride);
}

void fd_yuv8_narrowing_free(FDYUV8Narrowing *n) {
    if (!n) return;
    free(n->scratch);
    free(n);
}

// ---------------------------------------------------------------------------------------------
// YUV → RGB → transform → YUV in one pass

// Rows converted before each call of the transform: the transform's tables and the conversions' rows
// take turns in the caches a group at a time, not a row at a time.
enum { TRANSFORM_ROWS = 8 };

// Row r of a group held in `buffer`: three planes `plane` bytes apart (step 1), or packed rgb24 rows
// (step 3).
static RGBRow group_row(uint8_t *buffer, size_t plane, size_t width, int r, int step) {
    if (step == 3) return rgb_row_packed(buffer + 3 * width * (size_t)r);
    const size_t at = width * (size_t)r;
    const RGBRow row = {{buffer + at, buffer + plane + at, buffer + 2 * plane + at}, 1};
    return row;
}

int fd_yuv420_transform(const FDYUVPlan *p, FDRGBRowTransform transform, const void *context,
    int planar, const void *y, ptrdiff_t y_stride, const void *u, ptrdiff_t u_stride,
    const void *v, ptrdiff_t v_stride, void *out_y, ptrdiff_t out_y_stride, void *out_u,
    ptrdiff_t out_u_stride, void *out_v, ptrdiff_t out_v_stride, int chroma_start,
    int chroma_end) {
    if (p->depth != 8 || !transform) return -1;
    if (chroma_start >= chroma_end) return 0;
    const Kernels8 *k = kernels();
    // `group` rows converted, then transformed, each as three planes (64-byte aligned) or as packed
    // rows in the same space.
    const size_t w = (size_t)p->width, group = TRANSFORM_ROWS, plane = (w * group + 63) / 64 * 64;
    // Planes only on the AVX-512 path (the colour kernels' planar paths need AVX-512 VBMI too), so
    // that a slower path forced by fd_simd_force runs packed rows as a CPU without it does.
    const int step = planar && fd_simd_path() == FD_SIMD_AVX512 ? 1 : 3;
    const size_t wide = (widening_bytes(p) + 63) / 64 * 64;
    const size_t narrow = (narrowing_bytes(p) + 63) / 64 * 64;
    uint8_t *scratch = aligned_alloc(64, wide + narrow + 6 * plane);
    if (!scratch) return -1;
    uint8_t *converted = scratch + wide + narrow, *transformed = converted + 3 * plane;
    const RGBRow in = group_row(converted, plane, w, 0, step),
                 out = group_row(transformed, plane, w, 0, step);
    Widening widening;
    Narrowing narrowing;
    widening_init(&widening, p, k, scratch);
    narrowing_init(&narrowing, p, k, scratch + wide, chroma_start, chroma_end);
    const int last = narrowing.range.last;
    for (int first = narrowing.range.first; first <= last; first += (int)group) {
        const int rows = last - first + 1 < (int)group ? last - first + 1 : (int)group;
        for (int r = 0; r < rows; r++) {
            const RGBRow d = group_row(converted, plane, w, r, step);
            widen_row(&widening, y, y_stride, u, u_stride, v, v_stride, first + r, &d);
        }
        transform(context, (const uint8_t *const *)in.channel, out.channel, step, rows * p->width);
        for (int r = 0; r < rows; r++) {
            const RGBRow source = group_row(transformed, plane, w, r, step);
            narrow_row(&narrowing, first + r, &source, out_y, out_y_stride, out_u, out_u_stride,
                out_v, out_v_stride);
        }
    }
    free(scratch);
    return 0;
}
