/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `counters --format prometheus` adds to the counters for alert rules
 * at fleet scale (issue 19): state gauges per PF port, and the textfile
 * written atomically for node_exporter's textfile collector.
 *
 * Metric names are mlxcli_ + the JSON registry's key for the fact
 * (speed_mbps -> mlxcli_link_speed_mbps, degraded -> mlxcli_pcie_degraded)
 * and the labels are registry keys (pci_address, netdev, priority, side,
 * rule, severity); fw query's reset_pending -> mlxcli_firmware_reset_pending.
 * The firmware is an info metric (issue 25 item 18): value 1, the facts in
 * labels named as fw -j names them (running_version, stored_version,
 * psid), so a version is joined to any other series by pci_address.  The
 * ASIC temperature is the mlx5 hwmon's "asic" sensor (show selfhealing
 * port; Linux 6.1+, so MLNX_OFED and older kernels have no sample).
 * An unknown fact is no sample, never a made-up 0: the upstream driver
 * exposes no per-priority DCQCN enable, so there is no mlxcli_dcqcn_enabled
 * for its ports.
 */
#include "incident.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "fw.h"
#include "phy.h"
#include "prom.h"
#include "qos-check.h"

/* The families, in the order they are written (sorted by name). */
static const struct {
	const char *name, *help;
} families[] = {
	{ "mlxcli_asic_temperature_celsius", "the adapter ASIC's temperature (mlx5 hwmon sensor "
	  "\"asic\"; absent where the driver has no hwmon)" },
	{ "mlxcli_asic_temperature_critical_celsius", "the ASIC's critical temperature as "
	  "the driver reports it (mlx5 hwmon temp_crit)" },
	{ "mlxcli_dcqcn_enabled", "DCQCN enabled on a priority, per side (rp: reaction point, "
	  "np: notification point); absent where the driver does not expose it" },
	{ "mlxcli_firmware_info", "the firmware of a PF: always 1, the running and stored "
	  "(flashed) versions and the PSID in labels (stored_version empty when unknown)" },
	{ "mlxcli_firmware_reset_pending", "a firmware image is flashed that is not the one "
	  "running: it takes effect at the next firmware reset or cold reboot (absent when the "
	  "stored image is unknown)" },
	{ "mlxcli_link_speed_mbps", "link speed in Mb/s (absent while the link is down)" },
	{ "mlxcli_link_up", "the netdev's operational state is up" },
	{ "mlxcli_pcie_degraded", "the PCIe link runs below its capability (speed or width)" },
	{ "mlxcli_pfc_enabled", "PFC (lossless) enabled on a priority" },
	{ "mlxcli_qos_lint_findings", "findings of show qos --check on the port, by rule and "
	  "severity (absent: none)" },
};
enum { F_ASIC, F_ASIC_CRIT, F_DCQCN, F_FWINFO, F_FW, F_SPEED, F_UP, F_DEGRADED, F_PFC, F_LINT, NFAM };

struct gauge {
	int fam;
	char labels[400];       /* the firmware's: 3 versions of up to 64 characters, escaped */
	double value;           /* integers are exact to 2^53 and print as such */
	size_t order;
};

struct gauges {
	struct gauge *g;
	size_t n, cap;
};

