/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VF monitor (issue 16, `monitor --vf-thresholds SPEC`): WinOF-2
 * 24.4's "VF used too many resources" event, which compares a VF's
 * counters between two samples with a threshold per period.  On Linux the
 * counters are the devlink health "vnic" reporter's diagnose pairs (the
 * names and widths of drivers/net/ethernet/mellanox/mlx5/core/diag/
 * reporter_vnic.c; what each counts: Documentation/networking/devlink/
 * mlx5.rst), read by cmd/monitor-poll.c through lib/debug/health.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "monitor.h"

static const struct {
	const char *name;
	unsigned width;             /* u32 pairs wrap at 2^32 (firmware counters) */
} vnic_counters[] = {
	{ "total_error_queues", 32 }, { "send_queue_priority_update_flow", 32 },
	{ "comp_eq_overrun", 32 }, { "async_eq_overrun", 32 }, { "cq_overrun", 32 },
	{ "invalid_command", 32 }, { "quota_exceeded_command", 32 },
	{ "nic_receive_steering_discard", 64 }, { "generated_pkt_steering_fail", 64 },
	{ "handled_pkt_steering_fail", 64 },
	/* later kernels: icm_consumption (a gauge, 4 KiB units, u32, with
	 * nic_cap_reg) and, in 6.18, bar_uar_access and the ODP page faults
	 * (u32 pairs behind their HCA caps; diag/reporter_vnic.c) */
	{ "icm_consumption", 32 }, { "bar_uar_access", 32 },
	{ "odp_local_triggered_page_fault", 32 }, { "odp_remote_triggered_page_fault", 32 },
};
#define NVNIC (sizeof(vnic_counters) / sizeof(vnic_counters[0]))

const char *mlx_vnic_counter_name(size_t i)
{
	return i < NVNIC ? vnic_counters[i].name : NULL;
}

static int vnic_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NVNIC; i++)
		if (strlen(vnic_counters[i].name) == len && !strncmp(vnic_counters[i].name, name, len))
			return (int)i;
	return -1;
}

/* a count: decimal digits only (no sign, no blank), at most UINT64_MAX */
static int parse_count(const char *p, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9' || x > (UINT64_MAX - (uint64_t)(p[i] - '0')) / 10)
			return -EINVAL;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	*v = x;
	return 0;
}

static int fail(char *err, size_t errlen, const char *spec, const char *why)
{
	char names[768];
	size_t k = 0;

	names[0] = '\0';
	for (size_t i = 0; i < NVNIC && k < sizeof(names); i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
				      vnic_counters[i].name);
	snprintf(err, errlen, "invalid --vf-thresholds '%s': %s (N, or NAME=N[,NAME=N...] with a count "
		 "per poll period; NAME a counter of the vnic reporter: %s, ...)", spec, why, names);
	return -EINVAL;
}

/* A counter's name as the reporter spells them: [a-z0-9_], 1-47 bytes. */
static bool name_ok(const char *p, size_t len)
{
	if (len == 0 || len >= sizeof(((struct mlx_vf_thresholds *)0)->c[0].name))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
			return false;
	return true;
}

int mlx_vf_thresholds_parse(const char *spec, struct mlx_vf_thresholds *t, char *err, size_t errlen)
{
	const char *p = spec;

	memset(t, 0, sizeof(*t));
	if (!*spec)
		return fail(err, errlen, spec, "empty");
	for (;;) {
		const char *end = strchr(p, ','), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		uint64_t v;

		eq = memchr(p, '=', len);
		if (len == 0)
			return fail(err, errlen, spec, "an empty item");
		if (!eq) {
			if (parse_count(p, len, &v) < 0)
				return fail(err, errlen, spec, name_ok(p, len) ? "a name without =N" :
					    "not a count");
			if (t->has_default)
				return fail(err, errlen, spec, "two counts for every counter");
			t->has_default = true;
			t->dflt = v;
		} else {
			size_t nl = (size_t)(eq - p);

			if (!name_ok(p, nl))
				return fail(err, errlen, spec, "not a counter name");
			if (parse_count(eq + 1, len - (size_t)(eq + 1 - p), &v) < 0)
				return fail(err, errlen, spec, "not a count");
			for (size_t k = 0; k < t->n; k++)
				if (strlen(t->c[k].name) == nl && !strncmp(t->c[k].name, p, nl))
					return fail(err, errlen, spec, "a counter named twice");
			if (t->n == MLX_VF_THRESHOLDS_MAX)
				return fail(err, errlen, spec, "too many items");
			memcpy(t->c[t->n].name, p, nl);
			t->c[t->n].name[nl] = '\0';
			t->c[t->n++].max = v;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

bool mlx_vf_threshold_of(const struct mlx_vf_thresholds *t, const char *name, uint64_t *max)
{
	for (size_t k = 0; k < t->n; k++)
		if (!strcmp(t->c[k].name, name)) {
			*max = t->c[k].max;
			return true;
		}
	*max = t->dflt;
	return t->has_default;
}

int mlx_vf_threshold_check(const struct mlx_vf_thresholds *t, const char *name, const char *bdf,
			   int64_t port_index, bool have_prev, uint64_t prev, uint64_t now,
			   struct mlx_event *ev)
{
	int i = vnic_index(name, strlen(name));
	bool reset = false;
	uint64_t max, d;

	if (!have_prev || !mlx_vf_threshold_of(t, name, &max))
		return 0;
	/* a counter of a later kernel: its width unknown, no wrap assumed */
	d = mlx_counter_delta(prev, now, i >= 0 ? vnic_counters[i].width : 64, &reset);
	if (reset || d <= max)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->kind = MLX_EV_VF_RESOURCE_THRESHOLD;
	ev->source = MLX_EVS_MONITOR;
	ev->severity = mlx_ev_kind_info(ev->kind)->severity;
	snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", bdf);
	snprintf(ev->reporter, sizeof(ev->reporter), "vnic");
	snprintf(ev->counter, sizeof(ev->counter), "%s", name);
	if (port_index >= 0)
		snprintf(ev->detail, sizeof(ev->detail), "port %" PRId64, port_index);
	mlx_ev_set(ev, MLX_EVF_DELTA, d);
	mlx_ev_set(ev, MLX_EVF_TOTAL, now);
	snprintf(ev->text, sizeof(ev->text), "%s grew by %" PRIu64 " in one period (threshold %" PRIu64
		 "): %" PRIu64 " -> %" PRIu64, name, d, max, prev, now);
	return 1;
}
