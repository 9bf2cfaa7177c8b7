// fd_raw_ahd_* (see RawDemosaic.h): AHD demosaicing with LibRaw 0.20's arithmetic, streamed by rows.
//
// The definition, for a pixel (r, c) of the mosaic m (each pixel's own-colour sample), f = its colour,
// in each direction d (horizontal, vertical):
//   green G_d at a red or blue pixel, rows and columns 2 … n − 3: the average of the two greens along
//     d plus half the second difference of m along d, ((m₋₁ + m₀ + m₊₁)·2 − m₋₂ − m₊₂) >> 2, limited
//     to the range of the two greens; at a green pixel m;
//   the two other colours, rows and columns 3 … n − 4: at a green pixel, each from its neighbours
//     along the row or column where it lies, m + ((sum of those two − sum of their G_d) >> 1); at a red
//     or blue pixel, the opposite colour from the four diagonal pixels, G_d + ((Σ m − Σ G_d + 1) >> 2);
//     each clipped to 0 … 65535;
//   CIELab of that RGB with LibRaw's camera matrix and cube root table (float), scaled by 64;
//   the homogeneity, rows and columns 4 … n − 5: of the four neighbours in the picture of direction d,
//     how many lie within both ε_L and ε_ab, where ε is the smaller of the horizontal picture's larger
//     difference to its left and right neighbours and the vertical picture's to its upper and lower;
//   rows and columns 5 … n − 6 take the direction whose homogeneity summed over the 3 × 3 neighbourhood
//     is larger, or the average of both (>> 1) when the sums are equal.
// Pixels within 5 of an edge take, for each colour other than their own, the average (integer division)
// of that colour's pixels in their 3 × 3 neighbourhood, as LibRaw's border_interpolate(5).
//
// LibRaw computes this in tiles whose results do not depend on the tiling (every value a tile reads was
// computed in that tile, and the only samples it reads from the picture are own-colour samples, which
// demosaicing leaves as they are); here each band streams its rows through rings of a few rows.

#include "RawDemosaic.h"

#include "simd_support.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// LibRaw's float products and sums, one rounding each, in its order.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// Rows of mosaic each band keeps of its neighbours' rows, above and below.
enum { HALO = 5 };

struct FDRawAHD {
    int width, height, bands;
    unsigned filters;
    int avx2;  // the AVX2 path runs
    float xyz_cam[9];
    int *band_start;     // bands + 1 row numbers
    uint16_t *halos;     // per band: HALO rows above, then HALO rows below, width samples each
};

// LibRaw's FC: the colour of (row, col) in a packed pattern.
static inline int colour_at(unsigned filters, int row, int col) {
    return (int)(filters >> ((((unsigned)row << 1 & 14) | ((unsigned)col & 1)) << 1) & 3);
}

// LibRaw 0.20's cube root table for its CIELab: i / 65535 (in double, stored as float), cube-rooted
// (powf) above 0.008856, linear below.
static float cube_roots[0x10000];
static pthread_once_t cube_roots_once = PTHREAD_ONCE_INIT;
static void make_cube_roots(void) {
    for (int i = 0; i < 0x10000; i++) {
        const float r = (float)(i / 65535.0);
        cube_roots[i] = r > 0.008856 ? powf(r, 1.f / 3.0f) : 7.787f * r + 16.f / 116.0f;
    }
}

// LibRaw 0.20's xyz_cam: each entry summed in float from double products and quotients.
static void make_xyz_cam(const float *camera, float *xyz_cam) {
    static const double xyz_rgb[3][3] = {
        {0.4124564, 0.3575761, 0.1804375}, {0.2126729, 0.7151522, 0.0721750}, {0.0193339, 0.1191920, 0.9503041}};
    static const float d65_white[3] = {0.95047f, 1.0f, 1.08883f};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float sum = 0;
            for (int k = 0; k < 3; k++)
                sum = (float)(sum + xyz_rgb[i][k] * (double)camera[3 * k + j] / (double)d65_white[i]);
            xyz_cam[3 * i + j] = sum;
        }
}

