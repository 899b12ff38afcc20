/* version.c -- hs_version, from the one place the version is written: the
 * HS_VERSION_* macros of halfspace.h. */
#include "halfspace.h"

#define HS_STR2(x) #x
#define HS_STR(x) HS_STR2(x)

const char *hs_version(void)
{
    return HS_STR(HS_VERSION_MAJOR) "." HS_STR(HS_VERSION_MINOR) "." HS_STR(HS_VERSION_PATCH);
}