static int add(struct gauges *gs, int fam, double value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(struct gauges *gs, int fam, double value, const char *fmt, ...)
{
	va_list ap;

	if (gs->n == gs->cap) {
		size_t cap = gs->cap ? gs->cap * 2 : 64;
		struct gauge *g = realloc(gs->g, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		gs->g = g;
		gs->cap = cap;
	}
	gs->g[gs->n].fam = fam;
	gs->g[gs->n].value = value;
	gs->g[gs->n].order = gs->n;
	va_start(ap, fmt);
	vsnprintf(gs->g[gs->n].labels, sizeof(gs->g[gs->n].labels), fmt, ap);
	va_end(ap);
	gs->n++;
	return 0;
}

/* The QoS gauges of one port: PFC, DCQCN per priority, the lint. */
static int port_qos(struct cli *cli, struct gauges *gs, const struct mlx_function *fn,
		    const struct mlx_port *port, const char *id)
{
	struct mlx_dcb_state dcb;
	struct mlx_qos_state qs;
	struct mlx_lint_report *rep;
	int r = 0;

	memset(&dcb, 0, sizeof(dcb));
	if (mlx_dcb_get(cli->ctx, port->ifname, &dcb) < 0) {
		mlx_err_clear(cli->ctx);
		return 0;           /* no DCB: nothing known to say */
	}
	for (int p = 0; p < 8 && dcb.has_pfc && !r; p++)
		r = add(gs, F_PFC, (dcb.pfc.pfc_en >> p) & 1, "%s,priority=\"%d\"", id, p);
	mlx_qos_state_init(&qs, port->ifname);
	qos_read_dcqcn(cli, fn, port, &qs);
	for (int p = 0; p < 8 && !r; p++) {
		if (qs.rp_en[p] >= 0)
			r = add(gs, F_DCQCN, (uint64_t)qs.rp_en[p], "%s,side=\"rp\",priority=\"%d\"", id, p);
		if (!r && qs.np_en[p] >= 0)
			r = add(gs, F_DCQCN, (uint64_t)qs.np_en[p], "%s,side=\"np\",priority=\"%d\"", id, p);
	}
	rep = calloc(1, sizeof(*rep));     /* 40 findings with evidence: not on the stack */
	if (!rep)
		return -ENOMEM;
	if (!r && qos_check(cli, &qs, &dcb, -1, rep) == EXIT_OK) {
		/* count by (rule, severity): one sample each */
		for (size_t i = 0; i < rep->n && !r; i++) {
			uint64_t n = 0;
			bool seen = false;

			for (size_t k = 0; k < i && !seen; k++)
				seen = !strcmp(rep->f[k].id, rep->f[i].id) && rep->f[k].sev == rep->f[i].sev;
			if (seen)
				continue;
			for (size_t k = i; k < rep->n; k++)
				n += !strcmp(rep->f[k].id, rep->f[i].id) && rep->f[k].sev == rep->f[i].sev;
			r = add(gs, F_LINT, n, "%s,rule=\"%s\",severity=\"%s\"", id, rep->f[i].id,
				mlx_lint_sev_name(rep->f[i].sev));
		}
	}
	free(rep);
	mlx_err_clear(cli->ctx);
	return r;
}

/* Firmware reset pending: devlink's stored fw version is not the running one
 * (mlx_fw_versions: `fw query`'s reset_pending, without its VPD read).  Unknown (no devlink
 * answer, a VF, the stored-image query failed) is no sample. */
static int fw_pending(struct cli *cli, struct gauges *gs, const struct mlx_function *fn,
		      const char *bdf)
{
	struct mlx_fw_info *fi = calloc(1, sizeof(*fi));   /* large */
	int r = 0;

	if (!fi)
		return -ENOMEM;
	mlx_fw_versions(cli->ctx, fn, fi);     /* no VPD read: not needed here */
	if (fi->stored[0] && !fi->stored_query_failed)
		r = add(gs, F_FW, fi->reset_pending, "pci_address=\"%s\"", bdf);
	if (!r && fi->running[0]) {
		char run[140], st[140], psid[140];

		prom_escape_label(run, sizeof(run), fi->running);
		prom_escape_label(st, sizeof(st), fi->stored_query_failed ? "" : fi->stored);
		prom_escape_label(psid, sizeof(psid), fi->psid);
		r = add(gs, F_FWINFO, 1, "pci_address=\"%s\",running_version=\"%s\",stored_version=\"%s\","
			"psid=\"%s\"", bdf, run, st, psid);
	}
	free(fi);
	mlx_err_clear(cli->ctx);
	return r;
}

/* The ASIC's temperature and critical threshold: the hwmon sensor labelled
 * "asic" (KERNEL mlx5/core/hwmon.c names the ASIC's sensor so). */
static int asic_temp(struct cli *cli, struct gauges *gs, const struct mlx_function *fn, const char *bdf)
{
	struct mlx_sensors *s = calloc(1, sizeof(*s));
	int r = 0;

	if (!s)
		return -ENOMEM;
	if (mlx_sensors_read(cli->ctx, fn->bdf, s) == 0)
		for (size_t i = 0; i < s->n && !r; i++) {
			const struct mlx_sensor *x = &s->s[i];

			if (strcmp(x->label, "asic") || x->temp_mc == INT64_MIN)
				continue;
			r = add(gs, F_ASIC, (double)x->temp_mc / 1000, "pci_address=\"%s\"", bdf);
			if (!r && x->crit_mc != INT64_MIN)
				r = add(gs, F_ASIC_CRIT, (double)x->crit_mc / 1000, "pci_address=\"%s\"", bdf);
			break;
		}
	free(s);
	mlx_err_clear(cli->ctx);
	return r;
}

static int cmp_gauge(const void *a, const void *b)
{
	const struct gauge *x = a, *y = b;

	if (x->fam != y->fam)
		return x->fam - y->fam;
	return x->order < y->order ? -1 : x->order > y->order;
}

int prom_state(struct cli *cli, FILE *fp, const struct mlx_function *only)
{
	struct gauges gs = { NULL, 0, 0 };
	struct mlx_devices *devs;
	int r = cli_devices(cli, &devs);

	if (r)
		return -EIO;
	for (size_t i = 0; i < devs->nfn && !r; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		struct cli_pcie pv;
		char bdf[48];

		if (only ? fn != only : fn->role != MLX_FN_PF)
			continue;
		prom_escape_label(bdf, sizeof(bdf), fn->bdf);
		cli_pcie_view(fn, &pv);
		if (pv.source)
			r = add(&gs, F_DEGRADED, pv.degraded, "pci_address=\"%s\"", bdf);
		if (!r)
			r = fw_pending(cli, &gs, fn, bdf);
		if (!r)
			r = asic_temp(cli, &gs, fn, bdf);
		for (size_t j = 0; j < fn->nports && !r; j++) {
			const struct mlx_port *port = &fn->ports[j];
			char nd[48], id[120];

			if (!port->ifname[0])
				continue;
			prom_escape_label(nd, sizeof(nd), port->ifname);
			snprintf(id, sizeof(id), "pci_address=\"%s\",netdev=\"%s\"", bdf, nd);
			r = add(&gs, F_UP, !strcmp(port->operstate, "up"), "%s", id);
			if (!r && port->speed_mbps > 0)
				r = add(&gs, F_SPEED, (uint64_t)port->speed_mbps, "%s", id);
			if (!r)
				r = port_qos(cli, &gs, fn, port, id);
		}
	}
	if (!r) {
		/* within a family, in device order */
		qsort(gs.g, gs.n, sizeof(*gs.g), cmp_gauge);
		for (size_t i = 0; i < gs.n; i++) {
			if (!i || gs.g[i].fam != gs.g[i - 1].fam)
				fprintf(fp, "# HELP %s %s\n# TYPE %s gauge\n", families[gs.g[i].fam].name,
					families[gs.g[i].fam].help, families[gs.g[i].fam].name);
			fprintf(fp, "%s{%s} %.15g\n", families[gs.g[i].fam].name, gs.g[i].labels,
				gs.g[i].value);
		}
	}
	free(gs.g);
	return r;
}

/* ---- the textfile: a temporary file beside it, renamed into place ---- */

int prom_file_open(struct prom_file *pf, const char *path)
{
	char *copy = strdup(path);
	int fd;

	memset(pf, 0, sizeof(*pf));
	if (!copy)
		return -ENOMEM;
	/* hidden and not *.prom: node_exporter never reads it half-written */
	snprintf(pf->tmp, sizeof(pf->tmp), "%s/.%s.XXXXXX", dirname(copy),
		 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	free(copy);
	fd = mkstemp(pf->tmp);
	if (fd < 0)
		return -errno;
	/* the collector may run as another user: the mode of a usual file */
	if (fchmod(fd, 0644) < 0 || !(pf->fp = fdopen(fd, "w"))) {
		int e = -errno;

		close(fd);
		unlink(pf->tmp);
		return e;
	}
	pf->path = path;
	return 0;
}

int prom_file_close(struct prom_file *pf, bool commit)
{
	int r = 0;

	if (fflush(pf->fp) != 0 || fsync(fileno(pf->fp)) < 0)
		r = -errno;
	if (fclose(pf->fp) != 0 && !r)
		r = -errno;
	if (commit && !r && rename(pf->tmp, pf->path) < 0)
		r = -errno;
	if (!commit || r)
		unlink(pf->tmp);
	return r;
}

int prom_command(struct cli *cli, const struct mlx_counters *cs, prom_filter_fn keep, void *arg)
{
	const char *path = cli_opt(cli, "output");
	struct mlx_function *only = NULL;
	struct prom_file pf = { NULL, NULL, "" };
	FILE *fp = cli->out_fp;
	int r;

	r = cli_select(cli, &only, NULL);
	if (r)
		return r;
	if (path && (r = mlx_incident_guard(cli->ctx, path)) < 0)
		return cli_fail(cli, r, "evidence");
	if (path) {
		r = prom_file_open(&pf, path);
		if (r < 0) {
			cli_error(cli, "cannot write %s: cannot create a temporary file beside it: %s",
				  path, strerror(-r));
			return cli_exit_code(r);
		}
		fp = pf.fp;
	}
	r = prom_write(fp, cs, keep, arg);
	/* --group and --filter pick counters: the gauges come with all of them */
	if (r >= 0 && !cli_opt(cli, "group") && !cli_opt(cli, "filter")) {
		r = prom_state(cli, fp, only);
		if (r >= 0)
			r = prom_write_phy(cli, fp, cs);   /* module and FEC gauges (issue 18) */
		if (r >= 0)
			r = prom_write_rdma(cli, fp, only);   /* RDMA resources (issue 24) */
	}
	if (path) {
		int c = prom_file_close(&pf, r >= 0);

		if (r >= 0 && c < 0) {
			cli_error(cli, "cannot write %s: %s (it was left as it was)", path, strerror(-c));
			return cli_exit_code(c);
		}
	}
	if (r < 0)
		return cli_fail(cli, r, "cannot write the Prometheus text");
	return EXIT_OK;
}
