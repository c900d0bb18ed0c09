/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The views of `mlxcli top` (cmd/top.c runs the terminal): a port per
 * row, the numbers of a view per column, from two samples of the counters.
 * Every rate is mlx_counter_change()'s, `counters watch`'s arithmetic: a
 * counter that went backwards (cleared) has no rate ("-"), a catalogued
 * 32-bit counter wraps.  The counters each column adds up are named in
 * the table below, with the catalogue's words for them
 * (lib/counters/counters-catalog.c); a port that lacks them all shows
 * "-", never 0.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters-phy.h"
#include "top-view.h"

const char *const top_view_names[] = { "traffic", "pause-rx", "pause-tx", "cc", "module", NULL };

enum fmt { F_GBPS, F_RATE, F_PCT, F_TEMP, F_DBM, F_COUNT };

struct col {
	const char *title;
	int metric;
	unsigned width;
	enum fmt fmt;
};

#define NAME_W 15      /* IFNAMSIZ - 1 */
#define LINK_W 8

struct view {
	const char *name, *what;
	bool link;                      /* a LINK column after the port */
	struct col cols[8];
	size_t ncols;
};

/* Each view fits in 80 columns: the port (15), LINK (8 and a blank) and
 * the columns, each with its blank. */
static const struct view views[] = {
	{ "traffic", "bits and packets per second, drops", true,
	  { { "RX Gb/s", M_RX_BPS, 8, F_GBPS }, { "TX Gb/s", M_TX_BPS, 8, F_GBPS },
	    { "RX pkt/s", M_RX_PPS, 9, F_RATE }, { "TX pkt/s", M_TX_PPS, 9, F_RATE },
	    { "DROP/s", M_DROPS, 8, F_RATE } }, 5 },
	{ "pause-rx", "PFC pause frames received per second, per priority", false,
	  { { "RX P0", M_RX_PAUSE + 0, 7, F_RATE }, { "RX P1", M_RX_PAUSE + 1, 7, F_RATE },
	    { "RX P2", M_RX_PAUSE + 2, 7, F_RATE }, { "RX P3", M_RX_PAUSE + 3, 7, F_RATE },
	    { "RX P4", M_RX_PAUSE + 4, 7, F_RATE }, { "RX P5", M_RX_PAUSE + 5, 7, F_RATE },
	    { "RX P6", M_RX_PAUSE + 6, 7, F_RATE }, { "RX P7", M_RX_PAUSE + 7, 7, F_RATE } }, 8 },
	{ "pause-tx", "PFC pause frames sent per second, per priority", false,
	  { { "TX P0", M_TX_PAUSE + 0, 7, F_RATE }, { "TX P1", M_TX_PAUSE + 1, 7, F_RATE },
	    { "TX P2", M_TX_PAUSE + 2, 7, F_RATE }, { "TX P3", M_TX_PAUSE + 3, 7, F_RATE },
	    { "TX P4", M_TX_PAUSE + 4, 7, F_RATE }, { "TX P5", M_TX_PAUSE + 5, 7, F_RATE },
	    { "TX P6", M_TX_PAUSE + 6, 7, F_RATE }, { "TX P7", M_TX_PAUSE + 7, 7, F_RATE } }, 8 },
	{ "cc", "RoCE congestion: CNPs and ECN marks per second, PCIe stalls", false,
	  { { "CNPSENT/s", M_CNP_SENT, 9, F_RATE }, { "CNPHNDL/s", M_CNP_HANDLED, 9, F_RATE },
	    { "ECN/s", M_ECN, 9, F_RATE }, { "STALLRD%", M_STALL_RD, 9, F_PCT },
	    { "STALLWR%", M_STALL_WR, 9, F_PCT }, { "STALLEV/s", M_STALL_EVENTS, 9, F_RATE } }, 6 },
	{ "module", "the transceiver: temperature, Rx power of the weakest and strongest lane",
	  true, { { "TEMP C", M_TEMP, 7, F_TEMP }, { "RXMIN dBm", M_RXPWR_MIN, 10, F_DBM },
		  { "RXMAX dBm", M_RXPWR_MAX, 10, F_DBM }, { "LANES", M_LANES, 6, F_COUNT } }, 4 },
};
#define NVIEWS (sizeof(views) / sizeof(views[0]))