// True when every row of the pattern's period alternates green with red or blue, and every green's
// neighbours above and below and every red or blue pixel's diagonal neighbours are of the third colour.
static int is_rgb_bayer(unsigned filters) {
    // LibRaw's small values name other sensors (1 Leaf, 9 X-Trans).
    if (filters < 1000) return 0;
    for (int row = 0; row < 8; row++) {
        const int even = colour_at(filters, row, 0), odd = colour_at(filters, row, 1);
        if ((even == 1) == (odd == 1)) return 0;
        const int green = even == 1 ? 0 : 1, other = even == 1 ? odd : even;
        if (other != 0 && other != 2) return 0;
        if (colour_at(filters, row + 1, green) != 2 - other) return 0;
        if (colour_at(filters, row + 1, 1 - green) != 1) return 0;
    }
    return 1;
}

FDRawAHD *fd_raw_ahd_prepare(
    const uint16_t *picture, int width, int height, unsigned filters, const float *camera, int bands) {
    if (!picture || !camera || width < 16 || height < 16 || !is_rgb_bayer(filters)) return NULL;
    if (width > INT_MAX / 16 || bands < 1) return NULL;
    if (bands > height / 16) bands = height / 16;
    FDRawAHD *ahd = calloc(1, sizeof *ahd);
    if (!ahd) return NULL;
    ahd->width = width;
    ahd->height = height;
    ahd->bands = bands;
    ahd->filters = filters;
#if FD_X86_SIMD
    ahd->avx2 = fd_simd_path() >= FD_SIMD_AVX2;
#endif
    make_xyz_cam(camera, ahd->xyz_cam);
    ahd->band_start = malloc(sizeof(int) * (size_t)(bands + 1));
    ahd->halos = malloc(sizeof(uint16_t) * (size_t)width * 2 * HALO * (size_t)bands);
    if (!ahd->band_start || !ahd->halos) {
        fd_raw_ahd_free(ahd);
        return NULL;
    }
    for (int band = 0; band <= bands; band++) ahd->band_start[band] = (int)((long long)height * band / bands);
    for (int band = 0; band < bands; band++) {
        uint16_t *halo = ahd->halos + (size_t)width * 2 * HALO * (size_t)band;
        for (int i = 0; i < 2 * HALO; i++) {
            const int row = i < HALO ? ahd->band_start[band] - HALO + i : ahd->band_start[band + 1] + i - HALO;
            if (row < 0 || row >= height) continue;
            const uint16_t *from = picture + (size_t)row * (size_t)width * 4;
            for (int col = 0; col < width; col++)
                halo[(size_t)i * (size_t)width + (size_t)col] = from[4 * col + colour_at(filters, row, col)];
        }
    }
    pthread_once(&cube_roots_once, make_cube_roots);
    return ahd;
}

int fd_raw_ahd_bands(const FDRawAHD *ahd) { return ahd ? ahd->bands : 0; }

void fd_raw_ahd_free(FDRawAHD *ahd) {
    if (!ahd) return;
    free(ahd->band_start);
    free(ahd->halos);
    free(ahd);
}

// The rows a band keeps: the mosaic (8 rows), and per direction the green (4), red, green and blue
// (4 each) and CIELab (4 each) and the homogeneity counts (4).
typedef struct {
    uint16_t *m[8];
    uint16_t *g[2][4];
    uint16_t *rgb[2][3][4];
    int16_t *lab[2][3][4];
    uint8_t *homo[2][4];
    void *block;
} Rings;

static int rings_make(Rings *rings, int width) {
    // Every path reads and writes within a row's `width` samples.
    const size_t stride = (size_t)width;
    const size_t rows16 = 8 + 2 * 4 + 2 * 3 * 4 + 2 * 3 * 4, rows8 = 2 * 4;
    uint8_t *block = calloc(1, stride * (rows16 * 2 + rows8));
    if (!block) return -1;
    rings->block = block;
    uint16_t *next = (uint16_t *)(void *)block;
    for (int i = 0; i < 8; i++, next += stride) rings->m[i] = next;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 4; i++, next += stride) rings->g[d][i] = next;
    for (int d = 0; d < 2; d++)
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 4; i++, next += stride) rings->rgb[d][c][i] = next;
    for (int d = 0; d < 2; d++)
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 4; i++, next += stride) rings->lab[d][c][i] = (int16_t *)(void *)next;
    uint8_t *bytes = (uint8_t *)(void *)next;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 4; i++, bytes += stride) rings->homo[d][i] = bytes;
    return 0;
}

