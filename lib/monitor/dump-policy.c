/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which events make an automatic incident (issue 16), pure.  WinOF-2 makes
 * a state dump on the Table 19 events (reference/seeds-winof2-dumps-
 * events.md §2): CMD_ERR, EQ_STUCK, TXCQ_STUCK, RXCQ_STUCK on by default,
 * PORT_STATE off, at most DumpEventsNum (20) sets per event type.  Linux
 * adds what Windows did not need: a burst (a flapping link, a storm of CQE
 * errors, one stuck queue reported on every channel: events of one type
 * and device each within MLX_DUMP_BURST_SEC of the one before) is one
 * incident per type and device, not one per line; and FATAL_ERROR, the
 * worst event, which Windows answers with a bugcheck.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "monitor.h"

void mlx_dump_policy_init(struct mlx_dump_policy *p)
{
	memset(p, 0, sizeof(*p));
	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
		p->enabled[t] = mlx_dump_type_info(t)->on_by_default;
	p->budget = MLX_DUMP_EVENTS_NUM;
	p->burst_sec = MLX_DUMP_BURST_SEC;
}

int mlx_dump_policy_set(struct mlx_dump_policy *p, const char *type, bool on)
{
	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++) {
		const struct mlx_dump_type_info *d = mlx_dump_type_info(t);

		/* the name in any case: "--dump-types fatal_error" */
		if (!strcasecmp(type, d->name) || (type[0] == d->tag && !type[1])) {
			p->enabled[t] = on;
			return 0;
		}
	}
	return -EINVAL;
}

int mlx_dump_policy_set_list(struct mlx_dump_policy *p, const char *list)
{
	struct mlx_dump_policy q = *p;
	const char *w = list;

	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
		q.enabled[t] = false;
	if (!strcmp(list, "none")) {
		*p = q;
		return 0;
	}
	for (;;) {
		const char *e = strchr(w, ',');
		size_t n = e ? (size_t)(e - w) : strlen(w);
		char word[32];

		if (!n || n >= sizeof(word))
			return -EINVAL;
		memcpy(word, w, n);
		word[n] = '\0';
		if (mlx_dump_policy_set(&q, word, true) < 0)
			return -EINVAL;
		if (!e)
			break;
		w = e + 1;
	}
	*p = q;
	return 0;
}

enum mlx_dump_verdict mlx_dump_policy_decide(struct mlx_dump_policy *p, const struct mlx_event *ev,
					     uint64_t now)
{
	uint64_t window = (uint64_t)p->burst_sec * 1000000;
	const struct mlx_ev_kind_info *k = mlx_ev_kind_info(ev->kind);
	/* the device: its function, else its netdev */
	const char *dev = ev->pci_address[0] ? ev->pci_address : ev->netdev;
	enum mlx_dump_type t = k ? k->dump : MLX_DUMP_NONE;
	size_t cap = sizeof(p->last) / sizeof(p->last[0]);

	if (t == MLX_DUMP_NONE || t >= MLX_DUMP_NTYPES)
		return MLX_DUMP_NO_TYPE;
	if (!p->enabled[t])
		return MLX_DUMP_DISABLED;
	/* a burst goes on while its events come within the window of the
	 * one before (in µs: whole seconds made 10.999 s and 70.001 s 60 s
	 * apart, two incidents of one burst, issue 29 item 12); records of
	 * several devices interleave, so time may also step back a little */
	for (size_t i = 0; i < p->nlast && i < cap; i++) {
		uint64_t at = p->last[i].at;

		if (p->last[i].type == t && !strcmp(p->last[i].dev, dev) &&
		    (now >= at ? now - at : at - now) < window) {
			if (now > at)
				p->last[i].at = now;
			p->folded[t]++;
			return MLX_DUMP_BURST;
		}
	}
	if (p->made[t] >= p->budget)
		return MLX_DUMP_BUDGET;
	p->made[t]++;
	p->last[p->nlast % cap].type = t;
	snprintf(p->last[p->nlast % cap].dev, sizeof(p->last[0].dev), "%s", dev);
	p->last[p->nlast % cap].at = now;
	p->nlast++;
	return MLX_DUMP_MAKE;
}