int top_view_index(const char *name)
{
	for (size_t i = 0; i < NVIEWS; i++)
		if (!strcmp(views[i].name, name))
			return (int)i;
	return -1;
}

int top_state_init(struct top_state *s, size_t n, int view, double interval)
{
	memset(s, 0, sizeof(*s));
	s->rows = calloc(n + 1, sizeof(*s->rows));
	s->order = calloc(n + 1, sizeof(*s->order));
	if (!s->rows || !s->order) {
		top_state_free(s);
		return -ENOMEM;
	}
	s->n = n;
	s->view = view >= 0 && (size_t)view < NVIEWS ? view : 0;
	s->interval = interval;
	return 0;
}

void top_state_free(struct top_state *s)
{
	free(s->rows);
	free(s->order);
	s->rows = NULL;
	s->order = NULL;
	s->n = 0;
}

/* ---- the numbers -------------------------------------------------------------- */

/* Counter @name's rate over the interval (`counters watch`'s RATE), or
 * NAN: missing, new, or reset. */
static double rate(const struct mlx_counter_port *pp, const struct mlx_counter_port *p,
		   enum mlx_csrc src, const char *name, double dt)
{
	const struct mlx_counter *c = mlx_counters_find(p, src, name);
	struct mlx_crate cr;

	if (!c || !mlx_counter_change(pp, (size_t)(c - p->c), c, dt, &cr) || cr.reset)
		return NAN;
	return cr.per_second;
}

static double gauge(const struct mlx_counter_port *p, enum mlx_csrc src, const char *name)
{
	const struct mlx_counter *c = mlx_counters_find(p, src, name);

	return c && c->valid ? (double)c->value : NAN;
}

/* a + b where either is known */
static double add(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a + b;
}

static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++)
		dst[i++] = *src > 0x20 && *src < 0x7f ? *src : '?';
	dst[i] = 0;
}

static void link_text(struct cli *cli, const struct mlx_ctarget *t,
		      const struct mlx_counter_port *p, char *buf, size_t len)
{
	char oper[16] = "";
	int carrier = -1;

	if (p->gone) {
		snprintf(buf, len, "gone");
		return;
	}
	if (mlx_netdev_link(cli->ctx, p->ifname, oper, sizeof(oper), &carrier) < 0 || !oper[0])
		snprintf(oper, sizeof(oper), "%s", t->port ? t->port->operstate : "?");
	mlx_err_clear(cli->ctx);
	if (!strcmp(oper, "up") && t->port && t->port->speed_mbps > 0) {
		int64_t m = t->port->speed_mbps;

		if (m % 1000 == 0)
			snprintf(buf, len, "up %lldG", (long long)(m / 1000));
		else
			snprintf(buf, len, "up %lldM", (long long)m);
	} else {
		sanitize(buf, len, oper);
	}
}

/* The module's readings (counters --group phy's rows): temperature in
 * degrees C, Rx power per lane in dBm. */
