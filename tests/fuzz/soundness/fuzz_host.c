/*===- fuzz_host.c - runs every launch of a soundness-fuzzer manifest -------===//
 *
 * The generic host of the differential soundness fuzzer (docs/soundness-fuzzer.md): it reads the JSON
 * manifest kernel_generator.py writes, and for each launch builds the kernel's program with its options,
 * creates its buffers with their contents and flags, sets local and scalar arguments, enqueues the NDRange
 * once and waits for it (clFinish). Run bare on any OpenCL driver (PoCL, Oclgrind's ICD), or under
 * `clcapture`, which records each launch as it happens.
 *
 * usage: fuzz_host MANIFEST.json [--first I] [--only NAME] [--source-key KEY] [--extra-options OPTIONS]
 *   --first I         skip the launches before position I (the driver resumes after a launch that crashed)
 *   --only NAME       run only the launch of kernel NAME
 *   --source-key KEY  build each launch from its KEY file when it has one ("oracle_source": the kernel as
 *                     Oclgrind runs it), else from "source"
 *   --extra-options OPTIONS  appended to every launch's build options (the fuzzer's oracle run passes
 *                     -cl-opt-disable: an optimising build drops dead reads, which the analysis still judges)
 *
 * stdout: "build NAME" before building, "start NAME" before enqueueing and "done NAME" after each launch
 * (flushed), so that a driver whose host died knows which launch it died in. A launch that cannot be built or
 *set up is reported on stderr
 * ("fuzz_host: NAME: ...") and skipped; the exit status is then 3 (0 when every launch ran).
 * Only the OpenCL loader is linked; the manifest's JSON is read by the small parser below.
 *
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON: the subset a manifest uses (objects, arrays, strings without \u escapes, numbers, literals) */

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } JsonKind;

typedef struct Json {
  JsonKind kind;
  double number;
  int boolean;
  char *string;       /* J_STRING */
  struct Json *items; /* J_ARRAY, J_OBJECT (values) */
  char **keys;        /* J_OBJECT */
  size_t count;
} Json;

typedef struct {
  const char *at;
  const char *error;
} JsonParser;

static void die(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("fuzz_host: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  exit(2);
}

static void *checkedRealloc(void *p, size_t bytes) {
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q)
    die("out of memory");
  return q;
}

static void skipSpace(JsonParser *p) {
  while (isspace((unsigned char)*p->at))
    ++p->at;
}

static int parseValue(JsonParser *p, Json *out);

static char *parseStringBody(JsonParser *p) {
  /* p->at is just past the opening quote. */
  size_t length = 0, capacity = 16;
  char *s = checkedRealloc(NULL, capacity);
  for (; *p->at && *p->at != '"'; ++p->at) {
    char c = *p->at;
    if (c == '\\') {
      ++p->at;
      switch (*p->at) {
      case 'n':
        c = '\n';
        break;
      case 't':
        c = '\t';
        break;
      case 'r':
        c = '\r';
        break;
      case 'b':
        c = '\b';
        break;
      case 'f':
        c = '\f';
        break;
      case '"':
      case '\\':
      case '/':
        c = *p->at;
        break;
      default:
        p->error = "unsupported escape in a string";
        free(s);
        return NULL;
      }
    }
    if (length + 2 > capacity)
      s = checkedRealloc(s, capacity *= 2);
    s[length++] = c;
  }
  if (*p->at != '"') {
    p->error = "unterminated string";
    free(s);
    return NULL;
  }
  ++p->at;
  s[length] = '\0';
  return s;
}

