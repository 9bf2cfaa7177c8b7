/*
 * framedial.h — the C API of FrameDial (libFrameDialC.so).
 *
 * FrameDial turns Camera Control values (exposure bias, white balance, contrast, saturation, tint,
 * filter, zoom) into a libvips graph and applies it to still files and to video frames in memory. This
 * header is the whole C surface: control states from JSON, a still render from file to file, a batch
 * of files planned on one machine and written on any (as `framedial batch`), a frame renderer from a
 * caller's buffer into a caller's buffer, and the versions.
 *
 * Build:  cc app.c $(pkg-config --cflags --libs framedial)
 *         (after scripts/install.sh PREFIX; PKG_CONFIG_PATH=PREFIX/lib/pkgconfig)
 *
 * Conventions, for every function:
 * - It returns a framedial_status; FRAMEDIAL_OK (0) means it did what it was asked.
 * - Its last argument `char **error` may be NULL. When it is not, *error is set to NULL on success and,
 *   on failure, to a one-line message (UTF-8, NUL-terminated) that the caller owns and releases with
 *   framedial_string_free(). No exception, Swift error or abort crosses this boundary: null pointers,
 *   freed handles, bad sizes, bad JSON and short buffers are errors.
 * - Out-pointers are set to NULL (or left untouched for numbers) on failure.
 * - Handles (framedial_state, framedial_frame_renderer) are opaque numbers, not addresses: never
 *   dereference one. Each is issued once and never again, so a freed handle stays dead even after new
 *   handles are made, and passing it is FRAMEDIAL_ERROR_ARGUMENT ("... freed already"), as is a handle of
 *   the other kind or a pointer FrameDial did not issue. Each is released with its own free function,
 *   which accepts NULL and ignores anything that is not a live handle of its kind (a double free is
 *   harmless and cannot release another handle).
 * - Strings in are NUL-terminated UTF-8; FrameDial does not keep them after the call returns.
 * - libvips starts once, on the first call that needs it; the process may use libvips itself too.
 *
 * Threads: every function may be called from any thread. A state handle is immutable and may be shared
 * between threads. A frame renderer renders on one thread at a time (a second thread calling
 * framedial_frame_renderer_render at the same moment gets FRAMEDIAL_ERROR_BUSY; give each thread its own
 * renderer), while framedial_frame_renderer_set_state may be called from any thread at any time, also
 * while a frame renders. Functions hold no global lock while they render, so several threads render
 * several frames (each with its own renderer) or stills at once. libvips's worker threads per frame
 * default to the number of cores (as `framedial frames`); VIPS_CONCURRENCY sets another number.
 */
#ifndef FRAMEDIAL_H
#define FRAMEDIAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call returns. */
typedef enum framedial_status {
  FRAMEDIAL_OK = 0,
  /* A null pointer, a handle that is not live, a bad size, row stride or pixel format, a short or
   * overlapping frame buffer, an empty path. */
  FRAMEDIAL_ERROR_ARGUMENT = 1,
  /* The control state JSON is not valid JSON, not an object, or has an unknown key or a value of the
   * wrong type or out of range (the message names the line, column, key, value and allowed range). */
  FRAMEDIAL_ERROR_STATE = 2,
  /* The still options JSON of framedial_apply, or a batch's request, settings, work item or run JSON,
   * is wrong (the message names the option). */
  FRAMEDIAL_ERROR_OPTIONS = 3,
  /* Rendering failed: an input that cannot be read or decoded, an output that cannot be written, an
   * image over the pixel limit, a libvips failure. The message is `framedial apply`'s. */
  FRAMEDIAL_ERROR_RENDER = 4,
  /* The frame renderer is rendering on another thread. */
  FRAMEDIAL_ERROR_BUSY = 5
} framedial_status;

/* An immutable control state. Made by framedial_state_from_json, released by framedial_state_free. */
typedef struct framedial_state framedial_state;

