// libvips's format modules, loaded by FrameDial when they are first needed rather than at start-up.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

#include "FrameKernels.h"

static int fd_compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int fd_vips_load_modules(void) {
    Dl_info info;
    if (!dladdr((void *)vips_init, &info) || !info.dli_fname) return -1;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) return -1;
    char folder[4096];
    int written = snprintf(folder, sizeof folder, "%.*s/vips-modules-%d.%d",
        (int)(slash - info.dli_fname), info.dli_fname, VIPS_MAJOR_VERSION, VIPS_MINOR_VERSION);
    if (written <= 0 || (size_t)written >= sizeof folder) return -1;
    GDir *dir = g_dir_open(folder, 0, NULL);
    if (!dir) return -1;
    // Sorted, so that modules register in the same order on every run.
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(dir)))
        if (g_str_has_suffix(name, "." G_MODULE_SUFFIX)) g_ptr_array_add(names, g_strdup(name));
    g_dir_close(dir);
    g_ptr_array_sort(names, (GCompareFunc)fd_compare_names);
    int loaded = 0;
    for (guint i = 0; i < names->len; i++) {
        char *path = g_build_filename(folder, (const char *)g_ptr_array_index(names, i), NULL);
        GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
        g_free(path);
        if (!module) continue;
        // Each module registers its operations when opened; they cannot be unregistered.
        g_module_make_resident(module);
        loaded++;
    }
    g_ptr_array_free(names, TRUE);
    return loaded;
}
