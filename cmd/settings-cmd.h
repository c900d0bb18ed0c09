/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings model in cmd/ (lib/settings.h): the one parser of a state
 * document (apply's desired state, diff's state files) into the model
 * (cmd/settings-json.c), and the one renderer of a port's model as `state`
 * prints it (cmd/state.c).
 */
#ifndef MLXCLI_SETTINGS_CMD_H
#define MLXCLI_SETTINGS_CMD_H

#include <jansson.h>

#include "cli.h"
#include "settings.h"

/* A port of a document: how it names the port, and its settings. */
struct doc_port {
	char path[24];            /* "ports[2]" */
	const char *file;         /* the file it came from, for messages */
	const char *pci;          /* pci_address when a string, else NULL */
	const char *netdev;       /* netdev when a string, else NULL */
	bool match;               /* a "match" selector ... */
	const char *product;      /* ... of this product (NULL: any) */
	bool vf;                  /* ... of VFs ("function": "vf") */
	struct mlx_port_settings *want;
};

struct doc {
	struct doc_port *p;
	size_t n, cap;
	json_t **roots;           /* the documents the names point into */
	size_t nroots;
};

/*
 * Parse @root (a document read from @file) into @d's ports: every key
 * known, every value of its type and through its setting's validator
 * (lib/settings.h), or exit 2 with "FILE: PATH: why@suffix".  The
 * document's strings stay referenced (@d keeps @root).  An exit code.
 */
int doc_parse(struct cli *cli, const char *file, json_t *root, const char *suffix,
	      struct doc *d);
/* Read @file (JSON) and parse it: "cannot read FILE: why" (exit 2) when it
 * cannot be read, "FILE: line N: why" when it is no JSON. */
int doc_load(struct cli *cli, const char *file, const char *suffix, struct doc *d);
void doc_free(struct doc *d);

/* ---- the reader's pieces (cmd/settings-json.c, settings-json-qos.c) ---- */

struct rd {
	struct cli *cli;
	const char *file;         /* for messages */
	const char *suffix;       /* "; nothing was changed" for apply */
};

#define P(buf, ...) snprintf(buf, sizeof(buf), __VA_ARGS__)

/* "FILE: PATH: why" (exit 2); a lib validator's no (mlx_errmsg). */
int rd_bad(struct rd *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int rd_refused(struct rd *r, const char *path);
/* "@parent.@key" into @buf (cut to fit): by memcpy, as the paths of a
 * VF's nine keys are made for each of thousands of VFs. */
const char *rd_path(char *buf, size_t len, const char *parent, const char *key);
/* @o is an object whose keys are all in @allowed (NULL-terminated). */
int rd_keys(struct rd *r, json_t *o, const char *path, const char *const *allowed);
/* A value that is there (null: leave it alone, or unknown). */
bool rd_given(json_t *x);
/* A value of its JSON type, else exit 2 naming @path. */
int rd_integer(struct rd *r, json_t *x, const char *path, int64_t *v);
int rd_string(struct rd *r, json_t *x, const char *path, const char **s);
int rd_boolean(struct rd *r, json_t *x, const char *path, bool *b);
/* An array of exactly @n entries (0: up to 64). */
int rd_array(struct rd *r, json_t *a, const char *path, size_t n);
/* The section @key of @o: absent, null (MLX_NULL), or there. */
json_t *rd_section(json_t *o, const char *key, uint8_t *have);
/* A port's QoS and DCQCN sections (cmd/settings-json-qos.c). */
int rd_qos_dcqcn(struct rd *r, json_t *o, const char *path, struct mlx_port_settings *w);

/* ---- cmd/state.c ---- */

/*
 * `state`'s text beside the JSON: one line "  PATH.KEY = VALUE" per field
 * (the paths diff prints), @pfx the object's path ("pfc", "dcqcn.rp").
 * The renderers of the structures (qos_out_dcb, ...) use these in state's
 * view.  A NULL string or a negative number is null; lists are "a,b,c" or
 * "none".
 */
struct spath {
	struct out *o;
	const char *pfx;
};
void sp_str(const struct spath *s, const char *key, const char *val);
void sp_u64(const struct spath *s, const char *key, uint64_t v);
void sp_int(const struct spath *s, const char *key, int64_t v);
void sp_tri(const struct spath *s, const char *key, int v);
void sp_null(const struct spath *s, const char *key);
void sp_list(const struct spath *s, const char *key, const uint64_t *v, size_t n);
void sp_u8list(const struct spath *s, const char *key, const uint8_t *v, size_t n);

/* One port's model as `state` renders it (text "path = value" lines). */
void state_out_port(struct cli *cli, const struct mlx_port_settings *p);

#endif