static void module_values(struct cli *cli, const struct mlx_counter_port *p, double *v)
{
	static struct phy_rows r;       /* large: one port at a time */
	unsigned lanes = 0;

	phy_rows_read(cli, p, &r);
	mlx_err_clear(cli->ctx);
	for (size_t k = 0; k < r.n; k++) {
		const struct phy_row *w = &r.row[k];
		double dbm;

		if (!w->valid)
			continue;
		if (!strcmp(w->name, "temperature")) {
			v[M_TEMP] = (double)w->v / 1000.0;
		} else if (!strcmp(w->name, "rx_power")) {
			/* nanowatts: dBm = 10 log10(mW); a dark lane -inf */
			dbm = w->v > 0 ? 10.0 * log10((double)w->v / 1e6) : -INFINITY;
			if (isnan(v[M_RXPWR_MIN]) || dbm < v[M_RXPWR_MIN])
				v[M_RXPWR_MIN] = dbm;
			if (isnan(v[M_RXPWR_MAX]) || dbm > v[M_RXPWR_MAX])
				v[M_RXPWR_MAX] = dbm;
			lanes++;
		}
	}
	if (lanes)
		v[M_LANES] = lanes;
}

static void port_values(const struct mlx_counter_port *pp, const struct mlx_counter_port *p,
			double dt, double *v)
{
	char name[32];

	if (!pp || pp->gone)
		pp = NULL;
	/* the kernel's rtnl_link_stats64: every netdev has them */
	v[M_RX_BPS] = rate(pp, p, MLX_CSRC_NETDEV, "rx_bytes", dt) * 8 / 1e9;
	v[M_TX_BPS] = rate(pp, p, MLX_CSRC_NETDEV, "tx_bytes", dt) * 8 / 1e9;
	v[M_RX_PPS] = rate(pp, p, MLX_CSRC_NETDEV, "rx_packets", dt);
	v[M_TX_PPS] = rate(pp, p, MLX_CSRC_NETDEV, "tx_packets", dt);
	/* dropped by the stack or the driver, and by the port for want of
	 * a buffer (mlx5: rx_discards_phy; en_stats.c) */
	v[M_DROPS] = add(add(rate(pp, p, MLX_CSRC_NETDEV, "rx_dropped", dt),
			     rate(pp, p, MLX_CSRC_NETDEV, "tx_dropped", dt)),
			 rate(pp, p, MLX_CSRC_ETHTOOL, "rx_discards_phy", dt));
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "rx_prio%d_pause", i);
		v[M_RX_PAUSE + i] = rate(pp, p, MLX_CSRC_ETHTOOL, name, dt);
		snprintf(name, sizeof(name), "tx_prio%d_pause", i);
		v[M_TX_PAUSE + i] = rate(pp, p, MLX_CSRC_ETHTOOL, name, dt);
	}
	/* mlx5_ib's congestion counters (hw_counters) */
	v[M_CNP_SENT] = rate(pp, p, MLX_CSRC_HW, "np_cnp_sent", dt);
	v[M_CNP_HANDLED] = rate(pp, p, MLX_CSRC_HW, "rp_cnp_handled", dt);
	v[M_ECN] = rate(pp, p, MLX_CSRC_HW, "np_ecn_marked_roce_packets", dt);
	/* the PCIe stall gauges (percent of the last second) and the
	 * seconds over their threshold (mlx5 PCIe performance counters) */
	v[M_STALL_RD] = gauge(p, MLX_CSRC_ETHTOOL, "outbound_pci_stalled_rd");
	v[M_STALL_WR] = gauge(p, MLX_CSRC_ETHTOOL, "outbound_pci_stalled_wr");
	v[M_STALL_EVENTS] = add(rate(pp, p, MLX_CSRC_ETHTOOL, "outbound_pci_stalled_rd_events", dt),
				rate(pp, p, MLX_CSRC_ETHTOOL, "outbound_pci_stalled_wr_events", dt));
}

static const struct top_state *sorting;

static int cmp_rows(const void *a, const void *b)
{
	const struct top_state *s = sorting;
	const struct top_row *x = &s->rows[*(const size_t *)a], *y = &s->rows[*(const size_t *)b];
	int r;

	if (s->sort > 0) {
		int m = views[s->view].cols[s->sort - 1].metric;
		double p = x->v[m], q = y->v[m];

		/* the largest first; unknown last, whatever the direction */
		if (isnan(p) != isnan(q))
			return isnan(p) ? 1 : -1;
		if (!isnan(p) && p != q)
			return (p > q ? -1 : 1) * (s->reverse ? -1 : 1);
	}
	r = strcmp(x->name, y->name);
	if (s->sort == 0 && s->reverse)
		r = -r;
	return r ? r : x->target < y->target ? -1 : x->target > y->target;
}