/* A frame renderer for one frame size and pixel format. Made by framedial_frame_renderer_new,
 * released by framedial_frame_renderer_free. */
typedef struct framedial_frame_renderer framedial_frame_renderer;

/* Releases a string FrameDial returned (error messages, framedial_state_to_json). NULL is ignored. */
void framedial_string_free(char *string);

/* ---- versions ---- */

/* Sets *framedial to FrameDial's version ("0.1.0") and *libvips to libvips's ("8.14.1"). Either pointer
 * may be NULL (not both). The strings are static: do not free them. */
framedial_status framedial_version(const char **framedial, const char **libvips, char **error);

/* ---- control states ---- */

/* Parses `json`, a JSON object with any subset of the state keys of docs/control-state.md
 * ("exposureBias", "zoom", "zoomCenter", "contrast", "saturation", "whiteBalance" (alias "temperature"),
 * "tint", "filter", "grid") over the identity state, e.g. {"exposureBias": 0.5, "whiteBalance": "tungsten"}; "{}" is the
 * identity state. Strict JSON: a key given twice or a trailing comma is an error; values are never
 * clamped. On success *state is a new handle the caller releases with framedial_state_free. */
framedial_status framedial_state_from_json(const char *json, framedial_state **state, char **error);

/* Sets *json to the state as a JSON object with every key, sorted (framedial_state_from_json reads it
 * back to the same state). The caller frees *json with framedial_string_free. */
framedial_status framedial_state_to_json(const framedial_state *state, char **json, char **error);

/* Releases a state. A renderer that was given the state keeps its own copy. */
void framedial_state_free(framedial_state *state);

/* ---- stills ---- */

/* Renders the image file at `input_path` with `state` (NULL: the identity state, which copies the
 * pixels) and writes it to `output_path`, exactly as `framedial apply IN -o OUT` with the same state and
 * options does (bit-identical output): oriented upright, in the picture's own colour space (Display P3
 * and Adobe RGB kept, with its ICC profile) unless "profile" says otherwise, EXIF kept with orientation
 * 1 and without its thumbnail, XMP and IPTC kept unless "strip" or "stripLocation" is true; the output's folder is created when missing; the output is written
 * to a temporary file and renamed when complete, so a failure leaves no partial file and an existing
 * output untouched; an output that is the input file is refused. An existing output is replaced only
 * with "overwrite": true, as `framedial apply` needs --overwrite: without it the call fails with
 * FRAMEDIAL_ERROR_RENDER ("OUT exists; set "overwrite": true to replace it") before any work.
 *
 * `options_json` (NULL or "" for the defaults) is a JSON object of:
 *   "quality":    1 … 100 (default: a JPEG from a JPEG keeps its quality; JPEG 90, WebP 90, HEIC 60,
 *                 AVIF 80 otherwise), as --quality
 *   "format":     "jpeg", "png", "webp", "tiff", "heic", "avif" (default: from the output's extension;
 *                 one that disagrees with the extension is an error), as --format
 *   "fit":        "DEVICE[:auto|portrait|landscape]", a screen of `framedial devices`, as --fit
 *   "fitMode":    "cover" (default) or "contain", as --fit-mode
 *   "size":       N or "N" or "WxH": fit inside that box, as --size (not with "fit")
 *   "enlarge":    true to enlarge pictures smaller than "size", as --enlarge
 *   "pixelLimit": refuse larger images (default 100000000), as --pixel-limit
 *   "background": [r, g, b] (0 … 255) that transparency is flattened onto for JPEG (default white)
 *   "profile":    "keep" (default), "srgb", "p3" or the path of an RGB .icc file, as --profile
 *   "strip":      true to drop EXIF, XMP and IPTC (the ICC profile stays), as --strip
 *   "stripLocation": true to drop only GPS and location fields, as --strip-location (not with "strip")
 *   "effort":     "fast" (default), "balanced" or "small": HEIC encoding time against size, as --effort
 *   "failOn":     "none", "truncated", "error" or "warning" (default): how much damage a decoder may
 *                 report before the input is refused, as --fail-on (but a HEIC picture that FFmpeg's
 *                 HEVC decoder finds damaged is refused at every level: libheif's decoder is the
 *                 process's, shared by every call)
 *   "hdrPhoto":   "keep" (default: an HDR photo's gain map kept in a HEIC output, edited with the
 *                 photo) or "drop" (left out of every output, without a warning), as --hdr-photo
 *   "overwrite":  true to replace an existing output, as --overwrite (framedial_apply only: a batch's
 *                 request has its own "overwrite")
 * Rendering uses libvips's worker threads; several threads may call this at once. */