static inline int clip16(int value) { return value < 0 ? 0 : value > 65535 ? 65535 : value; }
static inline unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max_u(unsigned a, unsigned b) { return a > b ? a : b; }
static inline int limit(int value, int a, int b) {
    const int low = a < b ? a : b, high = a < b ? b : a;
    return value < low ? low : value > high ? high : value;
}

// The column parity of the greens in row `row`, and the colour (0 red, 2 blue) of its other pixels.
static inline int green_parity(unsigned filters, int row) { return colour_at(filters, row, 0) == 1 ? 0 : 1; }
static inline int other_colour(unsigned filters, int row) {
    return colour_at(filters, row, green_parity(filters, row) ^ 1);
}

// Green of row `row` in both directions, columns [col, to).
static void green_cols(const FDRawAHD *k, const Rings *rings, int row, int col, int to) {
    const uint16_t *m = rings->m[row & 7], *up = rings->m[(row - 1) & 7], *down = rings->m[(row + 1) & 7],
                   *up2 = rings->m[(row - 2) & 7], *down2 = rings->m[(row + 2) & 7];
    uint16_t *gh = rings->g[0][row & 3], *gv = rings->g[1][row & 3];
    const int parity = green_parity(k->filters, row);
    for (; col < to; col++) {
        if ((col & 1) == parity) {
            gh[col] = gv[col] = m[col];
            continue;
        }
        const int h = ((m[col - 1] + m[col] + m[col + 1]) * 2 - m[col - 2] - m[col + 2]) >> 2;
        gh[col] = (uint16_t)limit(h, m[col - 1], m[col + 1]);
        const int v = ((up[col] + m[col] + down[col]) * 2 - up2[col] - down2[col]) >> 2;
        gv[col] = (uint16_t)limit(v, up[col], down[col]);
    }
}

// LibRaw's cielab() of one pixel.
static inline void to_lab(const float *xyz_cam, int r, int g, int b, int16_t *l, int16_t *a, int16_t *bb) {
    float xyz[3];
    for (int i = 0; i < 3; i++) {
        float sum = 0.5f;
        sum += xyz_cam[3 * i] * (float)r;
        sum += xyz_cam[3 * i + 1] * (float)g;
        sum += xyz_cam[3 * i + 2] * (float)b;
        xyz[i] = cube_roots[clip16((int)sum)];
    }
    *l = (int16_t)(int)(64 * (116 * xyz[1] - 16));
    *a = (int16_t)(int)(64 * 500 * (xyz[0] - xyz[1]));
    *bb = (int16_t)(int)(64 * 200 * (xyz[1] - xyz[2]));
}

// Red, green, blue and CIELab of row `row` in both directions, columns [from, to).
static void colour_cols(const FDRawAHD *k, const Rings *rings, int row, int from, int to) {
    const uint16_t *m = rings->m[row & 7], *up = rings->m[(row - 1) & 7], *down = rings->m[(row + 1) & 7];
    for (int d = 0; d < 2; d++) {
        const uint16_t *g = rings->g[d][row & 3], *gu = rings->g[d][(row - 1) & 3],
                       *gd = rings->g[d][(row + 1) & 3];
        uint16_t *out[3] = {rings->rgb[d][0][row & 3], rings->rgb[d][1][row & 3], rings->rgb[d][2][row & 3]};
        int16_t *lab[3] = {rings->lab[d][0][row & 3], rings->lab[d][1][row & 3], rings->lab[d][2][row & 3]};
        for (int col = from; col < to; col++) {
            const int own = colour_at(k->filters, row, col);
            int rgb[3];
            rgb[own] = m[col];
            if (own == 1) {
                const int vertical = colour_at(k->filters, row + 1, col), horizontal = 2 - vertical;
                rgb[horizontal] = clip16(m[col] + ((m[col - 1] + m[col + 1] - g[col - 1] - g[col + 1]) >> 1));
                rgb[vertical] = clip16(m[col] + ((up[col] + down[col] - gu[col] - gd[col]) >> 1));
            } else {
                rgb[1] = g[col];
                rgb[2 - own] = clip16(g[col] + ((up[col - 1] + up[col + 1] + down[col - 1] + down[col + 1] -
                                                    gu[col - 1] - gu[col + 1] - gd[col - 1] - gd[col + 1] + 1) >>
                                                   2));
            }
            for (int c = 0; c < 3; c++) out[c][col] = (uint16_t)rgb[c];
            to_lab(k->xyz_cam, rgb[0], rgb[1], rgb[2], &lab[0][col], &lab[1][col], &lab[2][col]);
        }
    }
}

