/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device a command acts on: the device model (scanned once per
 * command), -d resolved to a function with the one wording of every
 * failure, and the shared messages for "no ConnectX here" and "a VF where
 * a PF is needed".  Out of cmd/cli.c, which keeps the dispatcher.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mlx.h"
#include "settings.h"

int cli_devices(struct cli *cli, struct mlx_devices **devs)
{
	int r;

	if (!cli->scanned) {
		r = mlx_devices_scan_for(cli->ctx, &cli->devs, MLX_SCAN_ALL & ~cli->scan_skip);
		if (r < 0)
			return cli_fail(cli, r, "cannot scan the PCI bus");
		cli->scanned = true;
	}
	*devs = &cli->devs;
	return EXIT_OK;
}

/* " (read as ...)": how -d's text was read when nothing matched, and how
 * to write mlxtool's decimal reading of its digits ("59:0.1" is hex bus
 * 0x59; mlxtool's decimal bus 59 is '59 0 1').  Empty for a name. */
static void reading_note(const struct mlx_selector *sel, char *buf, size_t len)
{
	struct mlx_selector o;
	bool other = mlx_selector_other_reading(sel, &o);
	int n;

	buf[0] = '\0';
	if (sel->kind != MLX_SEL_PCI)
		return;
	if (sel->reading == MLX_READ_DECIMAL)
		n = snprintf(buf, len, " (read as mlxtool's decimal bus %u, device %u, function %u",
			     sel->bus, sel->dev, sel->func);
	else
		n = snprintf(buf, len, " (read as a PCI address in hex: bus 0x%02x, device 0x%02x, "
			     "function %u", sel->bus, sel->dev, sel->func);
	if (n < 0 || (size_t)n >= len)
		return;
	if (other && o.dev != sel->dev)
		snprintf(buf + n, len - (size_t)n, "; for mlxtool's decimal bus %u, device %u write "
			 "'%u %u %u')", o.bus, o.dev, o.bus, o.dev, o.func);
	else if (other)
		snprintf(buf + n, len - (size_t)n, "; for mlxtool's decimal bus %u write '%u %u %u')",
			 o.bus, o.bus, o.dev, o.func);
	else
		snprintf(buf + n, len - (size_t)n, ")");
}

/* How -d's text names candidate @c, for the messages below. */
static const char *how(const struct mlx_selector *sel, const struct mlx_sel_candidate *c,
		       char *buf, size_t len)
{
	switch (c->reading) {
	case MLX_READ_DECIMAL:
		snprintf(buf, len, "mlxtool's decimal bus %u", sel->other_bus);
		break;
	case MLX_READ_NETDEV:
		snprintf(buf, len, "its netdev %s", sel->name);
		break;
	case MLX_READ_RDMA:
		snprintf(buf, len, "its RDMA device %s", sel->name);
		break;
	default:
		snprintf(buf, len, "a PCI address in hex, as lspci prints it");
	}
	return buf;
}

/* A spelling that names @c alone. */
static const char *alone(const struct mlx_selector *sel, const struct mlx_sel_candidate *c,
			 char *buf, size_t len)
{
	if (c->reading == MLX_READ_DECIMAL)
		snprintf(buf, len, "%u %u %u", c->fn->bus, c->fn->dev, c->fn->func);
	else
		snprintf(buf, len, "%s", c->fn->bdf);
	(void)sel;
	return buf;
}

/*
 * -d's text names two ConnectX functions ("94:0.0" is hex 94:00.0, and
 * mlxtool's decimal 94 is 5e:00.0; a netdev named like another function's
 * RDMA device): a write refuses to guess (exit 2, both named, nothing
 * written); a read shows the one mlx_select chose and says how to write
 * the other.
 */
static int other_candidate(struct cli *cli, const struct mlx_devices *devs,
			   const struct mlx_selector *sel, const struct mlx_function *fn)
{
	struct mlx_sel_candidate c[2];
	char h0[64], h1[64], s0[32], s1[32];

	if (mlx_select_candidates(devs, sel, c, 2) < 2 || c[0].fn != fn)
		return EXIT_OK;
	how(sel, &c[0], h0, sizeof(h0));
	how(sel, &c[1], h1, sizeof(h1));
	alone(sel, &c[0], s0, sizeof(s0));
	alone(sel, &c[1], s1, sizeof(s1));
	if (cli->cmd && (cli->cmd->flags & CMD_WRITES)) {
		cli_error(cli, "'%s' names two ConnectX functions, %s (%s) and %s (%s): nothing was "
			  "written", cli->device, c[0].fn->bdf, h0, c[1].fn->bdf, h1);
		cli_hint(cli, "give one of them alone: '%s' or '%s'", s0, s1);
		return EXIT_USAGE;
	}
	cli_warn(cli, "'%s' was read as %s (%s); it also names another ConnectX function, %s "
		 "(%s): for it write '%s'", cli->device, h0, c[0].fn->bdf, c[1].fn->bdf, h1, s1);
	return EXIT_OK;
}

/* --any-device: -d names a device that is no ConnectX function; it joins
 * the device model as the function the command acts on. */