static int parseValue(JsonParser *p, Json *out) {
  memset(out, 0, sizeof *out);
  skipSpace(p);
  char c = *p->at;
  if (c == '{' || c == '[') {
    int object = c == '{';
    out->kind = object ? J_OBJECT : J_ARRAY;
    ++p->at;
    skipSpace(p);
    if (*p->at == (object ? '}' : ']')) {
      ++p->at;
      return 1;
    }
    for (;;) {
      out->items = checkedRealloc(out->items, (out->count + 1) * sizeof(Json));
      if (object) {
        out->keys = checkedRealloc(out->keys, (out->count + 1) * sizeof(char *));
        skipSpace(p);
        if (*p->at != '"') {
          p->error = "expected a key";
          return 0;
        }
        ++p->at;
        if (!(out->keys[out->count] = parseStringBody(p)))
          return 0;
        skipSpace(p);
        if (*p->at != ':') {
          p->error = "expected ':'";
          return 0;
        }
        ++p->at;
      }
      if (!parseValue(p, &out->items[out->count]))
        return 0;
      ++out->count;
      skipSpace(p);
      if (*p->at == ',') {
        ++p->at;
        continue;
      }
      if (*p->at == (object ? '}' : ']')) {
        ++p->at;
        return 1;
      }
      p->error = "expected ',' or the end of an object or array";
      return 0;
    }
  }
  if (c == '"') {
    ++p->at;
    out->kind = J_STRING;
    return (out->string = parseStringBody(p)) != NULL;
  }
  if (!strncmp(p->at, "true", 4) || !strncmp(p->at, "false", 5)) {
    out->kind = J_BOOL;
    out->boolean = c == 't';
    p->at += out->boolean ? 4 : 5;
    return 1;
  }
  if (!strncmp(p->at, "null", 4)) {
    p->at += 4;
    return 1;
  }
  char *end;
  out->number = strtod(p->at, &end);
  if (end == p->at) {
    p->error = "unexpected character";
    return 0;
  }
  out->kind = J_NUMBER;
  p->at = end;
  return 1;
}

static const Json *member(const Json *object, const char *key) {
  if (!object || object->kind != J_OBJECT)
    return NULL;
  for (size_t i = 0; i < object->count; ++i)
    if (!strcmp(object->keys[i], key))
      return &object->items[i];
  return NULL;
}

static size_t sizeMember(const Json *object, const char *key, size_t fallback) {
  const Json *v = member(object, key);
  return v && v->kind == J_NUMBER ? (size_t)v->number : fallback;
}

static const char *stringMember(const Json *object, const char *key, const char *fallback) {
  const Json *v = member(object, key);
  return v && v->kind == J_STRING ? v->string : fallback;
}

/* ---- files and bytes */

static char *readFile(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t used = 0, capacity = 4096;
  char *text = checkedRealloc(NULL, capacity);
  size_t n;
  while ((n = fread(text + used, 1, capacity - used - 1, f)) > 0) {
    used += n;
    if (capacity - used < 2)
      text = checkedRealloc(text, capacity *= 2);
  }
  fclose(f);
  text[used] = '\0';
  if (length)
    *length = used;
  return text;
}

static int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* `hex` (two digits a byte, in memory order) into `bytes`; returns 0 on a malformed or too long string. */
static int decodeHex(const char *hex, unsigned char *bytes, size_t capacity) {
  size_t n = strlen(hex);
  if (n % 2 || n / 2 > capacity)
    return 0;
  for (size_t i = 0; i < n / 2; ++i) {
    int hi = hexDigit(hex[2 * i]), lo = hexDigit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return 0;
    bytes[i] = (unsigned char)(hi * 16 + lo);
  }
  return 1;
}

/* A buffer's initial bytes: "contents" (hex) when given, else `fill` as little-endian int32 counting up
 * from 1 (distinct values, so that Oclgrind does not take two copied values for one uniform write). */
static unsigned char *initialContents(const Json *arg, size_t bytes) {
  unsigned char *data = checkedRealloc(NULL, bytes);
  const char *hex = stringMember(arg, "contents", NULL);
  if (hex) {
    memset(data, 0, bytes);
    if (!decodeHex(hex, data, bytes)) {
      free(data);
      return NULL;
    }
    return data;
  }
  for (size_t i = 0; i < bytes; ++i) {
    unsigned value = (unsigned)(i / 4 + 1);
    data[i] = (unsigned char)(value >> (8 * (i % 4)));
  }
  return data;
}

/* ---- one launch */

typedef struct {
  const char *sourceKey;    /* the launch's key naming its source file, "source" unless --source-key */
  const char *extraOptions; /* --extra-options, appended to each launch's build options ("" without) */
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  const char *folder; /* the manifest's folder: sources are relative to it */
} Runtime;

static void report(const char *kernel, const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "fuzz_host: %s: ", kernel);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

static int dims(const Json *launch, const char *key, size_t out[3]) {
  const Json *v = member(launch, key);
  if (!v || v->kind != J_ARRAY || v->count < 1 || v->count > 3)
    return 0;
  for (size_t i = 0; i < v->count; ++i)
    out[i] = (size_t)v->items[i].number;
  return (int)v->count;
}