framedial_status framedial_apply(const char *input_path, const char *output_path,
                                 const framedial_state *state, const char *options_json,
                                 char **error);

/* framedial_apply, and on success sets *report_json (free it with framedial_string_free; NULL when the
 * call fails) to a JSON object of what was written: {"output": PATH, "width": W, "height": H,
 * "format": "jpeg", "warnings": [...]}. "warnings" holds what could not be carried over, one sentence
 * each naming the input, as `framedial apply` prints them (an HDR photo's gain map left out of a JPEG,
 * transparency flattened onto a JPEG's background, metadata the format cannot hold); framedial_apply
 * drops them. A NULL `report_json` is FRAMEDIAL_ERROR_ARGUMENT, before any work. */
framedial_status framedial_apply_report(const char *input_path, const char *output_path,
                                        const framedial_state *state, const char *options_json,
                                        char **report_json, char **error);

/* Sets *keys to the keys `options_json` takes (all but "overwrite", framedial_apply's own), a JSON
 * array in the order messages list them: ["quality", "format", "fit", …]. The string is static: do not
 * free it. */
framedial_status framedial_still_option_keys(const char **keys, char **error);

/* ---- batches ---- */

/* A batch runs in three steps, so its files can be written by other threads, processes or machines
 * that see the same paths (a shared file system): framedial_batch_plan on one machine, then
 * framedial_batch_render for each write anywhere, in any order, at once, then framedial_batch_finish
 * over the file events. Together they do what `framedial batch` does, with the same walk, names,
 * collision rules, formats, records and resume (bit-identical outputs).
 *
 * Plans a batch. `request_json` is a JSON object of:
 *   "inputs":   the input folders and files (required), as `framedial batch IN…`
 *   "output":   the output folder (required), as -o
 *   "preset":   a preset's name, and "state": an object of control values over it (the identity state
 *               without them), as --preset and --state
 *   "options":  an object of framedial_apply's still options ("format" for every file, without its
 *               check against an output name)
 *   "name":     the output name template (default "{stem}.{ext}"), as --name
 *   "recursive" (default true), "followSymlinks", "includeHidden", "allowOutputInside", "overwrite",
 *   "dryRun", "keepTime": true or false, as --no-recursive and the flags of the same names
 *   "pairs":    "both", "raw" or "jpeg", and "shard": "I/N", as --pairs and --shard
 * Unless "dryRun" is true it creates the output folder and merges its records (as a run of `framedial
 * batch` does). *plan_json is a JSON object the caller frees with framedial_string_free:
 *   "batch":    the settings every framedial_batch_render call of this batch is given (pass it as the
 *               same text each time: a process keeps one runner per text)
 *   "finished": the file events of the files that need no writing (skipped, ignored, refused, planned
 *               in a dry run), each as `framedial batch --json` prints it plus "format"
 *   "writes":   the work items to render: "input", "output", "relativePath", "outputRelativePath",
 *               "format", "redoes" (and "reason"), in the batch's order. */
framedial_status framedial_batch_plan(const char *request_json, char **plan_json, char **error);

