// The test process's default parallelization width: three tests per core.
//
// Swift Testing runs every test of a process at once unless it is given a width (an
// `--experimental-maximum-parallelization-width` argument or this environment variable). This
// suite starts dozens of live servers, real `edugo-server` processes and CLI runs; unbounded on two
// cores, 31 of its 1,359 tests ran past their time limits (plain `swift test`, 2026-11-28) because
// tests that started first waited on the CPU behind a thousand others. A width set by the caller
// (argument or environment) is kept; this only names the default before Swift Testing reads it.

#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>

#include "EduGoTestDefaults.h"

__attribute__((constructor)) static void edugo_default_parallelization_width(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char width[24];
    snprintf(width, sizeof width, "%ld", (cores > 0 ? cores : 1) * 3);
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
}