// The rows the homogeneity of row `row` reads (CIELab of rows row − 1 … row + 1, per direction and
// channel) and writes.
typedef struct {
    const int16_t *lab[2][3][3];
    uint8_t *homo[2];
} HomogeneityRows;
static HomogeneityRows homogeneity_rows(const Rings *rings, int row) {
    HomogeneityRows rows;
    for (int d = 0; d < 2; d++) {
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 3; i++) rows.lab[d][c][i] = rings->lab[d][c][(row - 1 + i) & 3];
        rows.homo[d] = rings->homo[d][row & 3];
    }
    return rows;
}

// Homogeneity counts of row `row` in both directions, columns [from, to).
static void homogeneity_cols(const Rings *rings, int row, int from, int to) {
    const HomogeneityRows rows = homogeneity_rows(rings, row);
    const int16_t *const(*lab)[3][3] = rows.lab;
    uint8_t *const *homo = rows.homo;
    for (int col = from; col < to; col++) {
        unsigned ldiff[2][4], abdiff[2][4];
        for (int d = 0; d < 2; d++) {
            const int l = lab[d][0][1][col], a = lab[d][1][1][col], b = lab[d][2][1][col];
            // Left, right, above, below.
            const int rows[4] = {1, 1, 0, 2}, cols[4] = {col - 1, col + 1, col, col};
            for (int i = 0; i < 4; i++) {
                const int dl = l - lab[d][0][rows[i]][cols[i]];
                const unsigned da = (unsigned)(a - lab[d][1][rows[i]][cols[i]]),
                               db = (unsigned)(b - lab[d][2][rows[i]][cols[i]]);
                ldiff[d][i] = (unsigned)(dl < 0 ? -dl : dl);
                abdiff[d][i] = da * da + db * db;
            }
        }
        const unsigned leps = min_u(max_u(ldiff[0][0], ldiff[0][1]), max_u(ldiff[1][2], ldiff[1][3]));
        const unsigned abeps = min_u(max_u(abdiff[0][0], abdiff[0][1]), max_u(abdiff[1][2], abdiff[1][3]));
        for (int d = 0; d < 2; d++) {
            int count = 0;
            for (int i = 0; i < 4; i++) count += ldiff[d][i] <= leps && abdiff[d][i] <= abeps;
            homo[d][col] = (uint8_t)count;
        }
    }
}

// The rows the choice of row `row` reads (homogeneity of rows row − 1 … row + 1 and the row's colours,
// per direction) and writes.
typedef struct {
    const uint8_t *h[2][3];
    const uint16_t *rgb[2][3];
    uint16_t *out;
} ChoiceRows;
static ChoiceRows choice_rows(const FDRawAHD *k, const Rings *rings, int row, uint16_t *picture) {
    ChoiceRows rows;
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 3; i++) {
            rows.h[d][i] = rings->homo[d][(row - 1 + i) & 3];
            rows.rgb[d][i] = rings->rgb[d][i][row & 3];
        }
    rows.out = picture + (size_t)row * (size_t)k->width * 4;
    return rows;
}

// The chosen colours of row `row`, columns [from, to), into the picture.
static void choose_cols(const FDRawAHD *k, const Rings *rings, int row, int from, int to, uint16_t *picture) {
    const ChoiceRows rows = choice_rows(k, rings, row, picture);
    const uint8_t *const(*h)[3] = rows.h;
    const uint16_t *const(*rgb)[3] = rows.rgb;
    uint16_t *out = rows.out;
    for (int col = from; col < to; col++) {
        int sum[2];
        for (int d = 0; d < 2; d++) {
            sum[d] = 0;
            for (int i = 0; i < 3; i++) sum[d] += h[d][i][col - 1] + h[d][i][col] + h[d][i][col + 1];
        }
        for (int c = 0; c < 3; c++)
            out[4 * col + c] = sum[0] != sum[1] ? rgb[sum[1] > sum[0]][c][col]
                                                 : (uint16_t)((rgb[0][c][col] + rgb[1][c][col]) >> 1);
    }
}

#if FD_X86_SIMD
// Eight 16-bit samples from `p`, unsigned or signed, as 32-bit lanes.
#define FD_U16X8(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define FD_S16X8(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define FD_U8X8(p) _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p)))

