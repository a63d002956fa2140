/*===- ptxas_mini.h - the C API of libptxas-mini -------------------------------------===*
 *
 * Compile PTX to an sm_XX cubin in memory, in the shape of NVIDIA's nvPTXCompiler API:
 *
 *     ptxminiHandle h;
 *     ptxminiCreate(&h, strlen(ptx), ptx);
 *     const char *opts[] = {"-arch=sm_90", "-O3"};
 *     if (ptxminiCompile(h, 2, opts) == PTXMINI_SUCCESS) {
 *       size_t n; ptxminiGetCompiledProgramSize(h, &n);
 *       void *cubin = malloc(n); ptxminiGetCompiledProgram(h, cubin);
 *     } else {
 *       size_t n; ptxminiGetErrorLogSize(h, &n);
 *       char *log = malloc(n + 1); ptxminiGetErrorLog(h, log);   // NUL-terminated
 *     }
 *     ptxminiDestroy(&h);
 *
 * Options are ptxas-mini's (= ptxas 13.0's) command-line options, one per array element
 * ("-arch=sm_90", "-O0", "-maxrregcount=32", "-v", "-knob", "Name=1", ...); input file
 * names and --help/--version-style requests are refused, and -o is ignored (the cubin stays
 * in memory). Diagnostics have ptxas's shape: errors and warnings go to the error log, info
 * messages (the -v report, DUMPIR text) to the info log.
 *
 * The library never exits or aborts the calling process: every failure is a result code and
 * a message in the error log. One handle is used by one thread at a time; different handles
 * may be used from different threads (compiles are serialised inside the
 * library: the front end has not been audited for concurrent use).
 *===----------------------------------------------------------------------------------===*/
#ifndef PTXAS_MINI_H
#define PTXAS_MINI_H

#include <stddef.h>

/* The library exports these functions and nothing else. */
#if defined(__GNUC__)
#define PTXMINI_API __attribute__((visibility("default")))
#else
#define PTXMINI_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptxminiCompiler *ptxminiHandle;

typedef enum {
  PTXMINI_SUCCESS = 0,
  PTXMINI_ERROR_INVALID_HANDLE = 1,    /* a null handle (or pointer to one) */
  PTXMINI_ERROR_INVALID_INPUT = 2,     /* a null pointer argument, or a bad option list */
  PTXMINI_ERROR_COMPILATION_FAILURE = 3, /* the PTX or the options were refused: see the error log */
  PTXMINI_ERROR_INTERNAL = 4,
  PTXMINI_ERROR_OUT_OF_MEMORY = 5,
  PTXMINI_ERROR_INVOCATION_INCOMPLETE = 6 /* asked for a program before a successful compile */
} ptxminiResult;

/* The library's version (major.minor). */
PTXMINI_API ptxminiResult ptxminiGetVersion(unsigned int *major, unsigned int *minor);

/* Creates a compiler for `ptxCode[0 .. ptxCodeLen)` (copied; need not be NUL-terminated). */
PTXMINI_API ptxminiResult ptxminiCreate(ptxminiHandle *handle, size_t ptxCodeLen, const char *ptxCode);

/* Destroys the compiler and sets *handle to NULL. */
PTXMINI_API ptxminiResult ptxminiDestroy(ptxminiHandle *handle);

/* Compiles the PTX with `numOptions` options. May be called again with other options; each
 * call replaces the program and the logs of the previous one. */
PTXMINI_API ptxminiResult ptxminiCompile(ptxminiHandle handle, int numOptions, const char *const *options);

/* The cubin of the last successful compile (size 0 for -arch=compute_XX, which only checks). */
PTXMINI_API ptxminiResult ptxminiGetCompiledProgramSize(ptxminiHandle handle, size_t *size);
PTXMINI_API ptxminiResult ptxminiGetCompiledProgram(ptxminiHandle handle, void *buffer);

/* The logs of the last compile; sizes exclude the terminating NUL that Get*Log writes. */
PTXMINI_API ptxminiResult ptxminiGetErrorLogSize(ptxminiHandle handle, size_t *size);
PTXMINI_API ptxminiResult ptxminiGetErrorLog(ptxminiHandle handle, char *buffer);
PTXMINI_API ptxminiResult ptxminiGetInfoLogSize(ptxminiHandle handle, size_t *size);
PTXMINI_API ptxminiResult ptxminiGetInfoLog(ptxminiHandle handle, char *buffer);

#ifdef __cplusplus
}
#endif

#endif /* PTXAS_MINI_H */
