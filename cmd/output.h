/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The output layer: one call per field serves text and JSON, so the two
 * cannot drift (DESIGN.md "Output").  In JSON mode the calls build a
 * jansson tree that out_finish() dumps once, so the output is valid JSON
 * or nothing.  In text mode tables are buffered row by row and aligned at
 * the end; everything else prints as it comes.
 *
 * key   the JSON key (snake_case, an interface: never renamed)
 * label the text label or column header; NULL means JSON only
 */
#ifndef MLX_OUTPUT_H
#define MLX_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OUT_SCHEMA_VERSION 2

struct out;

struct out *out_new(bool json, bool pretty, FILE *fp);
/* Dump the JSON tree (JSON mode); returns 0 or -errno.  Frees nothing. */
int out_finish(struct out *o);
void out_free(struct out *o);
bool out_is_json(const struct out *o);

/* Objects and lists.  In text mode an object with a label prints a
 * "label:" line and indents its fields. */
void out_obj_begin(struct out *o, const char *key, const char *label);
void out_obj_end(struct out *o);
void out_list_begin(struct out *o, const char *key, const char *label);
void out_list_end(struct out *o);

/* Tables: JSON array of objects; text: one aligned row per object. */
void out_table_begin(struct out *o, const char *key);
void out_row_begin(struct out *o);
void out_row_end(struct out *o);
void out_table_end(struct out *o);

/* Fields.  A NULL string is JSON null and "-" in text. */
void out_str(struct out *o, const char *key, const char *label, const char *val);
void out_u64(struct out *o, const char *key, const char *label, uint64_t v);
void out_s64(struct out *o, const char *key, const char *label, int64_t v);
void out_bool(struct out *o, const char *key, const char *label, bool v);
void out_null(struct out *o, const char *key, const char *label);
/* A number in JSON, shown in text as @text (e.g. 100000 -> "100G"). */
void out_u64_as(struct out *o, const char *key, const char *label, uint64_t v, const char *text);
/* A list of strings: JSON array; text joined with ",". */
void out_strv(struct out *o, const char *key, const char *label, const char *const *v, size_t n);
/* A text-only cell or line that summarises fields JSON carries in
 * structured form elsewhere in the same object. */
void out_text(struct out *o, const char *label, const char *val);

#endif
