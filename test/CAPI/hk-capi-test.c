/*===- hk-capi-test.c - hk through the MLIR C API, from C ---------*- C -*-===*\
|*                                                                            *|
|* Part of the hk project, under the Apache License v2.0 with LLVM            *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* What a compiler binding MLIR through C does with hk: a context with hk's
 * dialects (through the registry, and through the dialect handle), hk's
 * passes registered, an hk source parsed, hk-to-rocdl-pipeline run by name
 * through MLIR's pass manager, and hkCompileModule to a code object.
 *
 *   hk-capi-test <source.mlir> <chip|options> <step> [out]
 *
 * The second argument is a chip ("gfx950") or the whole pipeline options
 * ("chip=gfx950 stages=2 schedule=ping-pong"). Steps: pipeline prints the
 * lowered module; compile: the code object's size and whether it is an ELF
 * file, and writes it to `out` when given; each: compiles every gpu.module
 * apart (hkCompileGpuModules) and writes <out>/<gpu.module>.hsaco;
 * bad-options: the diagnostic of a misspelt option. Exit status 0 when the
 * step did what it should. */

#include "HK-c/Dialects.h"
#include "HK-c/Passes.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToFile(MlirStringRef text, void *file) {
  fwrite(text.data, 1, text.length, (FILE *)file);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToFile, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/* A growing byte buffer for hkCompileModule's output. */
typedef struct {
  char *data;
  size_t size;
} Buffer;

static void appendToBuffer(MlirStringRef bytes, void *userData) {
  Buffer *buffer = (Buffer *)userData;
  char *grown = realloc(buffer->data, buffer->size + bytes.length);
  if (!grown) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  memcpy(grown + buffer->size, bytes.data, bytes.length);
  buffer->data = grown;
  buffer->size += bytes.length;
}

/* hkCompileGpuModules' callback: <directory>/<gpu.module>.hsaco. */
typedef struct {
  const char *directory;
  int written, failed;
} ObjectFiles;

static void writeObjectFile(MlirStringRef name, MlirStringRef bytes,
                            void *userData) {
  ObjectFiles *files = (ObjectFiles *)userData;
  char path[4096];
  snprintf(path, sizeof path, "%s/%.*s.hsaco", files->directory,
           (int)name.length, name.data);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(bytes.data, 1, bytes.length, f) != bytes.length)
    files->failed = 1;
  if (f)
    fclose(f);
  printf("gpu.module %.*s: %zu bytes\n", (int)name.length, name.data,
         bytes.length);
  ++files->written;
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: hk-capi-test <source.mlir> <chip|options> "
                    "<pipeline|compile|each|bad-options> [out]\n");
    return 2;
  }
  const char *out = argc == 5 ? argv[4] : NULL;
  const char *path = argv[1], *chip = argv[2], *step = argv[3];
  char *source = readFile(path);
  if (!source) {
    fprintf(stderr, "cannot read '%s'\n", path);
    return 2;
  }

  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  hkRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  /* The handle names and loads the same dialect. */
  MlirDialectHandle handle = mlirGetDialectHandle__hk__();
  MlirStringRef name = mlirDialectHandleGetNamespace(handle);
  MlirDialect hk = mlirDialectHandleLoadDialect(handle, context);
  printf("dialect handle: %.*s, loaded: %s\n", (int)name.length, name.data,
         mlirDialectIsNull(hk) ? "no" : "yes");
  hkRegisterAllPasses();

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  free(source);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "'%s' does not parse\n", path);
    mlirContextDestroy(context);
    return 1;
  }

  int status = 1;
  char options[512];
  if (strchr(chip, '='))
    snprintf(options, sizeof options, "%s", chip);
  else
    snprintf(options, sizeof options, "chip=%s", chip);
  if (strcmp(step, "pipeline") == 0) {
    char pipeline[600];
    snprintf(pipeline, sizeof pipeline,
             "builtin.module(hk-to-rocdl-pipeline{%s})", options);
    MlirPassManager pm = mlirPassManagerCreate(context);
    MlirLogicalResult parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm),
        mlirStringRefCreateFromCString(pipeline), printToFile, stderr);
    if (mlirLogicalResultIsSuccess(parsed) &&
        mlirLogicalResultIsSuccess(
            mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
      mlirOperationPrint(mlirModuleGetOperation(module), printToFile, stdout);
      printf("\n");
      status = 0;
    }
    mlirPassManagerDestroy(pm);
  } else if (strcmp(step, "compile") == 0) {
    Buffer object = {NULL, 0};
    MlirLogicalResult compiled = hkCompileModule(
        module, mlirStringRefCreateFromCString(options),
        mlirStringRefCreateFromCString("bin"), appendToBuffer, &object);
    if (mlirLogicalResultIsSuccess(compiled)) {
      int elf = object.size > 4 && memcmp(object.data, "\177ELF", 4) == 0;
      printf("code object: %zu bytes, %s\n", object.size,
             elf ? "ELF" : "not ELF");
      status = elf ? 0 : 1;
      FILE *f = out ? fopen(out, "wb") : NULL;
      if (out && (!f || fwrite(object.data, 1, object.size, f) != object.size))
        status = 2;
      if (f)
        fclose(f);
    }
    free(object.data);
  } else if (strcmp(step, "each") == 0 && out) {
    ObjectFiles files = {out, 0, 0};
    MlirLogicalResult compiled = hkCompileGpuModules(
        module, mlirStringRefCreateFromCString(options),
        mlirStringRefCreateFromCString("bin"), writeObjectFile, &files);
    printf("%d gpu.modules compiled\n", files.written);
    status = mlirLogicalResultIsSuccess(compiled) && !files.failed ? 0 : 1;
  } else if (strcmp(step, "bad-options") == 0) {
    Buffer object = {NULL, 0};
    MlirLogicalResult compiled = hkCompileModule(
        module, mlirStringRefCreateFromCString("chip=gfx950 stagez=2"),
        mlirStringRefCreateFromCString("bin"), appendToBuffer, &object);
    printf("bad options: %s, %zu bytes\n",
           mlirLogicalResultIsSuccess(compiled) ? "accepted" : "refused",
           object.size);
    status = mlirLogicalResultIsFailure(compiled) && object.size == 0 ? 0 : 1;
    free(object.data);
  } else {
    fprintf(stderr, "unknown step '%s'\n", step);
    status = 2;
  }
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return status;
}
