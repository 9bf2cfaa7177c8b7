/*
 * Exercises every function of framedial.h and its errors; built with -fsanitize=address and run by
 * Tests/FrameDialCTests. Usage: capi_test FRAMEDIAL_BINARY SAMPLE_IMAGE SCRATCH_FOLDER
 * Compares stills with `framedial apply` and frames with `framedial frames` byte for byte, and renders
 * 1,000 frames while another thread moves the exposure slider.
 */
#include "framedial.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

static int failures = 0;
static int checks = 0;

#define CHECK(condition, ...)                                                                       \
  do {                                                                                              \
    checks++;                                                                                       \
    if (!(condition)) {                                                                             \
      failures++;                                                                                   \
      fprintf(stderr, "FAILED line %d: %s: ", __LINE__, #condition);                              \
      fprintf(stderr, __VA_ARGS__);                                                                 \
      fprintf(stderr, "\n");                                                                        \
    }                                                                                               \
  } while (0)

static const char *framedial_binary;
static const char *sample;
static const char *scratch;

static char *path_in_scratch(const char *name) {
  size_t length = strlen(scratch) + strlen(name) + 2;
  char *path = malloc(length);
  snprintf(path, length, "%s/%s", scratch, name);
  return path;
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
  *size = fread(bytes, 1, (size_t)length, file);
  fclose(file);
  return bytes;
}

static void write_file(const char *path, const void *bytes, size_t size) {
  FILE *file = fopen(path, "wb");
  fwrite(bytes, 1, size, file);
  fclose(file);
}

static int files_equal(const char *a, const char *b) {
  size_t size_a = 0, size_b = 0;
  unsigned char *bytes_a = read_file(a, &size_a), *bytes_b = read_file(b, &size_b);
  int equal = bytes_a && bytes_b && size_a == size_b && size_a > 0 &&
              memcmp(bytes_a, bytes_b, size_a) == 0;
  free(bytes_a);
  free(bytes_b);
  return equal;
}

static int exists(const char *path) {
  struct stat info;
  return stat(path, &info) == 0;
}

static int run(const char *command) {
  int status = system(command);
  return status == 0;
}

/* Frees *error and says whether the call failed with `expected` and a message containing `part`. */
static int failed_with(framedial_status status, framedial_status expected, char **error,
                       const char *part) {
  int good = status == expected && *error != NULL && strstr(*error, part) != NULL;
  if (!good)
    fprintf(stderr, "  status %d (expected %d), message: %s (expected to contain \"%s\")\n", status,
            expected, *error ? *error : "(null)", part);
  framedial_string_free(*error);
  *error = NULL;
  return good;
}

/* A copy of the value of `key` in the JSON object `json` (depth one only; objects, arrays, strings,
 * numbers), or NULL. Enough for the plans FrameDial writes: keys sorted, no spaces. */
static char *json_member(const char *json, const char *key) {
  size_t key_length = strlen(key);
  int depth = 0, in_string = 0;
  for (const char *p = json; *p; p++) {
    if (in_string) {
      if (*p == '\\') p++;
      else if (*p == '"') in_string = 0;
      continue;
    }
    if (*p == '{' || *p == '[') depth++;
    else if (*p == '}' || *p == ']') depth--;
    else if (*p == '"') {
      if (depth == 1 && strncmp(p + 1, key, key_length) == 0 && p[key_length + 1] == '"' &&
          p[key_length + 2] == ':') {
        const char *start = p + key_length + 3, *end = start;
        int inner = 0, quoted = 0;
        for (; *end; end++) {
          if (quoted) {
            if (*end == '\\') end++;
            else if (*end == '"') quoted = 0;
            continue;
          }
          if (*end == '"') quoted = 1;
          else if (*end == '{' || *end == '[') inner++;
          else if (*end == '}' || *end == ']') {
            if (inner == 0) break;
            if (--inner == 0) { end++; break; }
          } else if (*end == ',' && inner == 0) break;
        }
        size_t length = (size_t)(end - start);
        char *value = malloc(length + 1);
        memcpy(value, start, length);
        value[length] = '\0';
        return value;
      }
      in_string = 1;
    }
  }
  return NULL;
}

/* A batch planned, written and finished through the C API, against `framedial batch`: the same output,
 * bytes and all; a rerun finds it done; bad requests and work items are errors. */
static void test_batch(void) {
  char *error = NULL, *plan = NULL, *event = NULL, *summary = NULL;
  char *in = path_in_scratch("batch-in"), *out = path_in_scratch("batch-out"),
       *cli = path_in_scratch("batch-cli");
  char command[4096];
  snprintf(command, sizeof command, "mkdir -p '%s' && cp '%s' '%s/a.jpg' && '%s' batch '%s' -o '%s' --set ev=0.5 --jobs 1 >/dev/null",
           in, sample, in, framedial_binary, in, cli);
  CHECK(run(command), "framedial batch");
  char request[4096];
  snprintf(request, sizeof request,
           "{\"inputs\": [\"%s\"], \"output\": \"%s\", \"state\": {\"exposureBias\": 0.5}}", in, out);
  CHECK(framedial_batch_plan(request, &plan, &error) == FRAMEDIAL_OK && plan != NULL, "plan: %s",
        error ? error : "");
  char *settings = plan ? json_member(plan, "batch") : NULL;
  char *writes = plan ? json_member(plan, "writes") : NULL;
  CHECK(settings && writes && writes[0] == '[' && strchr(writes, '{'), "plan: %s", plan ? plan : "");
  if (settings && writes && strchr(writes, '{')) {
    char *write = strdup(strchr(writes, '{'));
    write[strlen(write) - 1] = '\0'; /* the array's closing bracket */
    CHECK(framedial_batch_render(settings, write, 1, &event, &error) == FRAMEDIAL_OK && event &&
              strstr(event, "\"status\":\"done\""),
          "render: %s %s", event ? event : "", error ? error : "");
    char *made = path_in_scratch("batch-out/a.jpg"), *expected = path_in_scratch("batch-cli/a.jpg");
    CHECK(files_equal(made, expected), "the batch's output differs from framedial batch's");
    char *none = NULL;
    CHECK(failed_with(framedial_batch_render(settings, "{\"input\": \"x\"}", 1, &none, &error),
                      FRAMEDIAL_ERROR_OPTIONS, &error, "must be a non-empty string") && !none,
          "work item without its paths");
    CHECK(failed_with(framedial_batch_render(settings, write, 0, &none, &error),
                      FRAMEDIAL_ERROR_ARGUMENT, &error, "concurrent must be 1") && !none, "concurrent 0");
    CHECK(failed_with(framedial_batch_render("{}", write, 1, &none, &error),
                      FRAMEDIAL_ERROR_OPTIONS, &error, "\"output\"") && !none, "settings without output");
    size_t length = (event ? strlen(event) : 0) + 64;
    char *run_json = malloc(length);
    snprintf(run_json, length, "{\"files\": [%s], \"seconds\": 2}", event ? event : "");
    CHECK(framedial_batch_finish(run_json, &summary, &error) == FRAMEDIAL_OK && summary &&
              strstr(summary, "\"done\":1") && strstr(summary, "\"imagesPerSecond\":0.5"),
          "finish: %s %s", summary ? summary : "", error ? error : "");
    free(run_json);
    free(made);
    free(expected);
    free(write);
  }
  framedial_string_free(plan);
  framedial_string_free(event);
  framedial_string_free(summary);
  plan = NULL;
  CHECK(framedial_batch_plan(request, &plan, &error) == FRAMEDIAL_OK && plan &&
            strstr(plan, "\"writes\":[]") && strstr(plan, "\"reason\":\"same-settings\""),
        "rerun: %s", plan ? plan : "");
  framedial_string_free(plan);
  CHECK(failed_with(framedial_batch_plan("{\"inputs\": []}", &plan, &error), FRAMEDIAL_ERROR_OPTIONS,
                    &error, "\"inputs\""), "no inputs");
  CHECK(failed_with(framedial_batch_plan("{\"inputs\": [\"a\"], \"output\": \"b\", \"jobs\": 2}", &plan,
                                         &error), FRAMEDIAL_ERROR_OPTIONS, &error, "unknown batch key \"jobs\""),
        "unknown key");
  CHECK(failed_with(framedial_batch_finish("{\"files\": [{\"status\": \"done\"}]}", &summary, &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "file event 1"), "event without a path");
  free(settings);
  free(writes);
  free(in);
  free(out);
  free(cli);
}

/* The keys of the still options JSON, as framedial_apply and a batch's "options" take them. */
static void test_still_option_keys(void) {
  const char *keys = NULL;
  char *error = NULL;
  CHECK(framedial_still_option_keys(&keys, &error) == FRAMEDIAL_OK && error == NULL, "option keys");
  CHECK(keys && strcmp(keys, "[\"quality\", \"format\", \"fit\", \"fitMode\", \"size\", \"enlarge\", "
                             "\"pixelLimit\", \"background\", \"profile\", \"strip\", \"stripLocation\", "
                             "\"effort\", \"failOn\", \"hdrPhoto\"]") == 0,
        "option keys %s", keys);
  CHECK(failed_with(framedial_still_option_keys(NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error, "null"),
        "null keys pointer");
}

static void test_version(void) {
  const char *framedial = NULL, *libvips = NULL;
  char *error = NULL;
  CHECK(framedial_version(&framedial, &libvips, &error) == FRAMEDIAL_OK && error == NULL, "version");
  CHECK(framedial && strchr(framedial, '.'), "framedial version %s", framedial);
  CHECK(libvips && strncmp(libvips, "8.", 2) == 0, "libvips version %s", libvips);
  CHECK(framedial_version(&framedial, NULL, NULL) == FRAMEDIAL_OK, "one pointer, no error pointer");
  CHECK(failed_with(framedial_version(NULL, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error, "null"),
        "both null");
  /* The version `framedial --version` prints (then the kernels' code path). */
  char command[4096], expected[256];
  snprintf(expected, sizeof expected, "framedial %s (libvips %s, kernels ", framedial, libvips);
  snprintf(command, sizeof command, "'%s' --version | head -c %zu | grep -qxF '%s'", framedial_binary,
           strlen(expected), expected);
  CHECK(run(command), "framedial --version prints %s", expected);
  printf("versions: FrameDial %s, libvips %s\n", framedial, libvips);
}

static void test_states(void) {
  framedial_state *state = NULL;
  char *error = NULL, *json = NULL;
  CHECK(framedial_state_from_json("{\"exposureBias\": 0.5, \"whiteBalance\": \"tungsten\"}", &state,
                                  &error) == FRAMEDIAL_OK && state && !error, "valid state");
  CHECK(framedial_state_to_json(state, &json, &error) == FRAMEDIAL_OK && json, "to json");
  CHECK(json && strstr(json, "\"exposureBias\":0.5") && strstr(json, "\"whiteBalance\":\"tungsten\"") &&
            strstr(json, "\"contrast\":1"), "json %s", json ? json : "(null)");
  /* Read back: the same JSON again. */
  framedial_state *again = NULL;
  char *json_again = NULL;
  CHECK(framedial_state_from_json(json, &again, NULL) == FRAMEDIAL_OK, "read back");
  CHECK(framedial_state_to_json(again, &json_again, NULL) == FRAMEDIAL_OK &&
            strcmp(json, json_again) == 0, "round trip %s", json_again ? json_again : "(null)");
  framedial_string_free(json);
  framedial_string_free(json_again);
  framedial_state_free(again);

  framedial_state *bad = (framedial_state *)0x1;
  CHECK(failed_with(framedial_state_from_json("{\"exposureBias\": 9}", &bad, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "out of range") && bad == NULL, "range");
  CHECK(failed_with(framedial_state_from_json("{\"exposureBais\": 1}", &bad, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "exposureBias"), "unknown key, did you mean");
  CHECK(failed_with(framedial_state_from_json("{\"zoom\": 2,\n  \"zoom\": 3}", &bad, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "state JSON:2:"), "key twice, with its line");
  CHECK(failed_with(framedial_state_from_json("{\"filter\": \"noir\",}", &bad, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "state JSON:1:"), "trailing comma");
  CHECK(failed_with(framedial_state_from_json("[1, 2]", &bad, &error), FRAMEDIAL_ERROR_STATE, &error,
                    "object"), "not an object");
  CHECK(failed_with(framedial_state_from_json("{\"tint\": \"x\"}", &bad, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "tint"), "wrong type");
  CHECK(failed_with(framedial_state_from_json("", &bad, &error), FRAMEDIAL_ERROR_STATE, &error,
                    "state JSON"), "empty text");
  CHECK(failed_with(framedial_state_from_json("{\"tint\": 1\xff}", &bad, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "UTF-8"), "invalid UTF-8");
  CHECK(failed_with(framedial_state_from_json(NULL, &bad, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "null"), "null json");
  CHECK(failed_with(framedial_state_from_json("{}", NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "null"), "null out-pointer");
  CHECK(framedial_state_from_json("{", &bad, NULL) == FRAMEDIAL_ERROR_STATE, "no error pointer");
  CHECK(failed_with(framedial_state_to_json(NULL, &json, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "null"), "to_json null state");
  CHECK(failed_with(framedial_state_to_json(state, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "null"), "to_json null out");
  framedial_state_free(state);
  /* A freed handle is refused, not read; freeing it again or freeing NULL does nothing. */
  CHECK(failed_with(framedial_state_to_json(state, &json, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "not a live"), "freed handle");
  framedial_state_free(state);
  framedial_state_free(NULL);
  framedial_string_free(NULL);
}

/* A freed handle stays dead when a new handle is made right after it (malloc would hand the new object
 * the same address), and freeing it again leaves the new handle alone. */
static void test_handles_after_free(void) {
  int reused_state = 0, reused_renderer = 0, double_free_hit = 0;
  char *error = NULL, *json = NULL;
  for (int k = 0; k < 200; k++) {
    framedial_state *old = NULL, *fresh = NULL;
    framedial_state_from_json("{\"tint\": 10}", &old, NULL);
    framedial_state_free(old);
    framedial_state_from_json("{\"tint\": -20}", &fresh, NULL);
    if (old == fresh) reused_state++;
    framedial_status status = framedial_state_to_json(old, &json, &error);
    if (status == FRAMEDIAL_OK || !error || !strstr(error, "freed already")) reused_state += 1000;
    framedial_string_free(json);
    framedial_string_free(error);
    json = NULL;
    error = NULL;
    framedial_state_free(old); /* a double free */
    if (framedial_state_to_json(fresh, &json, NULL) != FRAMEDIAL_OK || !strstr(json, "\"tint\":-20"))
      double_free_hit++;
    framedial_string_free(json);
    json = NULL;
    framedial_state_free(fresh);

    framedial_frame_renderer *first = NULL, *second = NULL;
    framedial_frame_renderer_new(4, 2, "rgb24", 0, &first, NULL);
    framedial_frame_renderer_free(first);
    framedial_frame_renderer_new(4, 2, "rgb24", 0, &second, NULL);
    unsigned char in[24] = {0}, out[24] = {0};
    status = framedial_frame_renderer_render(first, in, sizeof in, out, sizeof out, NULL, &error);
    if (first == second || status == FRAMEDIAL_OK || !error || !strstr(error, "freed already"))
      reused_renderer++;
    framedial_string_free(error);
    error = NULL;
    framedial_frame_renderer_free(first); /* a double free */
    if (framedial_frame_renderer_render(second, in, sizeof in, out, sizeof out, NULL, NULL) !=
        FRAMEDIAL_OK)
      double_free_hit++;
    framedial_frame_renderer_free(second);
  }
  CHECK(reused_state == 0, "a freed state acted as the next state (%d of 200)", reused_state);
  CHECK(reused_renderer == 0, "a freed renderer acted as the next renderer (%d of 200)",
        reused_renderer);
  CHECK(double_free_hit == 0, "a double free released another live handle (%d)", double_free_hit);
  /* A pointer FrameDial never issued, even one to real memory, is refused. */
  int memory = 0;
  CHECK(failed_with(framedial_state_to_json((framedial_state *)&memory, &json, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "not a handle FrameDial made"), "stray pointer");
  framedial_state_free((framedial_state *)&memory); /* ignored */
}

/* Values no person types: a NUL in a key, megabytes of an unknown value, a million unknown keys. */
static void test_hostile_values(void) {
  framedial_state *state = NULL;
  char *error = NULL;
  /* The NUL is shown, and the message goes on after it. */
  CHECK(failed_with(framedial_state_from_json("{\"exposure\\u0000Bias\": 1}", &state, &error),
                    FRAMEDIAL_ERROR_STATE, &error, "\"exposure\\0Bias\"; known keys are"),
        "NUL in a key");
  size_t size = 2000000;
  char *json = malloc(size + 32);
  strcpy(json, "{\"filter\": \"");
  memset(json + strlen(json), 'x', size);
  strcpy(json + 12 + size, "\"}");
  framedial_status status = framedial_state_from_json(json, &state, &error);
  CHECK(status == FRAMEDIAL_ERROR_STATE && error && strlen(error) < 300 &&
            strstr(error, "2000000 characters"),
        "2 MB value: %zu bytes of message", error ? strlen(error) : 0);
  framedial_string_free(error);
  error = NULL;
  /* A million unknown keys: the first is reported. */
  size_t keys = 1000000, at = 0;
  char *many = malloc(keys * 16 + 16);
  many[at++] = '{';
  for (size_t k = 0; k < keys; k++)
    at += (size_t)sprintf(many + at, "%s\"k%zu\":1", k ? "," : "", k);
  strcpy(many + at, "}");
  status = framedial_state_from_json(many, &state, &error);
  CHECK(status == FRAMEDIAL_ERROR_STATE && error && strstr(error, "\"k0\"") && !strstr(error, "k1"),
        "a million unknown keys: %.200s", error ? error : "(null)");
  framedial_string_free(error);
  error = NULL;
  free(many);
  free(json);
}

/* Auto white balance on a frame more than 64 times wider than high. */
static void test_wide_auto_white_balance(void) {
  framedial_state *state = NULL;
  char *error = NULL;
  framedial_status status;
  framedial_frame_renderer *renderer = NULL;
  CHECK(framedial_frame_renderer_new(1920, 29, "rgb24", 0, &renderer, NULL) == FRAMEDIAL_OK, "wide");
  framedial_state_from_json("{\"whiteBalance\": \"auto\"}", &state, NULL);
  framedial_frame_renderer_set_state(renderer, state, NULL);
  size_t bytes = 1920 * 29 * 3;
  unsigned char *in = malloc(bytes), *out = malloc(bytes);
  for (size_t k = 0; k < bytes; k += 3) {
    unsigned level = 60 + (unsigned)(k / 3 % 25) * 6;
    in[k] = (unsigned char)(level + 40);
    in[k + 1] = (unsigned char)level;
    in[k + 2] = (unsigned char)(level - 40);
  }
  status = framedial_frame_renderer_render(renderer, in, bytes, out, bytes, NULL, &error);
  CHECK(status == FRAMEDIAL_OK, "auto white balance on 1920×29: %s", error ? error : "");
  framedial_string_free(error);
  long red = 0, blue = 0;
  for (size_t k = 0; k < bytes; k += 3) {
    red += out[k];
    blue += out[k + 2];
  }
  CHECK(status == FRAMEDIAL_OK && labs(red - blue) / (1920 * 29) < 20, "balanced: red %ld blue %ld",
        red, blue);
  free(in);
  free(out);
  framedial_state_free(state);
  framedial_frame_renderer_free(renderer);
}

/* Renders `sample` with the API and with `framedial apply`, and compares the files. */
static void compare_still(const char *state_json, const char *options_json, const char *cli_options,
                          const char *extension) {
  static int count = 0;
  char name[64], command[8192];
  count++;
  snprintf(name, sizeof name, "still-%d-api.%s", count, extension);
  char *api = path_in_scratch(name);
  snprintf(name, sizeof name, "still-%d-cli.%s", count, extension);
  char *cli = path_in_scratch(name);
  snprintf(name, sizeof name, "still-%d.json", count);
  char *state_file = path_in_scratch(name);
  write_file(state_file, state_json, strlen(state_json));
  framedial_state *state = NULL;
  char *error = NULL;
  CHECK(framedial_state_from_json(state_json, &state, &error) == FRAMEDIAL_OK, "state %s", state_json);
  framedial_status status = framedial_apply(sample, api, state, options_json, &error);
  CHECK(status == FRAMEDIAL_OK && error == NULL, "apply %s: %s", state_json, error ? error : "");
  framedial_string_free(error);
  snprintf(command, sizeof command, "'%s' apply '%s' -o '%s' --state '%s' %s > /dev/null",
           framedial_binary, sample, cli, state_file, cli_options);
  CHECK(run(command), "%s", command);
  CHECK(files_equal(api, cli), "still %s %s differs from framedial apply", state_json,
        options_json ? options_json : "");
  framedial_state_free(state);
  free(api);
  free(cli);
  free(state_file);
}

static void test_apply(void) {
  compare_still("{\"exposureBias\": 0.5, \"whiteBalance\": \"tungsten\", \"contrast\": 1.2}", NULL, "",
                "png");
  compare_still("{\"filter\": \"vivid\", \"zoom\": 1.5, \"zoomCenter\": [0.4, 0.5]}",
                "{\"size\": \"96x64\", \"quality\": 80}", "--size 96x64 --quality 80", "jpg");
  compare_still("{\"saturation\": 1.3}", "{\"fit\": \"iphone-16-pro:landscape\", \"fitMode\": \"contain\"}",
                "--fit iphone-16-pro:landscape --fit-mode contain", "webp");
  compare_still("{}", "{\"format\": \"png\", \"size\": 50, \"enlarge\": true}", "--size 50 --enlarge",
                "png");

  /* The identity state, from NULL: FrameDial's output for the default state. */
  char *out = path_in_scratch("identity.png"), *cli = path_in_scratch("identity-cli.png");
  char command[4096], *error = NULL;
  CHECK(framedial_apply(sample, out, NULL, "", &error) == FRAMEDIAL_OK, "identity: %s",
        error ? error : "");
  snprintf(command, sizeof command, "'%s' apply '%s' -o '%s' > /dev/null", framedial_binary, sample, cli);
  CHECK(run(command) && files_equal(out, cli), "identity still differs from framedial apply");
  free(cli);

  /* A folder that is missing is created, as `framedial apply` does. */
  char *nested = path_in_scratch("new/folder/out.png");
  CHECK(framedial_apply(sample, nested, NULL, NULL, NULL) == FRAMEDIAL_OK && exists(nested),
        "nested output");
  free(nested);

  /* Errors, none of which leaves an output behind. */
  char *missing_out = path_in_scratch("never.png");
  char *missing_in = path_in_scratch("no-such-input.jpg");
  char *text_file = path_in_scratch("not-an-image.jpg");
  write_file(text_file, "hello", 5);
  CHECK(failed_with(framedial_apply(missing_in, missing_out, NULL, NULL, &error), FRAMEDIAL_ERROR_RENDER,
                    &error, "no-such-input.jpg"), "missing input");
  CHECK(failed_with(framedial_apply(text_file, missing_out, NULL, NULL, &error), FRAMEDIAL_ERROR_RENDER,
                    &error, "not-an-image.jpg"), "not an image");
  CHECK(failed_with(framedial_apply(sample, sample, NULL, NULL, &error), FRAMEDIAL_ERROR_RENDER, &error,
                    "input"), "output onto the input");
  CHECK(failed_with(framedial_apply(NULL, missing_out, NULL, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT,
                    &error, "input path"), "null input");
  CHECK(failed_with(framedial_apply(sample, NULL, NULL, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "output path"), "null output");
  CHECK(failed_with(framedial_apply(sample, "", NULL, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "empty"), "empty output");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"quality\": 0}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "quality"), "quality 0");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"quality\": 90.5}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "whole number"), "quality 90.5");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"qualty\": 90}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "unknown option \"qualty\""), "unknown option");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"format\": \"jpeg\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "disagrees"), "format against extension");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"format\": \"bmp\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "bmp"), "unknown format");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"size\": \"10x\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "10x"), "bad size");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"size\": 5, \"fit\": \"iphone-16\"}",
                                    &error), FRAMEDIAL_ERROR_OPTIONS, &error, "give one"), "size and fit");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"fit\": \"iphone16pro\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "iphone-16-pro"), "unknown device, nearest name");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"fitMode\": \"cover\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "needs"), "fitMode without fit");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"enlarge\": true}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "needs"), "enlarge without size");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"background\": [1, 2]}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "background"), "bad background");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"profile\": \"wide\"}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "not a profile"), "unknown profile");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL,
                                    "{\"strip\": true, \"stripLocation\": true}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "already drops"), "strip and stripLocation");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"quality\": 90", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "options JSON"), "options not JSON");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "7", &error), FRAMEDIAL_ERROR_OPTIONS,
                    &error, "object"), "options not an object");
  CHECK(failed_with(framedial_apply(sample, missing_out, NULL, "{\"pixelLimit\": 100}", &error),
                    FRAMEDIAL_ERROR_RENDER, &error, "limit"), "pixel limit");
  CHECK(failed_with(framedial_apply(sample, missing_out, (const framedial_state *)out, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "not a live"), "a pointer that is not a state");
  CHECK(!exists(missing_out), "a failed apply left %s", missing_out);

  /* An existing output is replaced only with "overwrite": true, as `framedial apply` needs -y. */
  char *kept = path_in_scratch("kept.png");
  write_file(kept, "mine", 4);
  CHECK(failed_with(framedial_apply(sample, kept, NULL, "{\"quality\": 80}", &error),
                    FRAMEDIAL_ERROR_RENDER, &error, "kept.png exists; set \"overwrite\": true to replace it"),
        "existing output");
  size_t kept_size = 0;
  unsigned char *kept_bytes = read_file(kept, &kept_size);
  CHECK(kept_size == 4 && memcmp(kept_bytes, "mine", 4) == 0, "the existing output was changed");
  free(kept_bytes);
  CHECK(failed_with(framedial_apply(sample, kept, NULL, "{\"overwrite\": 1}", &error),
                    FRAMEDIAL_ERROR_OPTIONS, &error, "\"overwrite\" must be true or false"),
        "overwrite not a boolean");
  CHECK(failed_with(framedial_apply(sample, sample, NULL, "{\"overwrite\": true}", &error),
                    FRAMEDIAL_ERROR_RENDER, &error, "onto the input"), "overwrite onto the input");
  CHECK(framedial_apply(sample, kept, NULL, "{\"overwrite\": true}", &error) == FRAMEDIAL_OK &&
            files_equal(kept, out), "overwrite: %s", error ? error : "");
  framedial_string_free(error);
  error = NULL;
  free(kept);
  free(out);
  free(missing_out);
  free(missing_in);
  free(text_file);
}

/* True when `message` is one line that ends at a visible character: the newlines libraries end their
 * messages with (libheif's, libvips's) never reach a caller. */
static int one_line(const char *message) {
  size_t length = message ? strlen(message) : 0;
  return length > 0 && strchr(message, '\n') == NULL && strchr(message, '\r') == NULL &&
         message[length - 1] != ' ';
}

/* Messages of real failures that libraries give with newlines: a HEIC cut short (libheif's message,
 * inside libvips's), and a HEIC written where files may not grow past 20 KB (as on a full disk). */
static void test_messages(void) {
  char *heic = path_in_scratch("whole.heic"), *cut = path_in_scratch("cut.heic");
  char *out = path_in_scratch("from-cut.png"), *error = NULL;
  CHECK(framedial_apply(sample, heic, NULL, NULL, &error) == FRAMEDIAL_OK, "heic: %s",
        error ? error : "");
  framedial_string_free(error);
  error = NULL;
  size_t size = 0;
  unsigned char *bytes = read_file(heic, &size);
  CHECK(bytes != NULL && size > 3000, "the HEIC written");
  if (bytes) write_file(cut, bytes, size / 3);
  free(bytes);
  framedial_status status = framedial_apply(cut, out, NULL, NULL, &error);
  CHECK(status == FRAMEDIAL_ERROR_RENDER && error && strstr(error, "outside of file bounds") &&
            one_line(error), "cut HEIC: [%s]", error ? error : "(null)");
  framedial_string_free(error);
  error = NULL;

  char *full = path_in_scratch("full-disk.heic");
  struct rlimit before, limited;
  getrlimit(RLIMIT_FSIZE, &before);
  limited = before;
  limited.rlim_cur = 20 * 1024;
  void (*action)(int) = signal(SIGXFSZ, SIG_IGN);
  setrlimit(RLIMIT_FSIZE, &limited);
  status = framedial_apply(sample, full, NULL, NULL, &error);
  setrlimit(RLIMIT_FSIZE, &before);
  signal(SIGXFSZ, action);
  CHECK(status == FRAMEDIAL_ERROR_RENDER && one_line(error) && !exists(full),
        "HEIC on a full disk: [%s]", error ? error : "(null)");
  framedial_string_free(error);
  free(heic);
  free(cut);
  free(out);
  free(full);
}

/* A frame of pseudo-random colours (the same for the same seed). */
static void fill_frame(unsigned char *frame, size_t size, unsigned seed) {
  unsigned value = seed * 2654435761u + 1;
  for (size_t i = 0; i < size; i++) {
    value = value * 1103515245u + 12345u;
    frame[i] = (unsigned char)(value >> 16);
  }
}

enum { frame_width = 160, frame_height = 90 };

/* Renders `count` frames with the API and with `framedial frames`, and compares them. */
static void compare_frames(const char *pixel_format, int bands, const char *state_json) {
  const size_t frame_size = (size_t)frame_width * frame_height * bands;
  const int count = 5;
  unsigned char *input = malloc(frame_size * count), *output = malloc(frame_size * count);
  for (int k = 0; k < count; k++) fill_frame(input + k * frame_size, frame_size, (unsigned)k + 1);
  framedial_frame_renderer *renderer = NULL;
  framedial_state *state = NULL;
  char *error = NULL;
  CHECK(framedial_frame_renderer_new(frame_width, frame_height, pixel_format, 0, &renderer, &error) ==
            FRAMEDIAL_OK && renderer, "new %s: %s", pixel_format, error ? error : "");
  CHECK(framedial_state_from_json(state_json, &state, NULL) == FRAMEDIAL_OK, "state");
  CHECK(framedial_frame_renderer_set_state(renderer, state, &error) == FRAMEDIAL_OK, "set state");
  framedial_state_free(state);
  for (int k = 0; k < count; k++) {
    uint64_t generation = 99;
    CHECK(framedial_frame_renderer_render(renderer, input + k * frame_size, frame_size,
                                          output + k * frame_size, frame_size, &generation,
                                          &error) == FRAMEDIAL_OK && generation == 1,
          "render %d: %s", k, error ? error : "");
  }
  framedial_frame_renderer_free(renderer);
  char *in_path = path_in_scratch("frames-in.raw"), *out_path = path_in_scratch("frames-api.raw");
  char *cli_path = path_in_scratch("frames-cli.raw"), *state_path = path_in_scratch("frames.json");
  write_file(in_path, input, frame_size * count);
  write_file(out_path, output, frame_size * count);
  write_file(state_path, state_json, strlen(state_json));
  char command[8192];
  snprintf(command, sizeof command,
           "'%s' frames --size %dx%d --pix-fmt %s --state '%s' < '%s' > '%s'", framedial_binary,
           frame_width, frame_height, pixel_format, state_path, in_path, cli_path);
  CHECK(run(command), "%s", command);
  CHECK(files_equal(out_path, cli_path), "frames %s %s differ from framedial frames", pixel_format,
        state_json);
  free(in_path);
  free(out_path);
  free(cli_path);
  free(state_path);
  free(input);
  free(output);
}

/* Rows with padding give the pixels of packed rows and leave the padding as it was. */
static void test_row_stride(void) {
  const int bands = 4, stride = frame_width * bands + 20;
  const size_t packed_size = (size_t)frame_width * frame_height * bands;
  const size_t strided_size = (size_t)stride * frame_height;
  unsigned char *packed_in = malloc(packed_size), *packed_out = malloc(packed_size);
  unsigned char *strided_in = malloc(strided_size), *strided_out = malloc(strided_size);
  fill_frame(packed_in, packed_size, 7);
  memset(strided_in, 0, strided_size);
  memset(strided_out, 0xAB, strided_size);
  for (int row = 0; row < frame_height; row++)
    memcpy(strided_in + (size_t)row * stride, packed_in + (size_t)row * frame_width * bands,
           (size_t)frame_width * bands);
  framedial_frame_renderer *packed = NULL, *strided = NULL;
  framedial_state *state = NULL;
  CHECK(framedial_state_from_json("{\"filter\": \"chrome\", \"zoom\": 2}", &state, NULL) == FRAMEDIAL_OK,
        "state");
  CHECK(framedial_frame_renderer_new(frame_width, frame_height, "bgra", 0, &packed, NULL) == FRAMEDIAL_OK,
        "packed");
  CHECK(framedial_frame_renderer_new(frame_width, frame_height, "bgra", stride, &strided, NULL) ==
            FRAMEDIAL_OK, "strided");
  framedial_frame_renderer_set_state(packed, state, NULL);
  framedial_frame_renderer_set_state(strided, state, NULL);
  framedial_state_free(state);
  /* The smallest strided buffer is one row's padding short of height × stride. */
  const size_t needed = strided_size - (stride - frame_width * bands);
  CHECK(framedial_frame_renderer_render(packed, packed_in, packed_size, packed_out, packed_size, NULL,
                                        NULL) == FRAMEDIAL_OK, "packed render");
  CHECK(framedial_frame_renderer_render(strided, strided_in, needed, strided_out, needed, NULL, NULL) ==
            FRAMEDIAL_OK, "strided render");
  int same = 1, padding_kept = 1;
  for (int row = 0; row < frame_height; row++) {
    const unsigned char *line = strided_out + (size_t)row * stride;
    same &= memcmp(line, packed_out + (size_t)row * frame_width * bands, (size_t)frame_width * bands) == 0;
    for (int i = frame_width * bands; i < stride && row < frame_height - 1; i++) padding_kept &= line[i] == 0xAB;
  }
  CHECK(same, "strided rows differ from packed rows");
  CHECK(padding_kept, "padding was written");
  framedial_frame_renderer_free(packed);
  framedial_frame_renderer_free(strided);
  free(packed_in);
  free(packed_out);
  free(strided_in);
  free(strided_out);
}

static void test_frame_errors(void) {
  framedial_frame_renderer *renderer = (framedial_frame_renderer *)0x1;
  char *error = NULL;
  CHECK(failed_with(framedial_frame_renderer_new(64, 36, "yuv420p", 0, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "rgb24") && renderer == NULL, "unknown format");
  CHECK(failed_with(framedial_frame_renderer_new(64, 36, NULL, 0, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "null"), "null format");
  CHECK(failed_with(framedial_frame_renderer_new(0, 36, "rgb24", 0, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "0×36"), "zero width");
  CHECK(failed_with(framedial_frame_renderer_new(-5, 36, "rgb24", 0, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "-5×36"), "negative width");
  CHECK(failed_with(framedial_frame_renderer_new(32768, 32768, "rgb24", 0, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "pixels"), "too many pixels");
  CHECK(failed_with(framedial_frame_renderer_new(64, 36, "rgb24", 100, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "row stride 100"), "stride shorter than a row");
  CHECK(failed_with(framedial_frame_renderer_new(64, 36, "rgb24", (size_t)-1, &renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "row stride"), "huge stride");
  CHECK(failed_with(framedial_frame_renderer_new(64, 36, "rgb24", 0, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "null"), "null out-pointer");
  CHECK(framedial_frame_renderer_new(64, 36, "RGB24", 0, &renderer, &error) == FRAMEDIAL_OK, "new");
  const size_t size = 64 * 36 * 3;
  unsigned char *input = calloc(size, 1), *output = calloc(size + 16, 1);
  CHECK(failed_with(framedial_frame_renderer_render(renderer, NULL, size, output, size, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "input frame"), "null input");
  CHECK(failed_with(framedial_frame_renderer_render(renderer, input, size, NULL, size, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "output frame"), "null output");
  CHECK(failed_with(framedial_frame_renderer_render(renderer, input, size - 1, output, size, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "needs 6912"), "short input");
  CHECK(failed_with(framedial_frame_renderer_render(renderer, input, size, output, 10, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "too short"), "short output");
  CHECK(failed_with(framedial_frame_renderer_render(renderer, output, size, output + 16, size, NULL,
                                                    &error), FRAMEDIAL_ERROR_ARGUMENT, &error, "overlap"),
        "overlapping buffers");
  CHECK(failed_with(framedial_frame_renderer_render(NULL, input, size, output, size, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "null"), "null renderer");
  CHECK(failed_with(framedial_frame_renderer_set_state(NULL, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT,
                    &error, "null"), "set_state on null");
  framedial_state *state = NULL;
  framedial_state_from_json("{\"contrast\": 1.5}", &state, NULL);
  /* A state handle is not a renderer handle, nor the other way round. */
  CHECK(failed_with(framedial_frame_renderer_render((framedial_frame_renderer *)state, input, size, output,
                                                    size, NULL, &error), FRAMEDIAL_ERROR_ARGUMENT, &error,
                    "not a live renderer"), "state as renderer");
  CHECK(failed_with(framedial_frame_renderer_set_state(renderer, (framedial_state *)renderer, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "not a live state"), "renderer as state");
  framedial_frame_renderer_free((framedial_frame_renderer *)state); /* ignored: not a renderer */
  CHECK(framedial_frame_renderer_set_state(renderer, state, NULL) == FRAMEDIAL_OK, "state still live");
  uint64_t generation = 0;
  CHECK(framedial_frame_renderer_render(renderer, input, size, output, size, &generation, NULL) ==
            FRAMEDIAL_OK && generation == 1, "render after the errors");
  /* Setting the same state again keeps the generation; NULL goes back to the identity. */
  framedial_frame_renderer_set_state(renderer, state, NULL);
  framedial_frame_renderer_render(renderer, input, size, output, size, &generation, NULL);
  CHECK(generation == 1, "same state, generation %llu", (unsigned long long)generation);
  CHECK(framedial_frame_renderer_set_state(renderer, NULL, NULL) == FRAMEDIAL_OK, "identity");
  memset(input, 77, size);
  framedial_frame_renderer_render(renderer, input, size, output, size, &generation, NULL);
  CHECK(generation == 2 && memcmp(input, output, size) == 0, "identity copies the frame");
  framedial_state_free(state);
  framedial_frame_renderer_free(renderer);
  CHECK(failed_with(framedial_frame_renderer_render(renderer, input, size, output, size, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "not a live"), "freed renderer");
  framedial_frame_renderer_free(renderer);
  framedial_frame_renderer_free(NULL);
  free(input);
  free(output);
}

/* ---- two threads on one renderer: the second is told it is busy ---- */

struct busy_run {
  framedial_frame_renderer *renderer;
  unsigned char *input, *output;
  size_t size;
  atomic_int done;
  atomic_int busy, other_failures;
};

static void *render_many(void *argument) {
  struct busy_run *run = argument;
  for (int k = 0; k < 200 && !atomic_load(&run->done); k++) {
    framedial_status status = framedial_frame_renderer_render(run->renderer, run->input, run->size,
                                                              run->output, run->size, NULL, NULL);
    if (status == FRAMEDIAL_ERROR_BUSY) atomic_fetch_add(&run->busy, 1);
    else if (status != FRAMEDIAL_OK) atomic_fetch_add(&run->other_failures, 1);
  }
  atomic_store(&run->done, 1);
  return NULL;
}

static void test_busy(void) {
  struct busy_run run = {0};
  run.size = 1920 * 1080 * 3;
  run.input = calloc(run.size, 1);
  run.output = calloc(run.size, 1);
  unsigned char *own_output = calloc(run.size, 1);
  framedial_state *state = NULL;
  framedial_state_from_json("{\"saturation\": 1.4}", &state, NULL);
  framedial_frame_renderer_new(1920, 1080, "rgb24", 0, &run.renderer, NULL);
  framedial_frame_renderer_set_state(run.renderer, state, NULL);
  framedial_state_free(state);
  pthread_t thread;
  pthread_create(&thread, NULL, render_many, &run);
  /* Both threads render on the one renderer until either has been told it is busy. */
  int busy = 0, other_failures = 0;
  char *error = NULL;
  while (!atomic_load(&run.done) && !busy && atomic_load(&run.busy) == 0) {
    framedial_status status = framedial_frame_renderer_render(run.renderer, run.input, run.size,
                                                              own_output, run.size, NULL, &error);
    if (status == FRAMEDIAL_ERROR_BUSY) busy = strstr(error, "another thread") != NULL;
    else other_failures += status != FRAMEDIAL_OK;
    framedial_string_free(error);
    error = NULL;
  }
  atomic_store(&run.done, 1);
  pthread_join(thread, NULL);
  CHECK(busy || atomic_load(&run.busy) > 0, "neither thread was told the renderer is busy");
  CHECK(other_failures == 0 && atomic_load(&run.other_failures) == 0, "renders failed otherwise");
  framedial_frame_renderer_free(run.renderer);
  free(run.input);
  free(run.output);
  free(own_output);
}

/* ---- 1,000 frames while another thread moves the exposure slider ---- */

enum { slider_positions = 50 };

struct slider {
  framedial_frame_renderer *renderer;
  framedial_state *states[slider_positions];
  atomic_int stop;
  atomic_int moves;
};

static void *move_slider(void *argument) {
  struct slider *slider = argument;
  struct timespec pause = {0, 300000}; /* 0.3 ms */
  for (int move = 0; !atomic_load(&slider->stop); move++) {
    framedial_frame_renderer_set_state(slider->renderer, slider->states[move % slider_positions], NULL);
    atomic_fetch_add(&slider->moves, 1);
    nanosleep(&pause, NULL);
  }
  return NULL;
}

static void test_slider_during_frames(void) {
  enum { frames = 1000, inputs = 4 };
  const size_t size = (size_t)frame_width * frame_height * 3;
  struct slider slider = {0};
  for (int k = 0; k < slider_positions; k++) {
    char json[96];
    /* −1 EV … +1 EV and back: neighbours always differ, so every move is a new generation. */
    snprintf(json, sizeof json, "{\"exposureBias\": %.2f, \"whiteBalance\": \"cloudy\"}",
             -1.0 + 2.0 * k / (slider_positions - 1));
    CHECK(framedial_state_from_json(json, &slider.states[k], NULL) == FRAMEDIAL_OK, "%s", json);
  }
  unsigned char *input = malloc(size * inputs), *output = malloc(size), *expected = malloc(size);
  for (int k = 0; k < inputs; k++) fill_frame(input + k * size, size, 100u + (unsigned)k);
  framedial_frame_renderer *reference = NULL;
  framedial_frame_renderer_new(frame_width, frame_height, "rgb24", 0, &slider.renderer, NULL);
  framedial_frame_renderer_new(frame_width, frame_height, "rgb24", 0, &reference, NULL);
  pthread_t thread;
  pthread_create(&thread, NULL, move_slider, &slider);
  /* Frames start once the slider has moved, and go on for at least `frames` frames and until it has
     moved 20 times more (at most 100 times as many frames): on a shared machine the slider's thread
     may wait for a core longer than `frames` frames take. */
  const struct timespec wait = {0, 100000}; /* 0.1 ms */
  while (atomic_load(&slider.moves) == 0) nanosleep(&wait, NULL);
  const int moves_before = atomic_load(&slider.moves);
  int mismatches = 0, failed = 0, generations_seen = 0, rendered = 0;
  uint64_t last_generation = 0;
  for (int k = 0; k < frames || (atomic_load(&slider.moves) < moves_before + 20 && k < 100 * frames);
       k++, rendered++) {
    const unsigned char *frame = input + (k % inputs) * size;
    uint64_t generation = 0;
    if (framedial_frame_renderer_render(slider.renderer, frame, size, output, size, &generation, NULL) !=
        FRAMEDIAL_OK) {
      failed++;
      continue;
    }
    if (generation != last_generation) generations_seen++;
    last_generation = generation;
    /* Generation g is the g-th move: position (g − 1) mod 50; generation 0 the identity. */
    framedial_frame_renderer_set_state(
        reference, generation == 0 ? NULL : slider.states[(generation - 1) % slider_positions], NULL);
    framedial_frame_renderer_render(reference, frame, size, expected, size, NULL, NULL);
    mismatches += memcmp(output, expected, size) != 0;
  }
  atomic_store(&slider.stop, 1);
  pthread_join(thread, NULL);
  CHECK(failed == 0, "%d of %d frames failed", failed, rendered);
  CHECK(mismatches == 0, "%d of %d frames are not the frame of the state they report", mismatches, rendered);
  CHECK(generations_seen >= 10, "the slider moved %d times, seen in %d frames", atomic_load(&slider.moves),
        generations_seen);
  printf("slider: %d frames, %d slider moves, %d state changes seen by frames\n", rendered,
         atomic_load(&slider.moves), generations_seen);
  for (int k = 0; k < slider_positions; k++) framedial_state_free(slider.states[k]);
  framedial_frame_renderer_free(slider.renderer);
  framedial_frame_renderer_free(reference);
  free(input);
  free(output);
  free(expected);
}

/* CRC-32 of PNG chunks (bit by bit; the test's PNG is small). */
static uint32_t crc32_of(const unsigned char *bytes, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; i++) {
    crc ^= bytes[i];
    for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc ^ 0xFFFFFFFFu;
}

static size_t put32(unsigned char *at, uint32_t value) {
  at[0] = value >> 24, at[1] = value >> 16, at[2] = value >> 8, at[3] = value;
  return 4;
}

/* One PNG chunk of `type` and `data` at `at`; returns its size. */
static size_t put_chunk(unsigned char *at, const char *type, const unsigned char *data, size_t size) {
  size_t n = put32(at, (uint32_t)size);
  memcpy(at + n, type, 4);
  memcpy(at + n + 4, data, size);
  n += put32(at + n + 4 + size, crc32_of(at + n, 4 + size)) + 4 + size;
  return n;
}

/* Writes an 8 x 8 RGBA PNG, half transparent (its zlib stream one stored deflate block). */
static void write_transparent_png(const char *path) {
  unsigned char raw[8 * 33], idat[2 + 5 + sizeof raw + 4], png[1024];
  for (int y = 0; y < 8; y++) {
    raw[y * 33] = 0;
    for (int x = 0; x < 8; x++) {
      unsigned char *pixel = raw + y * 33 + 1 + 4 * x;
      pixel[0] = 200, pixel[1] = 40, pixel[2] = 40, pixel[3] = 128;
    }
  }
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < sizeof raw; i++) a = (a + raw[i]) % 65521, b = (b + a) % 65521;
  size_t n = 0;
  idat[n++] = 0x78, idat[n++] = 0x01, idat[n++] = 0x01;
  idat[n++] = sizeof raw & 0xFF, idat[n++] = sizeof raw >> 8;
  idat[n++] = ~sizeof raw & 0xFF, idat[n++] = (~sizeof raw >> 8) & 0xFF;
  memcpy(idat + n, raw, sizeof raw);
  n += sizeof raw;
  n += put32(idat + n, (b << 16) | a);
  const unsigned char header[13] = {0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0};
  size_t size = 0;
  memcpy(png, "\x89PNG\r\n\x1a\n", 8);
  size = 8;
  size += put_chunk(png + size, "IHDR", header, sizeof header);
  size += put_chunk(png + size, "IDAT", idat, n);
  size += put_chunk(png + size, "IEND", NULL, 0);
  write_file(path, png, size);
}

/* framedial_apply_report: what was written, and the warnings `framedial apply` prints. */
static void test_apply_report(void) {
  char *png = path_in_scratch("transparent.png"), *jpeg = path_in_scratch("transparent.jpg");
  char *plain = path_in_scratch("report-plain.png");
  write_transparent_png(png);
  char *report = NULL, *error = NULL;
  CHECK(framedial_apply_report(png, jpeg, NULL, NULL, &report, &error) == FRAMEDIAL_OK && report,
        "report: %s", error ? error : "");
  char expected[4096];
  snprintf(expected, sizeof expected,
           "\"warnings\":[\"%s: its transparency was flattened onto white (jpeg has no alpha; "
           "--background sets the colour)\"]",
           png);
  CHECK(report && strstr(report, expected) && strstr(report, "\"format\":\"jpeg\"") &&
            strstr(report, "\"width\":8") && strstr(report, "\"height\":8"),
        "report %s", report ? report : "(null)");
  framedial_string_free(report);
  report = NULL;
  CHECK(framedial_apply_report(sample, plain, NULL, NULL, &report, &error) == FRAMEDIAL_OK && report &&
            strstr(report, "\"warnings\":[]"),
        "plain report %s", report ? report : "(null)");
  framedial_string_free(report);
  char *never = path_in_scratch("never-reported.png");
  CHECK(failed_with(framedial_apply_report(sample, never, NULL, NULL, NULL, &error),
                    FRAMEDIAL_ERROR_ARGUMENT, &error, "report") && !exists(never),
        "a NULL report pointer");
  free(png);
  free(jpeg);
  free(plain);
  free(never);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s FRAMEDIAL_BINARY SAMPLE_IMAGE SCRATCH_FOLDER\n", argv[0]);
    return 2;
  }
  framedial_binary = argv[1];
  sample = argv[2];
  scratch = argv[3];
  test_version();
  test_still_option_keys();
  test_states();
  test_handles_after_free();
  test_hostile_values();
  test_wide_auto_white_balance();
  test_apply();
  test_apply_report();
  test_messages();
  test_batch();
  compare_frames("rgb24", 3, "{\"exposureBias\": 0.5, \"whiteBalance\": \"tungsten\", \"contrast\": 1.2}");
  compare_frames("rgba", 4, "{\"filter\": \"vivid\", \"zoom\": 1.5}");
  compare_frames("bgra", 4, "{\"whiteBalance\": 3200, \"tint\": 20, \"saturation\": 0.7}");
  test_row_stride();
  test_frame_errors();
  test_busy();
  test_slider_during_frames();
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
