/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the views of `mlxcli counters` share between cmd/counters.c (the
 * command, show, cc, prio, errors) and cmd/counters-watch.c (watch): the
 * counter selection (--group, --filter, --nonzero), the ports to read and
 * the port identity fields.
 */
#ifndef MLX_CMD_COUNTERS_VIEWS_H
#define MLX_CMD_COUNTERS_VIEWS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "counters.h"

struct sel {
	char groups[16][24];
	size_t ngroups;
	bool have_re, nonzero;
	regex_t re;
	unsigned srcs;          /* the sources the groups can select (MLX_CSRC_*) */
};

struct targets {
	struct mlx_ctarget *t;
	size_t n;
	char **names;           /* --any-netdev without -d: the netdev list */
};

/* The ports the command line names (cmd/counters.c); targets_free
 * releases them.  An exit code. */
int get_targets(struct cli *cli, struct targets *ts);
/* --interval S (default 1) and --count N (0: until stopped) of watch and
 * top, checked: EXIT_OK or EXIT_USAGE with the error said. */
int counters_parse_interval(struct cli *cli, double *iv, long *count);
void targets_free(struct targets *ts);
/* Say on stderr that @p vanished or has no driver statistics. */
void warn_port(struct cli *cli, const struct mlx_counter_port *p);
/* Whether counter @c passes the selection @arg (a struct sel). */
bool keep(const struct mlx_counter *c, void *arg);
/* device, netdev, rdma_device, rdma_port, port of @p. */
void out_port_ids(struct out *o, const struct mlx_counter_port *p);
/* "0000:5e:00.0 enp94s0f0np0 (mlx5_0 port 1)": a port's text title. */
void port_title(const struct mlx_counter_port *p, char *buf, size_t len);

/* ---- a port's counters, text and JSON (cmd/counters-render.c) ---- */

/* The catalogue entries of the counters a document shows. */
struct cat_set;
struct cat_set *cat_set_new(void);
void cat_set_free(struct cat_set *cs);
/* An allocation failed while entries were added: the catalogue is short. */
bool cat_set_failed(const struct cat_set *cs);
/* Enter a counter, a phy row, without rendering it (--catalogue). */
void cat_collect(struct cat_set *cs, const struct mlx_counter *c);
struct phy_row;
void cat_collect_phy(struct cat_set *cs, const struct phy_row *w);
/* "catalogue": per source, the entries keyed by name (text: a table). */
void out_catalogue(struct out *o, const struct cat_set *cs);

/* One port's "counters": crender_begin, a crender_counter or crender_phy
 * per counter (in source order), crender_end.  @describe: schema 2's
 * objects (JSON only); @meaning: the errors view's column; @cat collects
 * the catalogue of the compact shape (NULL: none). */
struct crender {
	struct out *o;
	bool describe, meaning;
	struct cat_set *cat;
	const char *src;        /* compact JSON: the source object open */
};
void crender_begin(struct crender *r, struct out *o, bool describe, bool meaning,
		   struct cat_set *cat);
void crender_counter(struct crender *r, const struct mlx_counter *c);
void crender_phy(struct crender *r, const struct phy_row *w);
void crender_end(struct crender *r);

/* `mlxcli counters watch` (cmd/counters-watch.c). */
/* "1.25 kunit": @v with an SI prefix, 3 significant digits (watch, top). */
void human_rate(double v, const char *unit, char *buf, size_t len);
int view_watch(struct cli *cli, struct mlx_cstate *st, const struct targets *ts, struct sel *s);

#endif
