/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli counters watch`: deltas and rates every interval, as text
 * screens or as a JSON stream (a "start" record, one record per sample,
 * an "end" record).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters-views.h"
#include "counters-phy.h"

static volatile sig_atomic_t interrupted;

static void on_stop(int sig)
{
	(void)sig;
	interrupted = 1;
}

void human_rate(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.*f %s%s", v < 10 && i ? 2 : v < 100 && i ? 1 : 0, v, pfx[i], unit);
}

/* The row of @prev with @w's name and lane, or NULL. */
static const struct phy_row *phy_prev(const struct phy_rows *prev, const struct phy_row *w)
{
	for (size_t k = 0; prev && k < prev->n; k++)
		if (!strcmp(prev->row[k].name, w->name) && prev->row[k].lane == w->lane)
			return &prev->row[k];
	return NULL;
}

static void phy_row_name(const struct phy_row *w, char *buf, size_t len)
{
	if (w->lane)
		snprintf(buf, len, "%s lane %u", w->name, w->lane);
	else
		snprintf(buf, len, "%s", w->name);
}

/*
 * The phy rows of a port: its FEC counters (counts) as rows of the
 * counters table, with their delta and rate; its module readings (gauges)
 * in a table of their own, values not rates, shown with --all or an
 * explicit --group phy (every screen would repeat them otherwise).
 */
static void phy_count_rows(struct out *o, const struct phy_rows *cur, const struct phy_rows *prev,
			   struct sel *s, bool all, double dt)
{
	for (size_t k = 0; cur && k < cur->n; k++) {
		const struct phy_row *w = &cur->row[k], *pw = phy_prev(prev, w);
		char name[48], rbuf[48];
		bool reset;
		double rate;
		uint64_t d;

		if (w->gauge || !w->valid || !pw || !pw->valid || !phy_keep(s, w))
			continue;
		reset = w->v < pw->v;
		d = reset ? 0 : (uint64_t)(w->v - pw->v);
		if (!d && !reset && !all)
			continue;
		phy_row_name(w, name, sizeof(name));
		out_row_begin(o);
		out_str(o, "name", "NAME", out_is_json(o) ? w->name : name);
		out_str(o, "source", "SOURCE", w->source);
		if (reset) {
			out_null(o, "delta", NULL);
			out_text(o, "DELTA", "reset");
			out_null(o, "rate_per_second", "RATE");
		} else {
			rate = mlx_counter_rate(d, dt);
			out_u64(o, "delta", "DELTA", d);
			human_rate(rate, "/s", rbuf, sizeof(rbuf));
			out_u64_as(o, "rate_per_second", "RATE", (uint64_t)(rate + 0.5), rbuf);
		}
		out_null(o, "bits_per_second", "BITS");
		out_str(o, "unit", "UNIT", w->unit);
		out_u64(o, "value", NULL, (uint64_t)w->v);
		out_bool(o, "reset", NULL, reset);
		if (out_is_json(o)) {
			out_obj_begin(o, "labels", NULL);
			if (w->lane)
				out_u64(o, "lane_number", NULL, w->lane);
			out_obj_end(o);
		}
		out_row_end(o);
	}
}

static void phy_gauge_rows(struct out *o, const struct phy_rows *cur, struct sel *s, bool all)
{
	if (!cur || (!all && !s->ngroups))
		return;
	out_table_begin(o, "gauges");
	for (size_t k = 0; k < cur->n; k++) {
		const struct phy_row *w = &cur->row[k];
		char name[48];

		if (!w->gauge || !phy_keep(s, w))
			continue;
		phy_row_name(w, name, sizeof(name));
		out_row_begin(o);
		out_str(o, "name", "NAME", out_is_json(o) ? w->name : name);
		out_str(o, "source", "SOURCE", w->source);
		if (w->valid)
			out_s64(o, "value", "VALUE", w->v);
		else
			out_null(o, "value", "VALUE");
		out_str(o, "unit", "UNIT", w->unit);
		if (out_is_json(o)) {
			out_obj_begin(o, "labels", NULL);
			if (w->lane)
				out_u64(o, "lane_number", NULL, w->lane);
			out_obj_end(o);
		}
		out_row_end(o);
	}
	out_table_end(o);
}

static int watch_emit(struct cli *cli, struct out *o, const struct mlx_counters *prev,
		      const struct mlx_counters *cur, struct sel *s, bool all, unsigned seq,
		      bool *warned, const struct phy_rows *pprev, const struct phy_rows *pcur)
{
	double dt = cur->t - prev->t;
	char ts[40];
	struct tm tm;

	gmtime_r(&cur->wall.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (isatty(fileno(cli->out_fp)))
		out_ctl(o, "\033[H\033[2J");
	/* one header, both forms: "sample 3 at TIME, interval 1.000 s" */
	out_fmt_str(o, OUT_JSON, "record", NULL, "sample");
	out_fmt_u64(o, OUT_ANY, "sample", "sample %s", seq);
	out_fmt_str(o, OUT_ANY, "time", " at %s", ts);
	out_fmt_u64(o, OUT_JSON, "interval_msec", NULL, (uint64_t)(dt * 1000 + 0.5));
	out_printf(o, ", interval %.3f s%s\n", dt, all ? "" : " (counters that moved)");
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < cur->nports; i++) {
		const struct mlx_counter_port *p = &cur->ports[i];
		const struct mlx_counter_port *pp = i < prev->nports ? &prev->ports[i] : NULL;
		char title[200];

		if (p->gone && !warned[i]) {
			cli_warn(cli, "'%s' vanished; watching the others", p->ifname);
			warned[i] = true;
		} else if (!p->gone && warned[i]) {
			cli_warn(cli, "'%s' is back", p->ifname);
			warned[i] = false;
		}
		port_title(p, title, sizeof(title));
		out_obj_begin(o, NULL, p->gone ? NULL : title);
		out_port_ids(o, p);
		out_bool(o, "gone", NULL, p->gone);
		if (p->gone) {
			out_obj_end(o);
			continue;
		}
		out_table_begin(o, "counters");
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];
			struct mlx_crate cr;
			double rate;
			char rbuf[48];

			/* a gauge, or nothing to compare with: no row */
			if (!keep(c, s) || !mlx_counter_change(pp, k, c, dt, &cr))
				continue;
			if (!cr.delta && !cr.reset && !all)
				continue;
			out_row_begin(o);
			out_str(o, "name", "NAME", c->name);
			out_str(o, "source", "SOURCE", mlx_csrc_name(c->src));
			if (cr.reset) {
				/* Cleared (driver reload): the increase over the
				 * interval, and so the rate, is unknown. */
				out_null(o, "delta", NULL);
				out_text(o, "DELTA", "reset");
				out_null(o, "rate_per_second", "RATE");
				out_null(o, "bits_per_second", "BITS");
			} else {
				rate = cr.per_second;
				out_u64(o, "delta", "DELTA", cr.delta);
				human_rate(rate, "/s", rbuf, sizeof(rbuf));
				out_u64_as(o, "rate_per_second", "RATE", (uint64_t)(rate + 0.5), rbuf);
				if (!strcmp(c->m->unit, "bytes")) {
					human_rate(rate * 8, "bit/s", rbuf, sizeof(rbuf));
					out_u64_as(o, "bits_per_second", "BITS", (uint64_t)(rate * 8 + 0.5),
						   rbuf);
				} else {
					out_null(o, "bits_per_second", "BITS");
				}
			}
			out_str(o, "unit", "UNIT", c->m->unit);
			out_u64(o, "value", NULL, c->value);
			out_bool(o, "reset", NULL, cr.reset);
			out_row_end(o);
		}
		phy_count_rows(o, pcur ? &pcur[i] : NULL, pprev ? &pprev[i] : NULL, s, all, dt);
		out_table_end(o);
		phy_gauge_rows(o, pcur ? &pcur[i] : NULL, s, all);
		out_obj_end(o);
	}
	out_list_end(o);
	return 0;
}

int counters_parse_interval(struct cli *cli, double *iv, long *count)
{
	const char *i = cli_opt(cli, "interval"), *c = cli_opt(cli, "count");
	char *end;

	*iv = 1.0;
	*count = 0;
	if (i) {
		*iv = strtod(i, &end);
		if (*end || !(*iv >= 0.01 && *iv <= 86400)) {
			cli_error(cli, "invalid --interval '%s': seconds from 0.01 to 86400", i);
			return EXIT_USAGE;
		}
	}
	if (c) {
		*count = strtol(c, &end, 10);
		if (*end || *count < 1 || *count > 100000000) {
			cli_error(cli, "invalid --count '%s': a number from 1", c);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/* The "start" record, as soon as the baseline @prev is taken: what is
 * watched, so that a pipeline (or a test) knows that anything from now on
 * shows in the first deltas.  Returns out_finish()'s result. */
static int watch_start(struct cli *cli, const struct mlx_counters *prev, double iv)
{
	struct out *o = out_new(true, false, cli->out_fp);
	char stamp[40];
	struct tm tm;
	int r;

	if (!o)
		return -ENOMEM;
	gmtime_r(&prev->wall.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	out_str(o, "record", NULL, "start");
	out_str(o, "time", NULL, stamp);
	out_u64(o, "interval_msec", NULL, (uint64_t)(iv * 1000 + 0.5));
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < prev->nports; i++) {
		out_obj_begin(o, NULL, NULL);
		out_port_ids(o, &prev->ports[i]);
		out_bool(o, "gone", NULL, prev->ports[i].gone);
		out_obj_end(o);
	}
	out_list_end(o);
	r = out_finish(o);
	out_free(o);
	return r;
}

int view_watch(struct cli *cli, struct mlx_cstate *st, const struct targets *ts,
		      struct sel *s)
{
	struct mlx_counters prev, cur;
	struct sigaction sa, old_int, old_term;
	double iv;
	long count;
	unsigned seq = 0;
	bool *warned, all = cli_opt(cli, "all") != NULL;
	struct phy_rows *phy[2] = { NULL, NULL }, *tmp;
	int r, rc;

	r = counters_parse_interval(cli, &iv, &count);
	if (r)
		return r;
	warned = calloc(ts->n + 1, sizeof(*warned));
	if (!warned)
		return EXIT_FAIL;
	if (phy_selected(s)) {
		phy[0] = calloc(ts->n + 1, sizeof(*phy[0]));
		phy[1] = calloc(ts->n + 1, sizeof(*phy[1]));
		if (!phy[0] || !phy[1]) {
			free(phy[0]);
			free(phy[1]);
			free(warned);
			return EXIT_FAIL;
		}
	}
	r = mlx_counters_sample(cli->ctx, st, ts->t, ts->n, s->srcs, &prev);
	if (r < 0) {
		free(warned);
		free(phy[0]);
		free(phy[1]);
		return cli_fail(cli, r, "cannot read the counters");
	}
	for (size_t i = 0; phy[0] && i < prev.nports; i++)
		phy_rows_read(cli, &prev.ports[i], &phy[0][i]);
	for (size_t i = 0; i < prev.nports; i++) {
		const struct mlx_counter *ls = mlx_counters_find(&prev.ports[i], MLX_CSRC_HW, "lifespan");

		if (ls && ls->valid && (double)ls->value > iv * 1000)
			cli_warn(cli, "%s caches hw_counters for %" PRIu64 " ms, longer than the "
				 "interval: some samples will repeat", prev.ports[i].rdma_dev, ls->value);
	}
	/* SIGINT (^C) and SIGTERM (systemd's stop) end the watch the same
	 * way: the stream still gets its end record.  Caught from before the
	 * start record, so that a signal sent on seeing it is not fatal. */
	interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (cli->json) {
		r = watch_start(cli, &prev, iv);
		if (r < 0) {
			/* No memory, or stdout closed before the first sample
			 * (quietly, as below). */
			rc = r == -ENOMEM ? EXIT_FAIL : EXIT_OK;
			goto out;
		}
	}
	while (!interrupted && (!count || (long)seq < count)) {
		struct timespec req = { (time_t)iv, (long)((iv - (double)(time_t)iv) * 1e9) };
		struct out *o;

		while (nanosleep(&req, &req) < 0 && errno == EINTR && !interrupted)
			;
		if (interrupted)
			break;
		r = mlx_counters_sample(cli->ctx, st, ts->t, ts->n, s->srcs, &cur);
		if (r < 0)
			break;
		seq++;
		for (size_t i = 0; phy[1] && i < cur.nports && i < ts->n; i++)
			phy_rows_read(cli, &cur.ports[i], &phy[1][i]);
		o = out_new(cli->json, false, cli->out_fp);
		if (!o) {
			mlx_counters_free(&cur);
			r = -ENOMEM;
			break;
		}
		watch_emit(cli, o, &prev, &cur, s, all, seq, warned, phy[0], phy[1]);
		r = out_finish(o);
		out_free(o);
		mlx_counters_free(&prev);
		prev = cur;
		tmp = phy[0];
		phy[0] = phy[1];
		phy[1] = tmp;
		if (r < 0)
			break;     /* stdout closed (| head): stop quietly */
	}
	if (r < 0 && r != -EPIPE && r != -ENOMEM && r != -EIO) {
		rc = cli_fail(cli, r, "cannot read the counters");
		goto out;
	}
	/* The stream ends with one "end" record (cli->out, dumped by the
	 * dispatcher). */
	out_str(cli->out, "record", NULL, "end");
	out_u64(cli->out, "sample_count", NULL, seq);
	out_bool(cli->out, "interrupted", NULL, interrupted != 0);
	rc = EXIT_OK;
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	mlx_counters_free(&prev);
	free(phy[0]);
	free(phy[1]);
	free(warned);
	return rc;
}
