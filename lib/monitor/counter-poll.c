/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters that only count, polled (issue 16, `monitor --poll SEC`): the
 * PCIe AER totals of each function.  An error the kernel counts is not
 * always a log line (correctable errors are rate-limited, or masked from
 * the log), so a total that grows between two polls is an event.  The
 * files are read through lib/debug/evidence.c (root-prefixed, so a capture
 * works the same).  And the lane flags of each port's module (issue 25),
 * read through lib/phy.h as `mlxcli module` reads them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "monitor.h"
#include "phy.h"

int mlx_aer_total_parse(const char *text, size_t len, uint64_t *total)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		char line[96];
		size_t n;

		if (!e)
			e = end;
		n = (size_t)(e - p) < sizeof(line) - 1 ? (size_t)(e - p) : sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		if (!strncmp(line, "TOTAL_ERR_", 10)) {
			const char *v = strchr(line, ' ');
			char *x;

			if (!v)
				return -EBADMSG;
			errno = 0;
			*total = strtoull(v + 1, &x, 10);
			if (errno || x == v + 1)
				return -EBADMSG;
			return 0;
		}
		p = e + 1;
	}
	return -ENOENT;
}

void mlx_aer_totals(struct mlx_ctx *ctx, const struct mlx_function *fn, uint64_t tot[3])
{
	for (unsigned i = 0; i < MLX_EVIDENCE_NAER && i < 3; i++) {
		char *text = NULL;
		size_t len = 0;

		tot[i] = UINT64_MAX;
		if (mlx_evidence_aer(ctx, fn, i, &text, &len) == 0 &&
		    mlx_aer_total_parse(text, len, &tot[i]) < 0)
			tot[i] = UINT64_MAX;
		free(text);
	}
	mlx_err_clear(ctx);
}

void mlx_ev_aer_moved(struct mlx_event *ev, const char *bdf, unsigned which, uint64_t old, uint64_t now)
{
	static const char *const what[3] = { "correctable", "non-fatal", "fatal" };

	memset(ev, 0, sizeof(*ev));
	ev->kind = MLX_EV_AER_COUNTER_MOVED;
	ev->source = MLX_EVS_MONITOR;
	/* a fatal or non-fatal error is worse than the kind's default */
	ev->severity = which == 2 ? MLX_EVSEV_CRITICAL : which == 1 ? MLX_EVSEV_ERROR :
		       mlx_ev_kind_info(MLX_EV_AER_COUNTER_MOVED)->severity;
	snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", bdf);
	snprintf(ev->detail, sizeof(ev->detail), "%s", what[which < 3 ? which : 0]);
	mlx_ev_set(ev, MLX_EVF_ERR_COUNT, now);
	snprintf(ev->text, sizeof(ev->text), "%s AER errors: %" PRIu64 " -> %" PRIu64 " (+%" PRIu64 ")",
		 what[which < 3 ? which : 0], old, now, now - old);
}

static int flag_event(unsigned lane, int f, bool raised, const char *bdf, const char *ifname,
		      mlx_modflags_emit emit, void *arg)
{
	struct mlx_event *ev = calloc(1, sizeof(*ev));
	enum mlx_ev_kind k = raised ? MLX_EV_MODULE_LANE_FLAG : MLX_EV_MODULE_LANE_FLAG_CLEARED;
	int r;

	if (!ev)
		return 0;       /* out of memory: the event is lost, the poll goes on */
	ev->kind = k;
	ev->source = MLX_EVS_MONITOR;
	ev->severity = mlx_ev_kind_info(k)->severity;
	snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", bdf ? bdf : "");
	snprintf(ev->netdev, sizeof(ev->netdev), "%s", ifname ? ifname : "");
	snprintf(ev->counter, sizeof(ev->counter), "%s", mlx_mod_flag_key(f));
	snprintf(ev->detail, sizeof(ev->detail), "%s", mlx_mod_flag_text(f));
	mlx_ev_set(ev, MLX_EVF_LANE, lane);
	snprintf(ev->text, sizeof(ev->text), "module lane %u: %s %s", lane, mlx_mod_flag_text(f),
		 raised ? "raised" : "cleared");
	r = emit(arg, ev);
	free(ev);
	return r;
}

int mlx_mod_flag_events(struct mlx_modflags_prev *prev, const struct mlx_mod_info *now, const char *bdf,
			const char *ifname, mlx_modflags_emit emit, void *arg)
{
	unsigned n;
	int r = 0;

	if (!now) {
		prev->have = false;
		return 0;
	}
	n = now->nlanes < MLX_MOD_MAX_LANES ? now->nlanes : MLX_MOD_MAX_LANES;
	/* another lane count: another module, a new baseline */
	if (prev->have && prev->nlanes == n)
		for (unsigned i = 0; i < n && r == 0; i++)
			for (int f = 0; f < MLX_MOD_NFLAGS && r == 0; f++) {
				int8_t was = prev->flag[i][f], is = now->lane[i].flag[f];

				/* unknown on either side (a page not read this
				 * time) is no transition */
				if (was < 0 || is < 0 || !was == !is)
					continue;
				r = flag_event(i + 1, f, is > 0, bdf, ifname, emit, arg);
			}
	prev->have = true;
	prev->nlanes = n;
	for (unsigned i = 0; i < n; i++)
		memcpy(prev->flag[i], now->lane[i].flag, sizeof(prev->flag[i]));
	return r;
}

int mlx_mod_flags_poll(struct mlx_ctx *ctx, const char *bdf, const char *ifname,
		       struct mlx_modflags_prev *prev, mlx_modflags_emit emit, void *arg)
{
	struct mlx_module *m = malloc(sizeof(*m));     /* large: pages and their decode */
	int r;

	if (!m)
		return 0;       /* the next poll tries again */
	if (mlx_module_read(ctx, ifname, m) == 0 && (!m->decode_rc || m->decode_rc == -EBADMSG))
		r = mlx_mod_flag_events(prev, &m->info, bdf, ifname, emit, arg);
	else
		r = mlx_mod_flag_events(prev, NULL, bdf, ifname, emit, arg);
	mlx_err_clear(ctx);
	free(m);
	return r;
}