static void sort_rows(struct top_state *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->order[i] = i;
	sorting = s;
	qsort(s->order, s->n, sizeof(*s->order), cmp_rows);
	sorting = NULL;
}

void top_compute(struct cli *cli, struct top_state *s, const struct targets *ts,
		 const struct mlx_counters *prev, const struct mlx_counters *cur)
{
	struct tm tm;

	gmtime_r(&cur->wall.tv_sec, &tm);
	strftime(s->when, sizeof(s->when), "%H:%M:%SZ", &tm);
	s->rates = prev != NULL;
	s->dt = prev ? cur->t - prev->t : 0;
	s->n = cur->nports < ts->n ? cur->nports : ts->n;
	for (size_t i = 0; i < s->n; i++) {
		const struct mlx_counter_port *p = &cur->ports[i];
		const struct mlx_counter_port *pp = prev && i < prev->nports ? &prev->ports[i] : NULL;
		struct top_row *w = &s->rows[i];

		w->target = i;
		sanitize(w->name, sizeof(w->name), p->ifname);
		link_text(cli, &ts->t[i], p, w->link, sizeof(w->link));
		for (int m = 0; m < M_N; m++)
			w->v[m] = NAN;
		if (p->gone)
			continue;
		port_values(pp, p, s->dt, w->v);
		if (!strcmp(views[s->view].name, "module"))
			module_values(cli, p, w->v);
	}
	sort_rows(s);
}

/* ---- the screen ------------------------------------------------------------- */

static void cell(char *buf, size_t len, double v, enum fmt f)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (f) {
	case F_GBPS:
		snprintf(buf, len, v < 100 ? "%.2f" : "%.0f", v);
		break;
	case F_RATE:
		human_rate(v, "", buf, len);
		if (buf[0] && buf[strlen(buf) - 1] == ' ')
			buf[strlen(buf) - 1] = 0;
		break;
	case F_PCT:
	case F_COUNT:
		snprintf(buf, len, "%.0f", v);
		break;
	case F_TEMP:
	case F_DBM:
		snprintf(buf, len, isinf(v) ? "-inf" : "%.1f", v);
		break;
	}
}

/* Append to line @l (at most @cols characters; what does not fit is cut). */
static void put(char *l, size_t *at, unsigned cols, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *l, size_t *at, unsigned cols, const char *fmt, ...)
{
	va_list ap;
	char tmp[TOP_MAX_COLS + 1];
	size_t n;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	n = strlen(tmp);
	if (*at >= cols)
		return;
	if (n > cols - *at)
		n = cols - *at;
	memcpy(l + *at, tmp, n);
	*at += n;
	l[*at] = 0;
}

/* One screen line: clear it, then the text (cleared first, so that a
 * text reaching the last column is not erased by the clear). */
static void emit(FILE *m, const char *text, bool first, bool inverse)
{
	fprintf(m, "%s\033[2K%s%s%s", first ? "" : "\r\n", inverse ? "\033[7m" : "", text,
		inverse ? "\033[m" : "");
}