// Eight 32-bit lanes, each within the 16-bit range, stored as eight 16-bit samples (signed saturation
// and unsigned give the same bits there).
FD_AVX2 static inline void store_u16x8(uint16_t *p, __m256i v) {
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), _MM_SHUFFLE(3, 1, 2, 0));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(packed));
}
FD_AVX2 static inline void store_s16x8(int16_t *p, __m256i v) {
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), _MM_SHUFFLE(3, 1, 2, 0));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(packed));
}
FD_AVX2 static inline __m256i clip16_avx2(__m256i v) {
    return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(65535));
}
// Lanes i of a block starting at an even column: all ones where column parity `parity` lies.
FD_AVX2 static inline __m256i parity_lanes(int parity) {
    return parity ? _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1) : _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
}
// Unsigned a <= b in each 32-bit lane.
FD_AVX2 static inline __m256i at_most_u32(__m256i a, __m256i b) {
    return _mm256_cmpeq_epi32(_mm256_min_epu32(a, b), a);
}

// green_cols on blocks of eight columns from the even column `col`; returns the first column not done.
FD_AVX2 static int green_avx2(const FDRawAHD *k, const Rings *rings, int row, int col, int to) {
    const uint16_t *m = rings->m[row & 7], *up = rings->m[(row - 1) & 7], *down = rings->m[(row + 1) & 7],
                   *up2 = rings->m[(row - 2) & 7], *down2 = rings->m[(row + 2) & 7];
    uint16_t *gh = rings->g[0][row & 3], *gv = rings->g[1][row & 3];
    const __m256i green = parity_lanes(green_parity(k->filters, row));
    for (; col + 8 <= to; col += 8) {
        const __m256i centre = FD_U16X8(m + col), left = FD_U16X8(m + col - 1), right = FD_U16X8(m + col + 1);
        __m256i h = _mm256_slli_epi32(_mm256_add_epi32(_mm256_add_epi32(left, centre), right), 1);
        h = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_sub_epi32(h, FD_U16X8(m + col - 2)), FD_U16X8(m + col + 2)), 2);
        h = _mm256_min_epi32(_mm256_max_epi32(h, _mm256_min_epi32(left, right)), _mm256_max_epi32(left, right));
        store_u16x8(gh + col, _mm256_blendv_epi8(h, centre, green));
        const __m256i above = FD_U16X8(up + col), below = FD_U16X8(down + col);
        __m256i v = _mm256_slli_epi32(_mm256_add_epi32(_mm256_add_epi32(above, centre), below), 1);
        v = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_sub_epi32(v, FD_U16X8(up2 + col)), FD_U16X8(down2 + col)), 2);
        v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_min_epi32(above, below)), _mm256_max_epi32(above, below));
        store_u16x8(gv + col, _mm256_blendv_epi8(v, centre, green));
    }
    return col;
}