/* Runs one launch; returns 1 when it ran, 0 when it could not be set up (reported). */
static int runLaunch(const Runtime *rt, const Json *launch) {
  const char *kernelName = stringMember(launch, "kernel", NULL);
  const char *sourcePath = stringMember(launch, rt->sourceKey, stringMember(launch, "source", NULL));
  if (!kernelName || !sourcePath) {
    report("?", "a launch without \"kernel\" or \"source\"");
    return 0;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", rt->folder, sourcePath);
  size_t length;
  char *source = readFile(path, &length);
  if (!source) {
    report(kernelName, "cannot read %s", path);
    return 0;
  }
  printf("build %s\n", kernelName);
  fflush(stdout);
  cl_int err;
  const char *sources[] = {source};
  cl_program program = clCreateProgramWithSource(rt->context, 1, sources, &length, &err);
  free(source);
  if (err != CL_SUCCESS) {
    report(kernelName, "clCreateProgramWithSource failed (%d)", err);
    return 0;
  }
  int ran = 0;
  cl_kernel kernel = NULL;
  size_t argCount = 0;
  cl_mem *buffers = NULL;
  const char *own = stringMember(launch, "build_options", "");
  char *options = malloc(strlen(own) + strlen(rt->extraOptions) + 2);
  if (!options)
    die("out of memory");
  sprintf(options, "%s%s%s", own, *own && *rt->extraOptions ? " " : "", rt->extraOptions);
  err = clBuildProgram(program, 1, &rt->device, options, NULL, NULL);
  free(options);
  if (err != CL_SUCCESS) {
    size_t logSize = 0;
    clGetProgramBuildInfo(program, rt->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &logSize);
    char *log = checkedRealloc(NULL, logSize + 1);
    log[0] = '\0';
    clGetProgramBuildInfo(program, rt->device, CL_PROGRAM_BUILD_LOG, logSize, log, NULL);
    log[logSize] = '\0';
    report(kernelName, "clBuildProgram failed (%d):\n%s", err, log);
    free(log);
    goto done;
  }
  kernel = clCreateKernel(program, kernelName, &err);
  if (err != CL_SUCCESS) {
    report(kernelName, "clCreateKernel failed (%d)", err);
    goto done;
  }
  const Json *args = member(launch, "args");
  argCount = args && args->kind == J_ARRAY ? args->count : 0;
  buffers = checkedRealloc(NULL, (argCount + 1) * sizeof(cl_mem));
  memset(buffers, 0, (argCount + 1) * sizeof(cl_mem));
  for (size_t i = 0; i < argCount; ++i) {
    const Json *arg = &args->items[i];
    const char *kind = stringMember(arg, "kind", "");
    size_t bytes = sizeMember(arg, "bytes", 0);
    if (!strcmp(kind, "buffer")) {
      const Json *sameAs = member(arg, "same_as");
      if (sameAs && sameAs->kind == J_NUMBER) {
        /* An argument that is another argument's memory object (aliasing). */
        size_t other = (size_t)sameAs->number;
        if (other >= i || !buffers[other]) {
          report(kernelName, "argument %zu: same_as %zu is not an earlier buffer", i, other);
          goto done;
        }
        err = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &buffers[other]);
      } else {
        unsigned char *data = initialContents(arg, bytes);
        if (!data) {
          report(kernelName, "argument %zu: malformed or too long \"contents\"", i);
          goto done;
        }
        const Json *readOnly = member(arg, "read_only");
        cl_mem_flags flags =
            (readOnly && readOnly->boolean ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE) | CL_MEM_COPY_HOST_PTR;
        buffers[i] = clCreateBuffer(rt->context, flags, bytes, data, &err);
        free(data);
        if (err != CL_SUCCESS) {
          report(kernelName, "argument %zu: clCreateBuffer of %zu bytes failed (%d)", i, bytes, err);
          goto done;
        }
        err = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &buffers[i]);
      }
    } else if (!strcmp(kind, "local")) {
      err = clSetKernelArg(kernel, (cl_uint)i, bytes, NULL);
    } else if (!strcmp(kind, "scalar")) {
      unsigned char value[128] = {0};
      if (bytes > sizeof value || !decodeHex(stringMember(arg, "value", ""), value, bytes)) {
        report(kernelName, "argument %zu: malformed scalar \"value\" of %zu bytes", i, bytes);
        goto done;
      }
      err = clSetKernelArg(kernel, (cl_uint)i, bytes, value);
    } else {
      report(kernelName, "argument %zu: unknown kind \"%s\"", i, kind);
      goto done;
    }
    if (err != CL_SUCCESS) {
      report(kernelName, "clSetKernelArg(%zu) failed (%d)", i, err);
      goto done;
    }
  }
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  int workDim = dims(launch, "global_size", global);
  int localDim = dims(launch, "local_size", local);
  int offsetDim = dims(launch, "global_offset", offset);
  if (!workDim || (localDim && localDim != workDim) || (offsetDim && offsetDim != workDim)) {
    report(kernelName, "global_size, local_size and global_offset must have 1 to 3 equal dimensions");
    goto done;
  }
  printf("start %s\n", kernelName);
  fflush(stdout);
  err = clEnqueueNDRangeKernel(rt->queue, kernel, (cl_uint)workDim, offsetDim ? offset : NULL, global,
                               localDim ? local : NULL, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    report(kernelName, "clEnqueueNDRangeKernel failed (%d)", err);
    goto done;
  }
  err = clFinish(rt->queue);
  if (err != CL_SUCCESS) {
    report(kernelName, "clFinish failed (%d)", err);
    goto done;
  }
  printf("done %s\n", kernelName);
  fflush(stdout);
  ran = 1;
