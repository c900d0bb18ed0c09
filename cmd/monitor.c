/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mlxcli monitor (issue 16): one stream of events from the kernel log
 * (/dev/kmsg), rtnetlink link changes, devlink health notifications and
 * ethtool settings changes (the "monitor" group), in
 * one poll() loop: idle, it sleeps in poll() and uses no CPU.  One line per
 * event (a JSON object per line with -j), until SIGINT or SIGTERM, after
 * which the stream ends with one "end" record.  --catalogue lists the event
 * kinds.  Under --sysroot the capture's recorded kernel log is replayed
 * through the same decoders and the stream ends with it.
 *
 * The decoders and sources are lib's (lib/monitor.h); this file filters
 * the events to the devices asked for and prints them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "monitor-cmd.h"

#define MON_LINKS 1024
#define HOOK_TIMEOUT_MS 5000
#define HOOK_WORDS 32

static const char *const since_choices[] = { "boot", "now", NULL };

const struct cmd_opt monitor_opts[] = {
	{ "since", 0, "WHEN", "boot: first the events the kernel log still holds; now (default): "
	  "only new ones", since_choices, SRC_NONE, 0 },
	{ "catalogue", 0, NULL, "list the event kinds: meaning, what to do, Windows event, "
	  "Table 19 dump type, kernel format", NULL, SRC_NONE, 0 },
	{ "any-netdev", 0, NULL, "link and ethtool settings events of any netdev, not only ConnectX "
	  "ports (-d IFNAME: that one)", NULL, SRC_NONE, 0 },
	{ "count", 'c', "N", "stop after N events", NULL, SRC_NONE, 0 },
	{ "exec", 0, "CMD", "run CMD (words, no shell) per event, the event as JSON on its stdin, "
	  "killed after 5 s", NULL, SRC_NONE, 0 },
	{ "poll", 0, "SEC", "every SEC seconds, read the counters that only count (PCIe AER "
	  "totals, ethtool -S event counters: pause storms, module events, link downs, ...): one "
	  "that grew is an event", NULL, SRC_NONE, 0 },
	{ "vf-thresholds", 0, "SPEC", "with --poll: an event when a function's devlink health vnic "
	  "counter grows by more than N in a period: N (every counter) or NAME=N[,NAME=N]", NULL,
	  SRC_NONE, 0 },
	{ "dump", 0, NULL, "make a dump-me-now incident on a Table 19 event (monitor_dump= in "
	  "/etc/mlxcli.conf)", NULL, SRC_NONE, 0 },
	{ "dump-types", 0, "LIST", "the Table 19 types that make one (default CMD_ERR,EQ_STUCK,"
	  "TXCQ_STUCK,RXCQ_STUCK), or none", NULL, SRC_NONE, 0 },
	{ "dump-events-num", 0, "N", "DumpEventsNum: incidents per type in the dump root (default 20)",
	  NULL, SRC_NONE, 0 },
	{ "dir", 0, "DIR", "the dump root (default /var/lib/mlxcli/dmn, or dmn_dir=)", NULL, SRC_NONE, 0 },
	{ "accept-user-records", 0, NULL, "test option: classify kernel-log records written by "
	  "user space (a live monitor trusts kernel records only)", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

static volatile sig_atomic_t stop_signal, reload_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_hup(int sig)
{
	reload_signal = sig;
}

struct mon {
	struct cli *cli;
	struct mlx_devices *devs;
	const struct mlx_function *only_fn;  /* -d a ConnectX function or port */
	const char *only_netdev;             /* --any-netdev -d IFNAME */
	bool any_netdev;
	unsigned kmsg_flags;
	bool kmsg_filtered;                  /* a snapshot's: gaps are other devices' records */
	unsigned long events, max_events;
	struct mlx_kmsg_seq seq;
	struct mlx_link_state links[MON_LINKS];
	char *hook[HOOK_WORDS + 1];          /* --exec split into words, NULL-ended */
	char *hook_buf;
	char *hook_path;                     /* hook[0] resolved in PATH, at start */
	struct mon_dump dump;                /* automatic incidents */
	struct mon_poll poll;                /* --poll: the counters that only count */
	uint64_t next_poll_ms;
};

static const struct mlx_port *port_by_netdev(const struct mlx_devices *devs, const char *name)
{
	for (size_t i = 0; devs && name[0] && i < devs->nfn; i++)
		for (size_t j = 0; j < devs->fn[i].nports; j++)
			if (!strcmp(devs->fn[i].ports[j].ifname, name))
				return &devs->fn[i].ports[j];
	return NULL;
}

static const struct mlx_function *fn_by_bdf(const struct mlx_devices *devs, const char *bdf)
{
	for (size_t i = 0; devs && bdf[0] && i < devs->nfn; i++)
		if (!strcmp(devs->fn[i].bdf, bdf))
			return &devs->fn[i];
	return NULL;
}

/* Fill in what the device model knows (the function of a netdev, the
 * netdev of a one-port function) and say whether the event is wanted. */
static bool wanted(struct mon *m, struct mlx_event *ev)
{
	const struct mlx_port *p = port_by_netdev(m->devs, ev->netdev);
	const struct mlx_function *fn = p ? p->fn : fn_by_bdf(m->devs, ev->pci_address);

	if (p && !ev->pci_address[0])
		snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", p->fn->bdf);
	if (fn && !ev->netdev[0] && fn->nports == 1)
		snprintf(ev->netdev, sizeof(ev->netdev), "%s", fn->ports[0].ifname);
	if (ev->kind == MLX_EV_RECORDS_LOST)
		return true;
	if (m->only_netdev)
		return !strcmp(ev->netdev, m->only_netdev);
	if (m->only_fn)
		return fn == m->only_fn;
	/* link and ethtool settings events: ConnectX ports only, unless
	 * --any-netdev; the kernel log and devlink sources are about mlx5
	 * devices already */
	return (ev->source != MLX_EVS_RTNL && ev->source != MLX_EVS_ETHTOOL) || p || m->any_netdev;
}

static void fmt_time(char *buf, size_t len, uint64_t us)
{
	time_t s = (time_t)(us / 1000000);
	struct tm tm;

	if (!us || !gmtime_r(&s, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06uZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(us % 1000000));
}

/* One event: a JSON object on its own line, or one text line, to @fp. */
static int render(const struct mlx_event *ev, bool json, FILE *fp)
{
	const struct mlx_ev_kind_info *ki = mlx_ev_kind_info(ev->kind);
	const struct mlx_dump_type_info *dt = mlx_dump_type_info(ki->dump);
	struct out *o = out_new(json, false, fp);
	char when[40], line[1024], fields[512] = "";
	size_t fl = 0;
	int r;

	if (!o)
		return -ENOMEM;
	fmt_time(when, sizeof(when), ev->realtime_us);
	out_str(o, "record", NULL, "event");
	out_str(o, "time", NULL, ev->realtime_us ? when : NULL);
	if (ev->usec)
		out_u64(o, "monotonic_usec", NULL, ev->usec);
	else
		out_null(o, "monotonic_usec", NULL);
	if (ev->seq)
		out_u64(o, "sequence", NULL, ev->seq);
	else
		out_null(o, "sequence", NULL);
	out_str(o, "source", NULL, mlx_ev_source_str(ev->source));
	out_str(o, "kind", NULL, ki->id);
	out_str(o, "severity", NULL, mlx_ev_severity_str(ev->severity));
	/* a netdev that is no PCI function (--any-netdev) has no address */
	if (ev->pci_address[0])
		out_str(o, "pci_address", NULL, ev->pci_address);
	out_str(o, "netdev", NULL, ev->netdev[0] ? ev->netdev : NULL);
	out_str(o, "dump_type", NULL, dt ? dt->name : NULL);
	if (ev->reporter[0])
		out_str(o, "reporter", NULL, ev->reporter);
	if (ev->fw_command[0])
		out_str(o, "fw_command", NULL, ev->fw_command);
	if (ev->detail[0])
		out_str(o, "detail", NULL, ev->detail);
	if (ev->counter[0])
		out_str(o, "name", NULL, ev->counter);
	for (int f = 0; f < MLX_EVF_N; f++) {
		if (!mlx_ev_has(ev, f))
			continue;
		/* errno is the one signed field */
		if (f == MLX_EVF_ERRNO)
			out_s64(o, mlx_ev_field_key(f), NULL, (int64_t)ev->v[f]);
		else
			out_u64(o, mlx_ev_field_key(f), NULL, ev->v[f]);
		if (fl < sizeof(fields) - 1)
			fl += (size_t)snprintf(fields + fl, sizeof(fields) - fl,
					       mlx_ev_field_is_hex(f) ? " %s=0x%" PRIx64 :
					       f == MLX_EVF_ERRNO ? " %s=%" PRId64 : " %s=%" PRIu64,
					       mlx_ev_field_key(f), ev->v[f]);
	}
	out_str(o, "message", NULL, ev->text);
	snprintf(line, sizeof(line), "%-8s %-22s %s%s%s%s%s%s%s%s  %s",
		 mlx_ev_severity_str(ev->severity), ki->id,
		 ev->pci_address[0] ? ev->pci_address : "-", ev->netdev[0] ? " " : "", ev->netdev,
		 dt ? " dump=" : "", dt ? dt->name : "", ev->reporter[0] ? " reporter=" : "",
		 ev->reporter, fields, ev->text);
	out_text(o, when, line);    /* "TIME: severity kind device fields  message" */
	r = out_finish(o);
	out_free(o);
	if (r == 0)
		fflush(fp);
	return r;
}

/* --exec: the hook gets the event as one JSON line on its standard input */
static void run_hook(struct mon *m, const struct mlx_event *ev)
{
	char *json = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&json, &len);
	int r;

	if (!fp)
		return;
	r = render(ev, true, fp);
	fclose(fp);
	if (r == 0) {
		r = mlx_exec_hook(m->hook_path, m->hook, json, len, HOOK_TIMEOUT_MS);
		if (r == -ETIMEDOUT)
			cli_warn(m->cli, "--exec '%s': killed after %u s on a %s event", m->hook[0],
				 HOOK_TIMEOUT_MS / 1000, mlx_ev_kind_info(ev->kind)->id);
		else if (r < 0)
			cli_warn(m->cli, "--exec '%s': %s", m->hook[0], strerror(-r));
		else if (r != 0)
			cli_warn(m->cli, "--exec '%s' exited %d on a %s event", m->hook[0], r,
				 mlx_ev_kind_info(ev->kind)->id);
	}
	free(json);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* An event that passed the filter: print it; 1 when the stream is done. */
static int deliver(struct mon *m, struct mlx_event *ev)
{
	int r;

	if (!wanted(m, ev))
		return 0;
	if (!ev->realtime_us)
		ev->realtime_us = now_us();
	r = render(ev, m->cli->json, m->cli->out_fp);
	if (r < 0)
		return r;
	if (m->hook[0])
		run_hook(m, ev);
	mon_dump_event(m->cli, &m->dump, m->devs, ev, m->cli->json, m->cli->out_fp);
	m->events++;
	return m->max_events && m->events >= m->max_events;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int deliver_cb(void *arg, struct mlx_event *ev)
{
	return deliver(arg, ev);
}

/* Every record ready on the kernel log; -ENODATA at the end of a
 * recorded one. */
static int drain_kmsg(struct mon *m, struct mlx_kmsg_reader *rd)
{
	static char rec[8192];      /* CONSOLE_EXT_LOG_MAX: the longest record /dev/kmsg gives */
	struct mlx_event ev;
	ssize_t n;
	uint64_t lost;
	int r;

	while ((n = mlx_kmsg_next(rd, rec, sizeof(rec))) != 0) {
		if (n == -EPIPE || n == -EINVAL)
			continue;       /* overwritten (the sequence gap reports it), or too long */
		if (n < 0)
			return (int)n;
		r = mlx_kmsg_classify(rec, (size_t)n, m->kmsg_flags, &ev);
		if (r == -EBADMSG)
			continue;
		if (ev.seq && !m->kmsg_filtered && (lost = mlx_kmsg_seq_gap(&m->seq, ev.seq)) != 0) {
			struct mlx_event gap;
			int d;

			mlx_ev_records_lost(&gap, lost, ev.seq);
			if ((d = deliver(m, &gap)) != 0)
				return d;
		}
		if (r == 1 && (r = deliver(m, &ev)) != 0)
			return r;
	}
	return 0;
}

/* The netlink messages in buf[0..n), decoded as those of stream @s. */
static int decode_nl(struct mon *m, const uint8_t *buf, size_t len, enum mlx_mon_stream s)
{
	struct mlx_event ev[4];
	int n = (int)len, r;

	for (const struct nlmsghdr *h = (const void *)buf; NLMSG_OK(h, (unsigned)n);
	     h = NLMSG_NEXT(h, n)) {
		int k;

		if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
			continue;
		if (s == MLX_MON_RTNL && (h->nlmsg_type == RTM_SETDCB || h->nlmsg_type == RTM_GETDCB))
			k = mlx_dcb_notify_event(h, h->nlmsg_len, ev);   /* RTNLGRP_DCB */
		else if (s == MLX_MON_RTNL)
			k = mlx_rtnl_link_events(h, h->nlmsg_len, m->links, MON_LINKS, ev, 4);
		else if (s == MLX_MON_ETHTOOL)
			k = mlx_ethtool_notify_event(h, h->nlmsg_len, ev);
		else
			k = mlx_devlink_notify_event(h, h->nlmsg_len, ev);
		for (int i = 0; i < k; i++)
			if ((r = deliver(m, &ev[i])) != 0)
				return r;
	}
	return 0;
}

/* Every netlink message ready on @fd. */
static int drain_nl(struct mon *m, int fd, enum mlx_mon_stream s)
{
	static uint8_t buf[65536];
	ssize_t n;
	int r;

	for (;;) {
		n = mlx_monitor_recv(fd, buf, sizeof(buf));
		if (n == -ENOBUFS) {
			/* the socket overflowed in a storm: say so, and ask
			 * for every link's state again */
			struct mlx_event lost;

			mlx_ev_records_lost(&lost, 0, 0);
			lost.have = 0;
			snprintf(lost.text, sizeof(lost.text), "%s notifications lost (socket overflow)",
				 s == MLX_MON_RTNL ? "rtnetlink" : s == MLX_MON_ETHTOOL ? "ethtool" : "devlink");
			if ((r = deliver(m, &lost)) != 0)
				return r;
			continue;
		}
		if (n <= 0)
			return (int)n;
		if ((r = decode_nl(m, buf, (size_t)n, s)) != 0)
			return r;
	}
}

/* A capture: its recorded link, devlink and ethtool notifications,
 * through the same decoders as live (its kernel log follows in the poll
 * loop). */
static int replay_recorded(struct mon *m)
{
	int r = 0;

	for (int s = 0; s < MLX_MON_NSTREAMS && r == 0; s++) {
		char *buf = NULL;
		size_t len = 0;

		if (mlx_monitor_recorded(m->cli->ctx, s, &buf, &len) == 0)
			r = decode_nl(m, (const uint8_t *)buf, len, s);
		free(buf);
	}
	return r;
}

/* SIGHUP: the configuration file again (the dump settings); a bad file
 * leaves the settings in force. */
static void reload(struct mon *m)
{
	FILE *err = m->cli->err_fp ? m->cli->err_fp : stderr;
	char types[80] = "";
	size_t k = 0;

	reload_signal = 0;
	if (mon_dump_load(m->cli, &m->dump, true) != EXIT_OK) {
		cli_warn(m->cli, "SIGHUP: the configuration was not re-read; the settings in force stay");
		return;
	}
	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
		if (m->dump.policy.enabled[t] && k < sizeof(types))
			k += (size_t)snprintf(types + k, sizeof(types) - k, "%s%s", k ? "," : "",
					      mlx_dump_type_info(t)->name);
	fprintf(err, "mlxcli: monitor: SIGHUP: configuration re-read: automatic incidents %s%s%s\n",
		m->dump.on ? "on (" : "off", m->dump.on ? (k ? types : "no type") : "", m->dump.on ? ")" : "");
	fflush(err);
}

static int list_catalogue(struct cli *cli)
{
	size_t n;
	const struct mlx_ev_kind_info *c = mlx_ev_catalogue(&n);
	struct out *o = cli->out;

	out_table_begin(o, "kinds");
	for (size_t i = 0; i < n; i++) {
		const struct mlx_dump_type_info *dt = mlx_dump_type_info(c[i].dump);
		char tag[2] = { dt ? dt->tag : 0, 0 };

		out_row_begin(o);
		out_str(o, "kind", "KIND", c[i].id);
		out_str(o, "source", "SOURCE", mlx_ev_source_str(c[i].source));
		out_str(o, "severity", "SEVERITY", mlx_ev_severity_str(c[i].severity));
		out_str(o, "windows_event", "WIN", c[i].windows_event);
		out_str(o, "dump_type", "DUMP", dt ? dt->name : NULL);
		out_str(o, "dump_tag", NULL, dt ? tag : NULL);
		out_str(o, "meaning", "MEANING", c[i].meaning);
		out_str(o, "action", NULL, c[i].action);
		out_str(o, "kernel_format", NULL, c[i].kernel_format);
		out_str(o, "kernel_source", NULL, c[i].kernel_source);
		out_row_end(o);
	}
	out_table_end(o);
	if (!out_is_json(o))
		return EXIT_OK;
	/* Table 19 (JSON only: the text table shows the type per kind) */
	out_table_begin(o, "dump_types");
	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++) {
		const struct mlx_dump_type_info *dt = mlx_dump_type_info(t);
		char tag[2] = { dt->tag, 0 };

		out_row_begin(o);
		out_str(o, "dump_type", NULL, dt->name);
		out_str(o, "dump_tag", NULL, tag);
		out_bool(o, "enabled", NULL, dt->on_by_default);
		out_str(o, "description", NULL, dt->description);
		out_row_end(o);
	}
	out_table_end(o);
	return EXIT_OK;
}

static int select_target(struct mon *m)
{
	struct cli *cli = m->cli;
	struct mlx_function *fn;
	struct mlx_port *port;
	int r;

	if (m->any_netdev && cli->device) {
		/* any interface by name: a veth in a test, a bond */
		if (!mlx_name_is_safe(cli->device) || strlen(cli->device) >= MLX_IFNAME_LEN) {
			cli_error(cli, "no network interface '%s'", cli->device);
			return EXIT_NODEV;
		}
		m->only_netdev = cli->device;
		return EXIT_OK;
	}
	r = cli_devices(cli, &m->devs);
	if (r)
		return r;
	if (!cli->device)
		return EXIT_OK;
	r = cli_select(cli, &fn, &port);
	if (r)
		return r;
	if (port)
		m->only_netdev = port->ifname;
	else
		m->only_fn = fn;
	return EXIT_OK;
}

int cmd_monitor(struct cli *cli, int argc, char **argv)
{
	struct mon *m;
	struct mlx_kmsg_reader *rd = NULL;
	struct pollfd pfd[4];
	struct sigaction sa, old_int, old_term, old_hup;
	const char *since = cli_opt(cli, "since"), *count = cli_opt(cli, "count");
	int kfd = -1, rfd = -1, dfd = -1, efd = -1, rc = EXIT_OK, r = 0;
	bool kmsg_is_file = false, replaying, polling;

	(void)argc;
	(void)argv;
	if (cli_opt(cli, "catalogue"))
		return list_catalogue(cli);
	m = calloc(1, sizeof(*m));
	if (!m)
		return EXIT_FAIL;
	m->cli = cli;
	m->any_netdev = cli_opt(cli, "any-netdev") != NULL;
	m->kmsg_flags = cli_opt(cli, "accept-user-records") ? MLX_KMSG_ACCEPT_USER : 0;
	if (count) {
		uint64_t v;

		if (mlx_parse_u64(count, &v) < 0 || v == 0) {
			cli_error(cli, "invalid --count '%s': a number of events, 1 or more", count);
			free(m);
			return EXIT_USAGE;
		}
		m->max_events = (unsigned long)v;
	}
	if (cli_opt(cli, "exec")) {
		size_t k = 0;

		m->hook_buf = strdup(cli_opt(cli, "exec"));
		if (!m->hook_buf) {
			rc = EXIT_FAIL;
			goto out_free;
		}
		for (char *w = strtok(m->hook_buf, " \t"); w; w = strtok(NULL, " \t")) {
			if (k == HOOK_WORDS) {
				cli_error(cli, "--exec takes at most %d words", HOOK_WORDS);
				rc = EXIT_USAGE;
				goto out_free;
			}
			m->hook[k++] = w;
		}
		if (!k) {
			cli_error(cli, "--exec needs a command");
			rc = EXIT_USAGE;
			goto out_free;
		}
		r = mlx_exec_resolve(m->hook[0], &m->hook_path);
		if (r < 0) {
			cli_error(cli, "--exec '%s': %s", m->hook[0],
				  r == -ENOENT && !strchr(m->hook[0], '/') ? "no such command in PATH" : strerror(-r));
			rc = EXIT_USAGE;
			goto out_free;
		}
	}
	rc = select_target(m);
	if (rc)
		goto out_free;
	rc = mon_dump_load(cli, &m->dump, false);
	if (rc)
		goto out_free;
	/* an incident is of a ConnectX function, whatever -d watches */
	polling = cli_opt(cli, "poll") || cli_opt(cli, "vf-thresholds");
	if ((m->dump.on || polling) && !m->devs && (rc = cli_devices(cli, &m->devs)) != 0)
		goto out_free;
	if (polling && (rc = mon_poll_init(cli, &m->poll, m->devs)) != 0)
		goto out_free;

	kfd = mlx_kmsg_open(cli->ctx, since && !strcmp(since, "boot"));
	if (kfd >= 0) {
		rd = malloc(sizeof(*rd));
		if (!rd) {
			rc = EXIT_FAIL;
			goto out_free;
		}
		mlx_kmsg_reader_init(rd, kfd);
		m->kmsg_filtered = mlx_kmsg_is_filtered(cli->ctx);
		kmsg_is_file = !rd->is_dev;
	}
	rfd = mlx_monitor_rtnl_open(cli->ctx);
	/* a captured system has recordings, not sockets: replay them */
	replaying = kmsg_is_file || rfd == -EOPNOTSUPP;
	if (!replaying) {
		if (kfd < 0)    /* as non-root: say which source is missing, run with the others */
			cli_warn(cli, "%s; no kernel-log events", mlx_errmsg(cli->ctx));
		if (rfd < 0)
			cli_warn(cli, "%s; no link events", mlx_errmsg(cli->ctx));
		dfd = mlx_monitor_devlink_open(cli->ctx);
		if (dfd < 0 && cli->verbose)
			cli_warn(cli, "%s; no devlink health events", mlx_errmsg(cli->ctx));
		efd = mlx_monitor_ethtool_open(cli->ctx);
		if (efd < 0 && cli->verbose)
			cli_warn(cli, "%s; no ethtool settings events", mlx_errmsg(cli->ctx));
		if (kfd < 0 && rfd < 0 && dfd < 0 && efd < 0) {
			rc = cli_fail(cli, kfd, "cannot monitor");
			goto out_free;
		}
	}

	stop_signal = reload_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, &old_hup);
	if (replaying)
		r = replay_recorded(m);
	/* a capture's kernel log is read to its end (a FIFO: until its
	 * writer closes it), through the same loop as the live sources */
	while (!stop_signal && r == 0 && !(replaying && kfd < 0)) {
		int n = 0, ki = -1, ri = -1, di = -1, ei = -1, timeout = -1;

		if (reload_signal)
			reload(m);
		if (m->poll.poll_ms && mono_ms() >= m->next_poll_ms) {
			if ((r = mon_poll_run(cli, &m->poll, m->devs, deliver_cb, m)) != 0)
				break;
			m->next_poll_ms = mono_ms() + m->poll.poll_ms;
		}
		if (kfd >= 0) {
			ki = n;
			pfd[n++] = (struct pollfd){ .fd = kfd, .events = POLLIN };
		}
		if (rfd >= 0) {
			ri = n;
			pfd[n++] = (struct pollfd){ .fd = rfd, .events = POLLIN };
		}
		if (dfd >= 0) {
			di = n;
			pfd[n++] = (struct pollfd){ .fd = dfd, .events = POLLIN };
		}
		if (efd >= 0) {
			ei = n;
			pfd[n++] = (struct pollfd){ .fd = efd, .events = POLLIN };
		}
		if (m->poll.poll_ms) {
			uint64_t t = mono_ms();

			timeout = m->next_poll_ms > t ? (int)(m->next_poll_ms - t) : 0;
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		/* the order of a cycle: link state, then the kernel log that
		 * explains it, then devlink, then ethtool settings */
		if (ri >= 0 && pfd[ri].revents)
			r = drain_nl(m, rfd, MLX_MON_RTNL);
		if (r == 0 && ki >= 0 && pfd[ki].revents)
			r = drain_kmsg(m, rd);
		if (r == 0 && di >= 0 && pfd[di].revents)
			r = drain_nl(m, dfd, MLX_MON_DEVLINK);
		if (r == 0 && ei >= 0 && pfd[ei].revents)
			r = drain_nl(m, efd, MLX_MON_ETHTOOL);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (r == -ENODATA)
		r = 0;          /* the end of a recorded kernel log */
	if (r < 0 && r != -EPIPE && r != -EIO) {
		rc = cli_fail(cli, r, "the monitor stopped");
		goto out_free;
	}
	/* the stream ends with one "end" record (dumped by the dispatcher) */
	out_str(cli->out, "record", NULL, "end");
	out_u64(cli->out, "event_count", NULL, m->events);
	out_bool(cli->out, "interrupted", NULL, stop_signal != 0);
	if (m->dump.on)
		out_u64(cli->out, "incident_count", NULL, m->dump.made);
	if (!out_is_json(cli->out))
		fprintf(cli->err_fp ? cli->err_fp : stderr, "mlxcli: monitor: %lu event%s%s\n",
			m->events, m->events == 1 ? "" : "s", stop_signal ? ", interrupted" : "");
	rc = EXIT_OK;
out_free:
	if (kfd >= 0)
		close(kfd);
	if (rfd >= 0)
		close(rfd);
	if (dfd >= 0)
		close(dfd);
	if (efd >= 0)
		close(efd);
	free(rd);
	free(m->hook_buf);
	free(m->hook_path);
	mon_poll_free(&m->poll);
	free(m);
	return rc;
}
