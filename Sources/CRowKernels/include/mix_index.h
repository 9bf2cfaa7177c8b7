// The index into a mix kernel's output tables of a mixed linear value: the one rule the mix kernel
// (mix.c), the raw colour pass (raw_rows.c) and CToneMap's mixed rows share, so all give the same
// codes. C only; not part of the CRowKernels module Swift imports.
#ifndef FRAMEDIAL_MIX_INDEX_H
#define FRAMEDIAL_MIX_INDEX_H

#include <math.h>

// The codes depend on separate multiplies and adds: no fused multiply-add, on any CPU.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// `value` (its square root when `square_root`) × `scale`, rounded half up, clamped to 0 … `last`;
// NaN gives 0.
static inline int fd_mix_output_index(float value, float scale, int last, int square_root) {
    if (square_root) value = value > 0.0f ? sqrtf(value) : 0.0f;
    float position = value * scale + 0.5f;
    if (!(position > 0.0f)) return 0;  // also catches NaN
    if (position >= (float)last) return last;
    return (int)position;
}

#endif