// colour_cols on blocks of eight columns from the even column `col`; returns the first column not done.
FD_AVX2 static int colour_avx2(const FDRawAHD *k, const Rings *rings, int row, int from, int to) {
    const uint16_t *m = rings->m[row & 7], *up = rings->m[(row - 1) & 7], *down = rings->m[(row + 1) & 7];
    const __m256i green = parity_lanes(green_parity(k->filters, row));
    // The colour of the row's red or blue pixels: at greens it lies along the row, the third along
    // the column.
    const int other = other_colour(k->filters, row);
    __m256 xyz_cam[9];
    for (int i = 0; i < 9; i++) xyz_cam[i] = _mm256_set1_ps(k->xyz_cam[i]);
    const __m256 half = _mm256_set1_ps(0.5f), f64 = _mm256_set1_ps(64.f), f116 = _mm256_set1_ps(116.f),
                 f16 = _mm256_set1_ps(16.f), f32000 = _mm256_set1_ps(32000.f), f12800 = _mm256_set1_ps(12800.f);
    const __m256i one = _mm256_set1_epi32(1);
    int col = from;
    for (; col + 8 <= to; col += 8) {
        const __m256i centre = FD_U16X8(m + col), left = FD_U16X8(m + col - 1), right = FD_U16X8(m + col + 1);
        const __m256i above = FD_U16X8(up + col), below = FD_U16X8(down + col);
        const __m256i diagonals = _mm256_add_epi32(_mm256_add_epi32(FD_U16X8(up + col - 1), FD_U16X8(up + col + 1)),
            _mm256_add_epi32(FD_U16X8(down + col - 1), FD_U16X8(down + col + 1)));
        for (int d = 0; d < 2; d++) {
            const uint16_t *g = rings->g[d][row & 3], *gu = rings->g[d][(row - 1) & 3],
                           *gd = rings->g[d][(row + 1) & 3];
            const __m256i g0 = FD_U16X8(g + col);
            const __m256i horizontal = clip16_avx2(_mm256_add_epi32(centre,
                _mm256_srai_epi32(_mm256_sub_epi32(_mm256_add_epi32(left, right),
                                      _mm256_add_epi32(FD_U16X8(g + col - 1), FD_U16X8(g + col + 1))),
                    1)));
            const __m256i vertical = clip16_avx2(_mm256_add_epi32(centre,
                _mm256_srai_epi32(_mm256_sub_epi32(_mm256_add_epi32(above, below),
                                      _mm256_add_epi32(FD_U16X8(gu + col), FD_U16X8(gd + col))),
                    1)));
            const __m256i green_diagonals = _mm256_add_epi32(
                _mm256_add_epi32(FD_U16X8(gu + col - 1), FD_U16X8(gu + col + 1)),
                _mm256_add_epi32(FD_U16X8(gd + col - 1), FD_U16X8(gd + col + 1)));
            const __m256i diagonal = clip16_avx2(_mm256_add_epi32(g0,
                _mm256_srai_epi32(_mm256_add_epi32(_mm256_sub_epi32(diagonals, green_diagonals), one), 2)));
            const __m256i own = _mm256_blendv_epi8(centre, horizontal, green);
            const __m256i third = _mm256_blendv_epi8(diagonal, vertical, green);
            const __m256i rgb[3] = {other == 0 ? own : third, _mm256_blendv_epi8(g0, centre, green),
                other == 0 ? third : own};
            for (int c = 0; c < 3; c++) store_u16x8(rings->rgb[d][c][row & 3] + col, rgb[c]);
            __m256 xyz[3];
            const __m256 r = _mm256_cvtepi32_ps(rgb[0]), gg = _mm256_cvtepi32_ps(rgb[1]),
                         b = _mm256_cvtepi32_ps(rgb[2]);
            for (int i = 0; i < 3; i++) {
                __m256 sum = _mm256_add_ps(half, _mm256_mul_ps(xyz_cam[3 * i], r));
                sum = _mm256_add_ps(sum, _mm256_mul_ps(xyz_cam[3 * i + 1], gg));
                sum = _mm256_add_ps(sum, _mm256_mul_ps(xyz_cam[3 * i + 2], b));
                xyz[i] = _mm256_i32gather_ps(cube_roots, clip16_avx2(_mm256_cvttps_epi32(sum)), 4);
            }
            store_s16x8(rings->lab[d][0][row & 3] + col,
                _mm256_cvttps_epi32(_mm256_mul_ps(f64, _mm256_sub_ps(_mm256_mul_ps(f116, xyz[1]), f16))));
            store_s16x8(rings->lab[d][1][row & 3] + col, _mm256_cvttps_epi32(_mm256_mul_ps(f32000, _mm256_sub_ps(xyz[0], xyz[1]))));
            store_s16x8(rings->lab[d][2][row & 3] + col, _mm256_cvttps_epi32(_mm256_mul_ps(f12800, _mm256_sub_ps(xyz[1], xyz[2]))));
        }
    }
    return col;
}

