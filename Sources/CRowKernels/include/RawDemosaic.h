// AHD demosaicing (adaptive homogeneity-directed) of a three-colour Bayer raw in LibRaw's working
// picture, giving exactly the samples of LibRaw 0.20's own AHD (`user_qual` 3), border included: the
// same integer interpolation in two directions, the same CIELab conversion (float, with LibRaw's cube
// root table and camera matrix), the same homogeneity counts and choice. It streams rows through small
// buffers instead of LibRaw's 512-pixel tiles, and runs in bands that can run on separate threads.
#ifndef FRAMEDIAL_RAW_DEMOSAIC_H
#define FRAMEDIAL_RAW_DEMOSAIC_H

#include <stddef.h>
#include <stdint.h>

typedef struct FDRawAHD FDRawAHD;

// Prepares the demosaicing of `picture`: LibRaw's working picture after its pre_interpolate step
// (width × height pixels of four 16-bit samples; each pixel's sample of its own colour is the raw
// code, scaled and white-balanced), `filters` LibRaw's packed pattern at that point, `camera` LibRaw's
// rgb_cam (camera colours to sRGB, row-major 3 × 3), in `bands` bands of rows (fewer when the picture
// is short). Copies the rows each band reads from its neighbours' rows, so call it before any band
// runs. Returns NULL when the pattern is not a Bayer pattern of red, green and blue with two greens in
// each 2 × 2 block on a diagonal (LibRaw's pattern after pre_interpolate for such sensors), when the
// picture is smaller than 16 × 16, or when out of memory.
FDRawAHD *fd_raw_ahd_prepare(
    const uint16_t *picture, int width, int height, unsigned filters, const float *camera, int bands);

// The number of bands `ahd` runs in.
int fd_raw_ahd_bands(const FDRawAHD *ahd);

// Demosaics the rows of band `band` of `picture` (the picture given to fd_raw_ahd_prepare) in place:
// the first three samples of each pixel become red, green and blue, the fourth is left. Bands may run
// at the same time on separate threads, each once. Returns 0, or -1 when out of memory (that band's
// rows untouched) or for a band out of range.
int fd_raw_ahd_run_band(FDRawAHD *ahd, uint16_t *picture, int band);

// Releases `ahd` (NULL is allowed).
void fd_raw_ahd_free(FDRawAHD *ahd);

#endif