int top_draw(FILE *fp, const struct top_state *s, unsigned rows, unsigned cols)
{
	const struct view *v = &views[s->view];
	char l[TOP_MAX_COLS + 1], *frame = NULL;
	size_t at, len = 0, lines = 0, body;
	FILE *m;
	int r = 0;

	if (cols > TOP_MAX_COLS)
		cols = TOP_MAX_COLS;
	m = open_memstream(&frame, &len);
	if (!m)
		return -ENOMEM;
	fputs("\033[H", m);
	/* the title */
	at = 0;
	l[0] = 0;
	put(l, &at, cols, "mlxcli top  %s  every %.2g s  %zu port%s  view %d/%zu %s", s->when,
	    s->interval, s->n, s->n == 1 ? "" : "s", s->view + 1, NVIEWS, v->name);
	if (!s->rates)
		put(l, &at, cols, "  (rates after %.2g s)", s->interval);
	emit(m, l, true, false);
	lines++;
	/* what the view is and the keys */
	at = 0;
	put(l, &at, cols, "sort %s%s  keys: 1-%zu/v view  s sort  r reverse  q quit",
	    s->sort ? v->cols[s->sort - 1].title : "PORT",
	    s->reverse == (s->sort != 0) ? " (ascending)" : " (descending)", NVIEWS);
	if (rows > 2) {
		emit(m, l, false, false);
		lines++;
	}
	/* the header: the sorted column's title marked with '*' */
	at = 0;
	put(l, &at, cols, "%s%-*s", s->sort ? " " : "*", NAME_W - 1, "PORT");
	if (v->link)
		put(l, &at, cols, " %-*s", LINK_W, "LINK");
	for (size_t c = 0; c < v->ncols; c++) {
		char t[24];

		snprintf(t, sizeof(t), "%s%s", s->sort == (int)c + 1 ? "*" : "", v->cols[c].title);
		put(l, &at, cols, " %*s", (int)v->cols[c].width, t);
	}
	while (at < cols)
		put(l, &at, cols, " ");
	if (rows > 3) {
		emit(m, l, false, true);
		lines++;
	}
	body = rows > lines ? rows - lines : 0;
	for (size_t i = 0; i < s->n && i < body; i++) {
		const struct top_row *w = &s->rows[s->order[i]];

		at = 0;
		if (i + 1 == body && i + 1 < s->n) {
			put(l, &at, cols, "... %zu more port%s: a larger terminal shows them",
			    s->n - i, s->n - i == 1 ? "" : "s");
		} else {
			put(l, &at, cols, "%-*.*s", NAME_W, NAME_W, w->name);
			if (v->link)
				put(l, &at, cols, " %-*.*s", LINK_W, LINK_W, w->link);
			for (size_t c = 0; c < v->ncols; c++) {
				char b[32];

				cell(b, sizeof(b), w->v[v->cols[c].metric], v->cols[c].fmt);
				put(l, &at, cols, " %*s", (int)v->cols[c].width, b);
			}
		}
		emit(m, l, false, false);
		lines++;
	}
	if (lines < rows)
		fputs("\r\n\033[J", m);
	if (fclose(m) != 0) {
		free(frame);
		return -ENOMEM;
	}
	if (fwrite(frame, 1, len, fp) != len || fflush(fp) == EOF)
		r = -EIO;
	free(frame);
	return r;
}

/* ---- the keys -------------------------------------------------------------- */

bool top_key(struct top_state *s, int key)
{
	int ncols = (int)views[s->view].ncols;

	if (key >= '1' && key < '1' + (int)NVIEWS) {
		if (s->view == key - '1')
			return false;
		s->view = key - '1';
	} else if (key == 'v' || key == '\t') {
		s->view = (s->view + 1) % (int)NVIEWS;
	} else if (key == 's') {
		s->sort = (s->sort + 1) % (ncols + 1);
		s->reverse = false;
		sort_rows(s);
		return true;
	} else if (key == 'S') {
		s->sort = (s->sort + ncols) % (ncols + 1);
		s->reverse = false;
		sort_rows(s);
		return true;
	} else if (key == 'r') {
		s->reverse = !s->reverse;
		sort_rows(s);
		return true;
	} else {
		return false;
	}
	/* another view: its columns, sorted by port again */
	s->sort = 0;
	s->reverse = false;
	sort_rows(s);
	return true;
}