// homogeneity_cols on blocks of eight columns; returns the first column not done.
FD_AVX2 static int homogeneity_avx2(const Rings *rings, int row, int col, int to) {
    const HomogeneityRows rows = homogeneity_rows(rings, row);
    const int16_t *const(*lab)[3][3] = rows.lab;
    uint8_t *const *homo = rows.homo;
    const __m256i gather_bytes = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0);
    for (; col + 8 <= to; col += 8) {
        __m256i ldiff[2][4], abdiff[2][4];
        for (int d = 0; d < 2; d++) {
            const __m256i l = FD_S16X8(lab[d][0][1] + col), a = FD_S16X8(lab[d][1][1] + col),
                          b = FD_S16X8(lab[d][2][1] + col);
            // Left, right, above, below.
            const int rows[4] = {1, 1, 0, 2}, offsets[4] = {-1, 1, 0, 0};
            for (int i = 0; i < 4; i++) {
                const int at = col + offsets[i];
                ldiff[d][i] = _mm256_abs_epi32(_mm256_sub_epi32(l, FD_S16X8(lab[d][0][rows[i]] + at)));
                const __m256i da = _mm256_sub_epi32(a, FD_S16X8(lab[d][1][rows[i]] + at)),
                              db = _mm256_sub_epi32(b, FD_S16X8(lab[d][2][rows[i]] + at));
                abdiff[d][i] = _mm256_add_epi32(_mm256_mullo_epi32(da, da), _mm256_mullo_epi32(db, db));
            }
        }
        const __m256i leps = _mm256_min_epu32(
            _mm256_max_epu32(ldiff[0][0], ldiff[0][1]), _mm256_max_epu32(ldiff[1][2], ldiff[1][3]));
        const __m256i abeps = _mm256_min_epu32(
            _mm256_max_epu32(abdiff[0][0], abdiff[0][1]), _mm256_max_epu32(abdiff[1][2], abdiff[1][3]));
        for (int d = 0; d < 2; d++) {
            __m256i count = _mm256_setzero_si256();
            for (int i = 0; i < 4; i++)
                count = _mm256_sub_epi32(count,
                    _mm256_and_si256(at_most_u32(ldiff[d][i], leps), at_most_u32(abdiff[d][i], abeps)));
            // Each lane's count in its low byte, the eight bytes gathered into the low 64 bits.
            const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(count, count), count);
            const __m256i low = _mm256_permutevar8x32_epi32(bytes, gather_bytes);
            _mm_storel_epi64((__m128i *)(void *)(homo[d] + col), _mm256_castsi256_si128(low));
        }
    }
    return col;
}

// choose_cols on blocks of eight columns; returns the first column not done. Each pixel's fourth
// sample is kept.
FD_AVX2 static int choose_avx2(const FDRawAHD *k, const Rings *rings, int row, int col, int to, uint16_t *picture) {
    const ChoiceRows rows = choice_rows(k, rings, row, picture);
    const uint8_t *const(*h)[3] = rows.h;
    const uint16_t *const(*rgb)[3] = rows.rgb;
    uint16_t *out = rows.out;
    for (; col + 8 <= to; col += 8) {
        __m256i sum[2];
        for (int d = 0; d < 2; d++) {
            sum[d] = _mm256_setzero_si256();
            for (int i = 0; i < 3; i++)
                sum[d] = _mm256_add_epi32(sum[d], _mm256_add_epi32(_mm256_add_epi32(FD_U8X8(h[d][i] + col - 1),
                                                                       FD_U8X8(h[d][i] + col)),
                                                      FD_U8X8(h[d][i] + col + 1)));
        }
        const __m256i second = _mm256_cmpgt_epi32(sum[1], sum[0]), equal = _mm256_cmpeq_epi32(sum[0], sum[1]);
        __m256i chosen[3];
        for (int c = 0; c < 3; c++) {
            const __m256i a = FD_U16X8(rgb[0][c] + col), b = FD_U16X8(rgb[1][c] + col);
            chosen[c] = _mm256_blendv_epi8(
                _mm256_blendv_epi8(a, b, second), _mm256_srli_epi32(_mm256_add_epi32(a, b), 1), equal);
        }
        // Pixels as 64-bit words (red | green << 16 | blue << 32), in order, the fourth sample kept.
        const __m256i rg = _mm256_or_si256(chosen[0], _mm256_slli_epi32(chosen[1], 16));
        const __m256i low = _mm256_unpacklo_epi32(rg, chosen[2]), high = _mm256_unpackhi_epi32(rg, chosen[2]);
        uint16_t *p = out + 4 * col;
        const __m256i old0 = _mm256_loadu_si256((const __m256i *)(const void *)p),
                      old1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 16));
        _mm256_storeu_si256((__m256i *)(void *)p, _mm256_blend_epi16(_mm256_permute2x128_si256(low, high, 0x20), old0, 0x88));
        _mm256_storeu_si256(
            (__m256i *)(void *)(p + 16), _mm256_blend_epi16(_mm256_permute2x128_si256(low, high, 0x31), old1, 0x88));
    }
    return col;
}
#endif