done:
  for (size_t i = 0; i < argCount; ++i)
    if (buffers[i])
      clReleaseMemObject(buffers[i]);
  free(buffers);
  if (kernel)
    clReleaseKernel(kernel);
  clReleaseProgram(program);
  return ran;
}

int main(int argc, char **argv) {
  const char *manifestPath = NULL, *only = NULL, *sourceKey = "source", *extraOptions = "";
  size_t first = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--first") && i + 1 < argc)
      first = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--source-key") && i + 1 < argc)
      sourceKey = argv[++i];
    else if (!strcmp(argv[i], "--extra-options") && i + 1 < argc)
      extraOptions = argv[++i];
    else if (!manifestPath && argv[i][0] != '-')
      manifestPath = argv[i];
    else
      die("usage: fuzz_host MANIFEST.json [--first I] [--only NAME] [--source-key KEY] [--extra-options "
          "OPTIONS]");
  }
  if (!manifestPath)
    die("usage: fuzz_host MANIFEST.json [--first I] [--only NAME] [--source-key KEY] [--extra-options "
        "OPTIONS]");
  char *text = readFile(manifestPath, NULL);
  if (!text)
    die("cannot read %s", manifestPath);
  JsonParser parser = {text, NULL};
  Json manifest;
  if (!parseValue(&parser, &manifest))
    die("%s: offset %ld: %s", manifestPath, (long)(parser.at - text), parser.error);
  const Json *launches = member(&manifest, "launches");
  if (!launches || launches->kind != J_ARRAY)
    die("%s: no \"launches\" array", manifestPath);

  char *folder = checkedRealloc(NULL, strlen(manifestPath) + 2);
  strcpy(folder, manifestPath);
  char *slash = strrchr(folder, '/');
  if (slash)
    *slash = '\0';
  else
    strcpy(folder, ".");

  Runtime rt = {0};
  rt.folder = folder;
  rt.sourceKey = sourceKey;
  rt.extraOptions = extraOptions;
  cl_platform_id platform;
  cl_uint platforms = 0;
  if (clGetPlatformIDs(1, &platform, &platforms) != CL_SUCCESS || platforms == 0)
    die("no OpenCL platform");
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &rt.device, NULL) != CL_SUCCESS)
    die("no OpenCL device");
  cl_int err;
  rt.context = clCreateContext(NULL, 1, &rt.device, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    die("clCreateContext failed (%d)", err);
  rt.queue = clCreateCommandQueue(rt.context, rt.device, 0, &err);
  if (err != CL_SUCCESS)
    die("clCreateCommandQueue failed (%d)", err);

  size_t failed = 0;
  for (size_t i = first; i < launches->count; ++i) {
    const Json *launch = &launches->items[i];
    if (only && strcmp(stringMember(launch, "kernel", ""), only))
      continue;
    if (!runLaunch(&rt, launch))
      ++failed;
  }
  clReleaseCommandQueue(rt.queue);
  clReleaseContext(rt.context);
  free(folder);
  return failed ? 3 : 0;
}
