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
 * The events are lib's event source (lib/monitor.h, lib/monitor/source.c:
 * the streams, the decoders, the polls); this file filters them to the
 * devices asked for, prints them and runs the hook and the incidents.
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

#include "monitor-cmd.h"
#include "rdma.h"

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
	{ "dump-types", 0, "LIST", "the Table 19 types that make one, and FATAL_ERROR (default CMD_ERR,"
	  "EQ_STUCK,TXCQ_STUCK,RXCQ_STUCK,FATAL_ERROR), or none", NULL, SRC_NONE, 0 },
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
	unsigned long events, max_events;
	char *hook[HOOK_WORDS + 1];          /* --exec split into words, NULL-ended */
	char *hook_buf;
	char *hook_path;                     /* hook[0] resolved in PATH, at start */
	struct mon_dump dump;                /* automatic incidents */
	struct mlx_vf_thresholds vf;         /* --vf-thresholds */
};

/* Is the event of the devices asked for?  (The source filled in what the
 * device model knows: the function of a netdev or an RDMA device.) */
static bool wanted(struct mon *m, const struct mlx_event *ev)
{
	const struct mlx_port *p = mlx_devices_port_of(m->devs, ev->netdev);
	const struct mlx_function *fn = p ? p->fn : mlx_devices_fn_of(m->devs, ev->pci_address);

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

/* The time of a text line: the wall clock; "~" before one that is the
 * kernel's timestamp counted from the boot time (an estimate: --since
 * boot, a replay); "boot+SECONDS" when only the kernel's timestamp is
 * known (a capture that did not record when its kernel started); "-"
 * when nothing is (a recorded notification). */
static void text_time(char *buf, size_t len, const struct mlx_event *ev)
{
	if (ev->realtime_us) {
		buf[0] = '~';
		fmt_time(buf + ev->time_estimated, len - ev->time_estimated, ev->realtime_us);
	} else if (ev->usec) {
		snprintf(buf, len, "boot+%" PRIu64 ".%06u", ev->usec / 1000000, (unsigned)(ev->usec % 1000000));
	} else {
		snprintf(buf, len, "-");
	}
}

/* One event: a JSON object on its own line, or one text line, to @fp. */
static int render(const struct mlx_event *ev, bool json, FILE *fp)
{
	const struct mlx_ev_kind_info *ki = mlx_ev_kind_info(ev->kind);
	const struct mlx_dump_type_info *dt = mlx_dump_type_info(ki->dump);
	struct out *o = out_new(json, false, fp);
	char when[40], stamp[48], line[1024], fields[512] = "";
	size_t fl = 0;
	int r;

	if (!o)
		return -ENOMEM;
	fmt_time(when, sizeof(when), ev->realtime_us);
	text_time(stamp, sizeof(stamp), ev);
	out_str(o, "record", NULL, "event");
	out_str(o, "time", NULL, ev->realtime_us ? when : NULL);
	out_bool(o, "time_estimated", NULL, ev->realtime_us && ev->time_estimated);
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
	if (ev->rdma_device[0])
		out_str(o, "rdma_device", NULL, ev->rdma_device);
	out_str(o, "dump_type", NULL, dt ? dt->name : NULL);
	out_str(o, "windows_event", NULL, ki->windows_event);
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
		/* a QP's type by its name, as `rdma qp` says it (one key, one
		 * shape: mlxcli-json(7)) */
		if (f == MLX_EVF_QP_TYPE) {
			const char *qt = mlx_rdma_qp_type_name((int)ev->v[f]);

			out_str(o, mlx_ev_field_key(f), NULL, qt);
			if (fl < sizeof(fields) - 1)
				fl += (size_t)snprintf(fields + fl, sizeof(fields) - fl, " %s=%s",
						       mlx_ev_field_key(f), qt ? qt : "?");
			continue;
		}
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
	snprintf(line, sizeof(line), "%-8s %-22s %s%s%s%s%s%s%s%s%s%s%s%s  %s",
		 mlx_ev_severity_str(ev->severity), ki->id,
		 ev->pci_address[0] ? ev->pci_address : "-", ev->netdev[0] ? " " : "", ev->netdev,
		 ev->rdma_device[0] ? " " : "", ev->rdma_device,
		 dt ? " dump=" : "", dt ? dt->name : "", ki->windows_event ? " win=" : "",
		 ki->windows_event ? ki->windows_event : "", ev->reporter[0] ? " reporter=" : "",
		 ev->reporter, fields, ev->text);
	out_text(o, stamp, line);   /* "TIME: severity kind device fields  message" */
	r = out_finish(o);
	out_free(o);
	if (r == 0)
		fflush(fp);
	return r;
}

/* --exec: the hook gets the event as one JSON line on its standard input */
static void run_hook(struct mon *m, const struct mlx_event *ev)
{
	extern char **environ;
	char *json = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&json, &len);
	int r;

	if (!fp)
		return;
	r = render(ev, true, fp);
	fclose(fp);
	if (r == 0) {
		r = mlx_exec_hook(m->hook_path, m->hook, environ, json, len, HOOK_TIMEOUT_MS);
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

/* An event of the source: print it, run the hook, make the incident; 1
 * when the stream is done. */
static int deliver(struct mon *m, const struct mlx_evsrc *src, struct mlx_event *ev)
{
	int r;

	if (!wanted(m, ev))
		return 0;
	r = render(ev, m->cli->json, m->cli->out_fp);
	if (r < 0)
		return r;
	if (m->hook[0])
		run_hook(m, ev);
	mon_dump_event(m->cli, &m->dump, m->devs, src, ev, m->cli->json, m->cli->out_fp);
	m->events++;
	return m->max_events && m->events >= m->max_events;
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

/* --poll SEC and --vf-thresholds SPEC: validated (exit 2) into @o. */
static int poll_opts(struct mon *m, struct mlx_evsrc_opts *o)
{
	struct cli *cli = m->cli;
	const char *sec = cli_opt(cli, "poll"), *spec = cli_opt(cli, "vf-thresholds");
	uint64_t v;

	if (spec) {
		char err[1024];

		if (mlx_vf_thresholds_parse(spec, &m->vf, err, sizeof(err)) < 0) {
			cli_error(cli, "%s", err);
			return EXIT_USAGE;
		}
		if (!sec) {
			cli_error(cli, "--vf-thresholds needs --poll SEC: its thresholds are per poll period");
			return EXIT_USAGE;
		}
		o->vf = &m->vf;
	}
	if (!sec)
		return EXIT_OK;
	if (mlx_parse_u64(sec, &v) < 0 || v == 0 || v > 86400) {
		cli_error(cli, "invalid --poll '%s': seconds, 1 - 86400", sec);
		return EXIT_USAGE;
	}
	o->poll_ms = (unsigned)v * 1000;
	return EXIT_OK;
}

/* What the source could not open: the kernel log and rtnetlink are said
 * (as non-root, the kernel log needs CAP_SYSLOG), devlink and ethtool with
 * -v; a stream there is none of (a capture without its recording) with -v. */
static void say_missing(struct cli *cli, const struct mlx_evsrc *src)
{
	static const char *const what[MLX_EVST_N] = {
		[MLX_EVST_KMSG] = "kernel-log", [MLX_EVST_RTNL] = "link",
		[MLX_EVST_DEVLINK] = "devlink health", [MLX_EVST_ETHTOOL] = "ethtool settings",
	};

	for (int i = 0; i < MLX_EVST_N; i++) {
		const char *why;
		int r = mlx_evsrc_stream_status(src, i, &why);
		bool main_stream = i == MLX_EVST_KMSG || i == MLX_EVST_RTNL;

		if (r < 0 && (cli->verbose || (main_stream && r != -ENOENT)))
			cli_warn(cli, "%s; no %s events", why, what[i]);
	}
}

int cmd_monitor(struct cli *cli, int argc, char **argv)
{
	struct mon *m;
	struct mlx_evsrc *src = NULL;
	struct mlx_evsrc_opts o = { 0 };
	struct sigaction sa, old_int, old_term, old_hup;
	const char *since = cli_opt(cli, "since"), *count = cli_opt(cli, "count");
	int rc = EXIT_OK, r = 0;

	(void)argc;
	(void)argv;
	if (cli_opt(cli, "catalogue"))
		return list_catalogue(cli);
	m = calloc(1, sizeof(*m));
	if (!m)
		return EXIT_FAIL;
	m->cli = cli;
	m->any_netdev = cli_opt(cli, "any-netdev") != NULL;
	o.kmsg_flags = cli_opt(cli, "accept-user-records") ? MLX_KMSG_ACCEPT_USER : 0;
	o.since_boot = since && !strcmp(since, "boot");
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
		/* the hook is looked up in this process's PATH (lib reads no
		 * environment) */
		r = mlx_exec_resolve(m->hook[0], getenv("PATH"), &m->hook_path);
		if (r < 0) {
			cli_error(cli, "--exec '%s': %s", m->hook[0],
				  r == -ENOENT && !strchr(m->hook[0], '/') ? "no such command in PATH" : strerror(-r));
			rc = EXIT_USAGE;
			goto out_free;
		}
	}
	if ((rc = poll_opts(m, &o)) != EXIT_OK)
		goto out_free;
	rc = select_target(m);
	if (rc)
		goto out_free;
	rc = mon_dump_load(cli, &m->dump, false);
	if (rc)
		goto out_free;
	/* an incident is of a ConnectX function, whatever -d watches; the
	 * polls read the functions and ports */
	if ((m->dump.on || o.poll_ms) && !m->devs && (rc = cli_devices(cli, &m->devs)) != 0)
		goto out_free;
	o.devs = m->devs;

	r = mlx_evsrc_open(cli->ctx, &o, &src);
	if (r < 0) {
		/* the VF thresholds against what the reporters give */
		rc = r == -EINVAL && o.vf ? (cli_error(cli, "%s", mlx_errmsg(cli->ctx)), EXIT_USAGE) :
					    cli_fail(cli, r, "cannot monitor");
		goto out_free;
	}
	say_missing(cli, src);

	stop_signal = reload_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, &old_hup);
	while (!stop_signal) {
		struct mlx_event ev;

		if (reload_signal)
			reload(m);
		r = mlx_evsrc_next(src, &ev);
		if (r == 1) {
			if ((r = deliver(m, src, &ev)) != 0)
				break;
			continue;
		}
		if (r < 0)
			break;
		/* nothing now: sleep in poll() (no CPU while idle) */
		if (poll(&(struct pollfd){ .fd = mlx_evsrc_fd(src), .events = POLLIN }, 1, -1) < 0 &&
		    errno != EINTR) {
			r = -errno;
			break;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (r == -ENODATA || r == 1)
		r = 0;          /* the end of a replay; --count reached */
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
	mlx_evsrc_close(src);
	free(m->hook_buf);
	free(m->hook_path);
	free(m);
	return rc;
}