// Each step of a row over its columns, the AVX2 path on the even-aligned bulk when it runs.
static void green_row(const FDRawAHD *k, const Rings *rings, int row) {
    int col = 2;
#if FD_X86_SIMD
    if (k->avx2) col = green_avx2(k, rings, row, col, k->width - 2);
#endif
    green_cols(k, rings, row, col, k->width - 2);
}
static void colour_row(const FDRawAHD *k, const Rings *rings, int row) {
    int col = 3;
#if FD_X86_SIMD
    if (k->avx2) {
        colour_cols(k, rings, row, 3, 4);
        col = colour_avx2(k, rings, row, 4, k->width - 3);
    }
#endif
    colour_cols(k, rings, row, col, k->width - 3);
}
static void homogeneity_row(const FDRawAHD *k, const Rings *rings, int row) {
    int col = 4;
#if FD_X86_SIMD
    if (k->avx2) col = homogeneity_avx2(rings, row, col, k->width - 4);
#endif
    homogeneity_cols(rings, row, col, k->width - 4);
}
static void choose_row(const FDRawAHD *k, const Rings *rings, int row, uint16_t *picture) {
    int col = 5;
#if FD_X86_SIMD
    if (k->avx2) {
        choose_cols(k, rings, row, 5, 6, picture);
        col = choose_avx2(k, rings, row, 6, k->width - 5, picture);
    }
#endif
    choose_cols(k, rings, row, col, k->width - 5, picture);
}

// LibRaw's border_interpolate(5) for the pixels of row `row` in columns [from, to).
static void border_pixels(const FDRawAHD *k, const Rings *rings, int row, int from, int to, uint16_t *picture) {
    const int width = k->width, height = k->height;
    uint16_t *out = picture + (size_t)row * (size_t)width * 4;
    for (int col = from; col < to; col++) {
        unsigned sum[3] = {0, 0, 0}, count[3] = {0, 0, 0};
        for (int y = row - 1; y <= row + 1; y++) {
            if (y < 0 || y >= height) continue;
            const uint16_t *m = rings->m[y & 7];
            for (int x = col - 1; x <= col + 1; x++) {
                if (x < 0 || x >= width) continue;
                const int f = colour_at(k->filters, y, x);
                sum[f] += m[x];
                count[f]++;
            }
        }
        const int own = colour_at(k->filters, row, col);
        for (int c = 0; c < 3; c++)
            if (c != own && count[c]) out[4 * col + c] = (uint16_t)(sum[c] / count[c]);
    }
}

int fd_raw_ahd_run_band(FDRawAHD *ahd, uint16_t *picture, int band) {
    if (!ahd || !picture || band < 0 || band >= ahd->bands) return -1;
    const int width = ahd->width, height = ahd->height;
    const int start = ahd->band_start[band], end = ahd->band_start[band + 1];
    const uint16_t *halo = ahd->halos + (size_t)width * 2 * HALO * (size_t)band;
    Rings rings;
    if (rings_make(&rings, width) != 0) return -1;
    for (int step = start - HALO; step < end + HALO; step++) {
        // The mosaic row `step`: this band's own rows from the picture, its neighbours' from the halos.
        if (step >= 0 && step < height) {
            uint16_t *m = rings.m[step & 7];
            if (step >= start && step < end) {
                const uint16_t *from = picture + (size_t)step * (size_t)width * 4;
                for (int col = 0; col < width; col++) m[col] = from[4 * col + colour_at(ahd->filters, step, col)];
            } else {
                const int i = step < start ? step - (start - HALO) : HALO + step - end;
                memcpy(m, halo + (size_t)i * (size_t)width, sizeof(uint16_t) * (size_t)width);
            }
        }
        const int g = step - 2, l = step - 3, h = step - 4, o = step - 5;
        if (g >= 2 && g < height - 2 && g >= start - 3 && g < end + 3) green_row(ahd, &rings, g);
        if (l >= 3 && l < height - 3 && l >= start - 2 && l < end + 2) colour_row(ahd, &rings, l);
        if (h >= 4 && h < height - 4 && h >= start - 1 && h < end + 1) homogeneity_row(ahd, &rings, h);
        if (o >= start && o < end) {
            if (o >= 5 && o < height - 5) {
                choose_row(ahd, &rings, o, picture);
                border_pixels(ahd, &rings, o, 0, 5, picture);
                border_pixels(ahd, &rings, o, width - 5, width, picture);
            } else {
                border_pixels(ahd, &rings, o, 0, width, picture);
            }
        }
    }
    free(rings.block);
    return 0;
}
