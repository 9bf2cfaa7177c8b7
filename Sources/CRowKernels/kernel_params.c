// fd_kernel_params_free (see colour_kernels.h).

#include "colour_kernels.h"

#include <stdlib.h>

void fd_kernel_params_free(KernelParams *params) {
    if (!params) return;
    free(params->tables);
    free(params->output_tables);
    free(params->lut8_blocks);
    free(params->mix_terms);
    free(params->mix_tables);
    free(params->mix_codes);
    free(params);
}
