/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters that only count, polled (issue 16, `monitor --poll SEC`): the
 * PCIe AER totals of each function.  An error the kernel counts is not
 * always a log line (correctable errors are rate-limited, or masked from
 * the log), so a total that grows between two polls is an event.  The
 * files are read through lib/debug/evidence.c (root-prefixed, so a capture
 * works the same).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "monitor.h"

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