/* Renders and writes one work item of a plan (`write_json`, one object of "writes") with the batch's
 * settings (`batch_json`, the plan's "batch"): the output is written to a temporary file, recorded in
 * the output folder's records and renamed into place when whole, so a process killed mid-file leaves no
 * partial output in place (its hidden temporary file is removed by framedial_batch_finish when it ran
 * on the finishing machine, else by the next batch written there). `concurrent` (1 … 256) is how many files this machine
 * renders at once: libvips's threads per image are the cores divided by it (VIPS_CONCURRENCY wins),
 * and with more than one a failed file is tried again alone for its own error message. *event_json is
 * the file event (`framedial batch --json`'s, plus "format"); a file that cannot be rendered is an
 * event with "status": "failed" and FRAMEDIAL_OK, not an error. */
framedial_status framedial_batch_render(const char *batch_json, const char *write_json, int32_t concurrent,
                                        char **event_json, char **error);

/* Finishes a run described by `run_json`: {"files": [file events], "notStarted": N, "seconds": S,
 * "notesSlowFormats": true|false, "folders": [paths]} ("files" required). Removes the temporary files
 * that processes of this machine that have ended (a worker killed mid-file) left in "folders" (the
 * folders the run wrote into), and sets *summary_json to `framedial batch --json`'s summary event:
 * "notStarted" > 0 marks the run interrupted; "notesSlowFormats" adds the "note" on HEIC and AVIF
 * outputs, as `framedial batch` without --format does. */
framedial_status framedial_batch_finish(const char *run_json, char **summary_json, char **error);

/* ---- frames ---- */

/* Makes a renderer for frames of `width` × `height` pixels (each side 1 … 32768, at most 100 million
 * pixels) in `pixel_format`: "rgb24" (3 bytes a pixel: R, G, B), "rgba" or "bgra" (4 bytes; alpha is
 * passed through unchanged), 8 bits a channel, or "rgb48le" (6 bytes) and "rgba64le" (8 bytes), 16 bits a
 * channel in little-endian order; ffmpeg's names. Rows are `row_stride` bytes apart in both
 * the input and the output buffers (0: packed, width × bytes per pixel); padding bytes are neither read
 * nor written. The renderer starts with the identity state. On success *renderer is a new handle the
 * caller releases with framedial_frame_renderer_free. */
framedial_status framedial_frame_renderer_new(int32_t width, int32_t height, const char *pixel_format,
                                              size_t row_stride, framedial_frame_renderer **renderer,
                                              char **error);

/* Sets the state the following frames render with (NULL: the identity state); the renderer keeps a
 * copy, so `state` may be freed at once. Callable from any thread at any time, also while another thread
 * renders: a frame reads the latest state when it starts, and a change that arrives before half of a
 * frame is computed restarts that frame with the new state (at most once a frame), as `framedial
 * frames` does. */
framedial_status framedial_frame_renderer_set_state(framedial_frame_renderer *renderer,
                                                    const framedial_state *state, char **error);

/* Renders the frame at `input` into `output`. Both buffers hold a frame laid out as the renderer's
 * (size, pixel format, row stride): at least row_stride × (height − 1) + width × bytes per pixel bytes,
 * which `input_size` and `output_size` say (shorter is an error, longer is fine); they must not overlap.
 * The output is bit-identical to `framedial frames` for the same state and frames. Blocks until the
 * frame is complete (libvips's worker threads compute it); `input` is only read. When `generation` is
 * not NULL it receives the number of the state used (0 for the state at creation, one more for every
 * set_state that changed it). One thread at a time per renderer (see Threads above). */
framedial_status framedial_frame_renderer_render(framedial_frame_renderer *renderer, const void *input,
                                                 size_t input_size, void *output, size_t output_size,
                                                 uint64_t *generation, char **error);

/* Releases a renderer. Freeing it while another thread renders with it is safe: the frame completes and
 * the renderer goes away after it. */
void framedial_frame_renderer_free(framedial_frame_renderer *renderer);

#ifdef __cplusplus
}
#endif

#endif /* FRAMEDIAL_H */
