/* Found through the -I option program_forms passes to clCompileProgram: the capture must inline it. */
#ifndef SAMPLE_OFFSET_H
#define SAMPLE_OFFSET_H
#define OFFSET 7
#endif
