/*===- tests/capi/capi_test.c - libptxas-mini's C API, driven from C -------------------===*
 *
 * capi_test <libname> <saxpy.ptx> <saxpy.cubin made by the ptxas-mini tool>
 *
 * Compiles the PTX through the C API (linked statically or dynamically: the same test runs
 * against both libraries) and checks what the header promises: the cubin is byte for byte
 * the tool's cubin for the same options; -v goes to the info log; bad PTX, a bad option and
 * an input file in the option list are COMPILATION_FAILURE with ptxas-shaped text in the
 * error log and the process still alive; null handles and pointers are refused; asking
 * for the program before a successful compile is INVOCATION_INCOMPLETE.
 *===----------------------------------------------------------------------------------===*/
#include "ptxas_mini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                                        \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);             \
      ++failures;                                                                          \
    }                                                                                      \
  } while (0)

static char *readFile(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  *len = fread(buf, 1, (size_t)n, f);
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

static char *errorLog(ptxminiHandle h) {
  size_t n = 0;
  CHECK(ptxminiGetErrorLogSize(h, &n) == PTXMINI_SUCCESS);
  char *log = malloc(n + 1);
  CHECK(ptxminiGetErrorLog(h, log) == PTXMINI_SUCCESS);
  return log;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: capi_test <libname> <saxpy.ptx> <saxpy.cubin>\n");
    return 2;
  }
  size_t ptxLen = 0, refLen = 0;
  char *ptx = readFile(argv[2], &ptxLen);
  char *ref = readFile(argv[3], &refLen);
  if (!ptx || !ref) {
    fprintf(stderr, "cannot read the inputs\n");
    return 2;
  }

  unsigned major = 99, minor = 99;
  CHECK(ptxminiGetVersion(&major, &minor) == PTXMINI_SUCCESS);
  CHECK(major == 0 && minor == 1);
  CHECK(ptxminiGetVersion(NULL, &minor) == PTXMINI_ERROR_INVALID_INPUT);

  /* The cubin is the tool's, byte for byte; -v is in the info log, not the error log. */
  ptxminiHandle h = NULL;
  CHECK(ptxminiCreate(&h, ptxLen, ptx) == PTXMINI_SUCCESS && h);
  size_t size = 0;
  CHECK(ptxminiGetCompiledProgramSize(h, &size) == PTXMINI_ERROR_INVOCATION_INCOMPLETE);
  const char *opts[] = {"-arch=sm_90", "-v", "-o", "ignored.cubin"};
  CHECK(ptxminiCompile(h, 4, opts) == PTXMINI_SUCCESS);
  CHECK(ptxminiGetCompiledProgramSize(h, &size) == PTXMINI_SUCCESS);
  CHECK(size == refLen);
  char *cubin = malloc(size);
  CHECK(ptxminiGetCompiledProgram(h, cubin) == PTXMINI_SUCCESS);
  CHECK(size == refLen && memcmp(cubin, ref, size) == 0);
  CHECK(memcmp(cubin, "\177ELF", 4) == 0);
  free(cubin);
  size_t infoLen = 0, errLen = 0;
  CHECK(ptxminiGetInfoLogSize(h, &infoLen) == PTXMINI_SUCCESS);
  char *info = malloc(infoLen + 1);
  CHECK(ptxminiGetInfoLog(h, info) == PTXMINI_SUCCESS);
  CHECK(strstr(info, "info    : Used ") != NULL);
  CHECK(strstr(info, "Compiling entry function 'saxpy' for 'sm_90'") != NULL);
  free(info);
  CHECK(ptxminiGetErrorLogSize(h, &errLen) == PTXMINI_SUCCESS && errLen == 0);

  /* A second compile on the same handle replaces the first: a bad option. */
  const char *bad[] = {"-arch=sm_90", "--no-such-option"};
  CHECK(ptxminiCompile(h, 2, bad) == PTXMINI_ERROR_COMPILATION_FAILURE);
  char *log = errorLog(h);
  CHECK(strstr(log, "fatal   : Unknown option '-no-such-option'") != NULL);
  free(log);
  CHECK(ptxminiGetCompiledProgramSize(h, &size) == PTXMINI_ERROR_INVOCATION_INCOMPLETE);

  /* Input files belong to ptxminiCreate, not to the option list. */
  const char *withFile[] = {"-arch=sm_90", "k.ptx"};
  CHECK(ptxminiCompile(h, 2, withFile) == PTXMINI_ERROR_COMPILATION_FAILURE);
  CHECK(ptxminiDestroy(&h) == PTXMINI_SUCCESS && h == NULL);
  CHECK(ptxminiDestroy(&h) == PTXMINI_ERROR_INVALID_HANDLE);

  /* Bad PTX: ptxas's message with the line, and the host process goes on. */
  const char *broken = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k() {\n  frobnicate.u32 %r1;\n  ret;\n}\n";
  CHECK(ptxminiCreate(&h, strlen(broken), broken) == PTXMINI_SUCCESS);
  const char *arch[] = {"-arch=sm_90"};
  CHECK(ptxminiCompile(h, 1, arch) == PTXMINI_ERROR_COMPILATION_FAILURE);
  log = errorLog(h);
  CHECK(strstr(log, "application ptx input, line 5; error") != NULL);
  CHECK(strstr(log, "fatal   : Ptx assembly aborted due to errors") != NULL);
  free(log);
  /* compute_XX checks the PTX as well. */
  const char *virt[] = {"-arch=compute_90"};
  CHECK(ptxminiCompile(h, 1, virt) == PTXMINI_ERROR_COMPILATION_FAILURE);
  ptxminiDestroy(&h);

  /* Null arguments. */
  CHECK(ptxminiCreate(NULL, 0, "") == PTXMINI_ERROR_INVALID_HANDLE);
  CHECK(ptxminiCompile(NULL, 0, NULL) == PTXMINI_ERROR_INVALID_HANDLE);
  CHECK(ptxminiGetCompiledProgramSize(NULL, &size) == PTXMINI_ERROR_INVALID_HANDLE);
  CHECK(ptxminiCreate(&h, ptxLen, ptx) == PTXMINI_SUCCESS);
  CHECK(ptxminiCompile(h, -1, NULL) == PTXMINI_ERROR_INVALID_INPUT);
  /* No options: ptxas's default -arch=sm_75, which ptxas-mini only checks for now. */
  CHECK(ptxminiCompile(h, 0, NULL) == PTXMINI_ERROR_COMPILATION_FAILURE);
  /* compute_XX: success and an empty program (parse and check only, as ptxas). */
  CHECK(ptxminiCompile(h, 1, virt) == PTXMINI_SUCCESS);
  CHECK(ptxminiGetCompiledProgramSize(h, &size) == PTXMINI_SUCCESS && size == 0);
  ptxminiDestroy(&h);

  free(ptx);
  free(ref);
  if (failures)
    fprintf(stderr, "%s: %d check(s) failed\n", argv[1], failures);
  else
    printf("%s: all checks passed\n", argv[1]);
  return failures ? 1 : 0;
}