static int select_other(struct cli *cli, struct mlx_function **fn, struct mlx_port **port)
{
	struct mlx_devices *devs = NULL;
	int r = cli_devices(cli, &devs);

	if (r)
		return r;
	r = mlx_devices_add_other(cli->ctx, devs, cli->device, MLX_SCAN_ALL & ~cli->scan_skip, fn);
	if (r < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		return r == -EINVAL ? EXIT_USAGE : r == -ENOMEM ? EXIT_FAIL : EXIT_NODEV;
	}
	if (port)
		for (size_t i = 0; i < (*fn)->nports; i++)
			if (!strcmp((*fn)->ports[i].ifname, cli->device))
				*port = &(*fn)->ports[i];
	return EXIT_OK;
}

int cli_select(struct cli *cli, struct mlx_function **fn, struct mlx_port **port)
{
	struct mlx_selector sel;
	struct mlx_devices *devs = NULL;
	int r;

	*fn = NULL;
	if (port)
		*port = NULL;
	if (!cli->device)
		return EXIT_OK;
	/* a devlink handle (BUS/NAME) is no selector: --any-device's alone */
	if (cli_opt(cli, "any-device") && strchr(cli->device, '/'))
		return select_other(cli, fn, port);
	/* Check the spelling before touching the system: bad input is exit 2
	 * whether or not any device is present. */
	if (mlx_selector_parse(cli->ctx, cli->device, &sel) < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		return EXIT_USAGE;
	}
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	r = mlx_select(cli->ctx, devs, &sel, fn, port);
	if (r == -ENODEV && cli_opt(cli, "any-device")) {
		mlx_err_clear(cli->ctx);
		return select_other(cli, fn, port);
	}
	if (r == -ENODEV) {
		char note[200];

		reading_note(&sel, note, sizeof(note));
		cli_error(cli, "%s%s", mlx_errmsg(cli->ctx), note);
		cli_hint(cli, "'mlxcli devices' lists the ConnectX functions%s",
			 devs->nfn ? "" : " (none was found on this system)");
		return EXIT_NODEV;
	}
	if (r < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		return EXIT_USAGE;
	}
	r = other_candidate(cli, devs, &sel, *fn);
	if (r) {
		*fn = NULL;
		if (port)
			*port = NULL;
	}
	return r;
}

void cli_say_no_devices(struct cli *cli, const struct mlx_devices *devs)
{
	unsigned n = devs ? devs->non_mlx_seen : 0;

	fprintf(cli->err_fp, "mlxcli: no ConnectX device was found (%u other PCI function%s ignored)\n",
		n, n == 1 ? "" : "s");
	/* the user named no system: the sample is the one to try */
	if (!cli->sysroot && !cli->sample && !cli->json)
		cli_hint(cli, "'mlxcli --sample devices' shows the bundled sample host");
}

int cli_need_pf(struct cli *cli, const struct mlx_function *fn)
{
	const struct mlx_port *vp = fn->nports ? &fn->ports[0] : NULL;
	const struct mlx_port *pp = fn->pf && fn->pf->nports ? &fn->pf->ports[0] : NULL;

	if (!fn->pf) {
		cli_error(cli, "%s is a VF whose PF is not visible here; give its PF", fn->bdf);
		return EXIT_NOTSUP;
	}
	cli_error(cli, "%s%s%s%s is a VF; give its PF %s%s%s%s", fn->bdf,
		  vp && vp->ifname[0] ? " (" : "", vp ? vp->ifname : "", vp && vp->ifname[0] ? ")" : "",
		  fn->pf->bdf, pp && pp->ifname[0] ? " (" : "", pp ? pp->ifname : "",
		  pp && pp->ifname[0] ? ")" : "");
	return EXIT_NOTSUP;
}

int cli_other_netdev(struct cli *cli, bool *other)
{
	struct mlx_devices *devs = NULL;
	struct mlx_selector sel;
	struct mlx_function *fn;
	struct mlx_port *port;
	int r;

	*other = false;
	if (!cli_opt(cli, "any-netdev") || !cli->device)
		return EXIT_OK;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (mlx_selector_parse(cli->ctx, cli->device, &sel) == 0 &&
	    mlx_select(cli->ctx, devs, &sel, &fn, &port) == 0)
		return EXIT_OK;         /* a ConnectX port: the normal path */
	mlx_err_clear(cli->ctx);
	if (!mlx_netdev_exists(cli->ctx, cli->device)) {
		cli_error(cli, "no network interface '%s'", cli->device);
		return EXIT_NODEV;
	}
	*other = true;
	return EXIT_OK;
}

int cli_port_target(struct cli *cli, bool pf_only, struct mlx_port_ref *t)
{
	struct mlx_function *fn;
	struct mlx_port *port;
	bool other;
	int r;

	r = cli_other_netdev(cli, &other);
	if (r)
		return r;
	if (other) {
		/* lib resolves it at the step's open (an RDMA port on that
		 * netdev too: mlx_port_ref_rdma) */
		mlx_port_ref_init(t, NULL, NULL, cli->device);
		return EXIT_OK;
	}
	r = cli_select(cli, &fn, &port);
	if (r)
		return r;
	if (pf_only && fn->role == MLX_FN_VF)
		return cli_need_pf(cli, fn);
	if (!port && fn->nports == 1)
		port = &fn->ports[0];
	if (!port || !port->ifname[0]) {
		cli_error(cli, fn->nports > 1 ? "'%s' has %zu ports: name one (its netdev)"
					      : "'%s' has no network port to configure",
			  cli->device, fn->nports);
		return EXIT_USAGE;
	}
	mlx_port_ref_init(t, fn, port, NULL);
	return EXIT_OK;
}
