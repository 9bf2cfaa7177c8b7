// The compile-time side of the SIMD paths of every kernel, here and in CFrameKernels (C only; not part of
// the CRowKernels module Swift imports): whether this build has the x86-64 vector code at all, and the
// function attributes of the AVX2 and AVX-512 code. Which path runs is chosen at run time by
// fd_simd_path() (SIMDPath.h, simd_path.c).
#ifndef FRAMEDIAL_SIMD_SUPPORT_H
#define FRAMEDIAL_SIMD_SUPPORT_H

#include "SIMDPath.h"

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#include <immintrin.h>
#define FD_X86_SIMD 1
// Functions of the FD_SIMD_AVX2 path: call them only when fd_simd_path() >= FD_SIMD_AVX2.
#define FD_AVX2 __attribute__((target("avx2")))
// Functions of the FD_SIMD_AVX512 path: call them only when fd_simd_path() == FD_SIMD_AVX512.
#define FD_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#else
#define FD_X86_SIMD 0
#endif

#include <stdint.h>

// The byte shuffles (pshufb controls) that split 8 packed RGB pixels of 16-bit samples, held in three
// 128-bit registers (samples 0 … 23), into three channel registers: word k of channel c is sample
// 3k + c, and split[c][r] takes channel c's words out of register r, zeroing the rest (0x80), so that
// OR-ing a channel's three shuffles gives it whole. For the 16-bit mix and the tone mapper's AVX2 paths.
static inline void fd_rgb16_split_shuffles(uint8_t split[3][3][16]) {
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            for (int i = 0; i < 16; i++) split[c][r][i] = 0x80;
    for (int sample = 0; sample < 24; sample++) {
        const int c = sample % 3, k = sample / 3, r = sample / 8, word = sample % 8;
        split[c][r][2 * k] = (uint8_t)(2 * word);
        split[c][r][2 * k + 1] = (uint8_t)(2 * word + 1);
    }
}

#if FD_X86_SIMD
// The three channels of the 8 packed RGB pixels of 16-bit samples at `from` (24 samples), widened to
// 32-bit lanes: lane k of channels[c] is sample 3k + c. `split` holds fd_rgb16_split_shuffles's
// shuffles, loaded into registers.
FD_AVX2 static inline void fd_rgb16_split8(const uint16_t *from, __m128i split[3][3], __m256i channels[3]) {
    const __m128i registers[3] = { _mm_loadu_si128((const __m128i *)(const void *)from),
        _mm_loadu_si128((const __m128i *)(const void *)(from + 8)),
        _mm_loadu_si128((const __m128i *)(const void *)(from + 16)) };
    for (int c = 0; c < 3; c++)
        channels[c] = _mm256_cvtepu16_epi32(_mm_or_si128(
            _mm_or_si128(_mm_shuffle_epi8(registers[0], split[c][0]), _mm_shuffle_epi8(registers[1], split[c][1])),
            _mm_shuffle_epi8(registers[2], split[c][2])));
}
#endif

#endif
