/* The version: the library's number and string agree with the header it was built from
 * (one source: GP_VERSION_MAJOR/MINOR/PATCH in gpuprims.h). */
#include "check.h"

int main(void) {
  CHECK_EQ_I64(gp_version_number(), GP_VERSION_NUMBER);
  CHECK_EQ_I64(GP_VERSION_NUMBER,
               GP_VERSION_MAJOR * 10000 + GP_VERSION_MINOR * 100 + GP_VERSION_PATCH);
  CHECK(GP_VERSION_MINOR < 100 && GP_VERSION_PATCH < 100); /* else the number is ambiguous */
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d (", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH);
  CHECK_MSG(strncmp(gp_version(), want, strlen(want)) == 0, "gp_version() = '%s', expected '%s...'",
            gp_version(), want);
#if GP_HAVE_CUDA
  CHECK(strstr(gp_version(), "cuda") != NULL);
#else
  CHECK(strstr(gp_version(), "cpu only") != NULL);
#endif
  return check_summary("test_version");
}
