/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel-log classifier's RDMA half (issue 25 item 10), pure: lines of
 * mlx5_ib (drivers/infiniband/hw/mlx5) and of the RDMA core (ib_core,
 * drivers/infiniband/core) about an RDMA device, with the device's name;
 * the function of that device is the device model's (mlx_ev_resolve).
 *
 * How they are printed:
 *   - dev_printk on the ib_device, which has no driver and is of class
 *     "infiniband": "infiniband <dev>: MSG" (mlx5_ib_{err,warn,dbg} since
 *     4.19 add "<function>:<line>:(pid <n>): " before MSG); the record's
 *     dictionary says "DEVICE=+infiniband:<dev>";
 *   - mlx5_ib_warn of kernels before that: pr_warn("%s:%s:%d:(pid %d): "),
 *     "<dev>:<function>:<line>:(pid <n>): MSG";
 *   - mlx5_ib_qp_err_syndrome (qp.c, 6.4): pr_err "<dev>/<port>: QP <n>
 *     error: <status> (0x<vendor> 0x<type> 0x<hw>)";
 *   - pr_warn of ib_core without a device: "__ib_cache_gid_add: unable to
 *     add gid <gid> error=<n>", "mlx5_ib: Unexpected event type ...".
 * The formats and where they are printed are in the catalogue
 * (lib/monitor/catalogue.c); lib/monitor/README says which were seen in
 * real logs.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "monitor-private.h"

static void copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void set_kind(struct mlx_event *ev, enum mlx_ev_kind k)
{
	ev->kind = k;
	ev->severity = mlx_ev_kind_info(k)->severity;
}

/* An RDMA device's name (ib_device_rename: 1-63 bytes, no '/', no
 * whitespace; in practice [A-Za-z0-9_.-]): its length at @s, 0 none. */
static size_t dev_len(const char *s)
{
	size_t i = 0;

	while (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.')
		i++;
	return i < 32 ? i : 0;
}

/* sscanf matched the whole message (what is left: nothing, or a period) */
static bool whole(const char *msg, int n)
{
	return n > 0 && (msg[n] == '\0' || (msg[n] == '.' && msg[n + 1] == '\0'));
}

/* MSG of a line about an RDMA device; true when a kind describes it. */
static bool rdma_msg(const char *msg, struct mlx_event *ev)
{
	unsigned a, b, c, d;
	int e, n = 0;
	char st[64];

	if (!strncmp(msg, "mlx5_ib: ", 9))
		msg += 9;       /* destroy_qp_common's own prefix */
	if (sscanf(msg, "modify QP 0x%x to RESET failed%n", &a, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_RDMA_QP_RESET_FAILED);
		mlx_ev_set(ev, MLX_EVF_QPN, a);
		return true;
	}
	n = 0;
	if (sscanf(msg, "Create QP type %u failed%n", &a, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_RDMA_QP_CREATE_FAILED);
		mlx_ev_set(ev, MLX_EVF_QP_TYPE, a);
		return true;
	}
	n = 0;
	/* cq.c: "WC error: %d, Message: %s" (5.8: the status, and its text);
	 * "dump error cqe" before it */
	if ((sscanf(msg, "WC error: %u, Message: %63[^\n]%n", &a, st, &n) == 2 ||
	     (n = 0, sscanf(msg, "WC error: %u, message: %63[^\n]%n", &a, st, &n) == 2)) && n > 0) {
		set_kind(ev, MLX_EV_RDMA_CQE_ERROR);
		mlx_ev_set(ev, MLX_EVF_WC_STATUS, a);
		copy(ev->detail, sizeof(ev->detail), st, strlen(st));
		return true;
	}
	if (!strcmp(msg, "dump error cqe")) {
		set_kind(ev, MLX_EV_RDMA_CQE_ERROR);
		return true;
	}
	/* ib_core mad.c / agent.c: a port's management datagrams cannot run */
	n = 0;
	if ((sscanf(msg, "Couldn't open port %u%n", &a, &n) == 1 &&
	     (whole(msg, n) || !strcmp(msg + n, " for agents"))) ||
	    !strcmp(msg, "Couldn't start port") ||
	    !strcmp(msg, "Couldn't post receive WRs") ||
	    (n = 0, sscanf(msg, "ib_post_recv failed: %d%n", &e, &n) == 1 && whole(msg, n))) {
		set_kind(ev, MLX_EV_RDMA_PORT_FAILED);
		if (!strncmp(msg, "Couldn't open port ", 19))
			mlx_ev_set(ev, MLX_EVF_RDMA_PORT, a);
		if (!strncmp(msg, "ib_post_recv", 12))
			mlx_ev_set(ev, MLX_EVF_ERRNO, (uint64_t)(int64_t)e);
		return true;
	}
	/* ib_core cache.c add_roce_gid (dev_err) */
	n = 0;
	if ((sscanf(msg, "add_roce_gid GID add failed port=%u index=%u%n", &b, &c, &n) == 2 ||
	     (n = 0, sscanf(msg, "add_roce_gid NULL netdev port=%u index=%u%n", &b, &c, &n) == 2)) &&
	    whole(msg, n)) {
		set_kind(ev, MLX_EV_GID_ADD_FAILED);
		mlx_ev_set(ev, MLX_EVF_RDMA_PORT, b);
		mlx_ev_set(ev, MLX_EVF_GID_INDEX, c);
		return true;
	}
	/* main.c delay_drop_handler: a delay-drop timeout fired and
	 * mlx5_core_set_delay_drop failed to re-arm it (the timeout in usec) */
	n = 0;
	if (sscanf(msg, "Failed to set delay drop, timeout=%u%n", &a, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_DELAY_DROP_DISABLED);
		mlx_ev_set(ev, MLX_EVF_TIMEOUT_USEC, a);
		return true;
	}
	n = 0;
	if (sscanf(msg, "GID entry ref leak for index %u ref=%u%n", &c, &d, &n) == 2 && whole(msg, n)) {
		set_kind(ev, MLX_EV_GID_ADD_FAILED);
		mlx_ev_set(ev, MLX_EVF_GID_INDEX, c);
		return true;
	}
	return false;
}

/* "__ib_cache_gid_add: unable to add gid %pI6 error=%d" (ib_cache_gid_add
 * before 4.20): no device in the line. */
static bool gid_line(const char *t, struct mlx_event *ev)
{
	char gid[48];
	int e, n = 0;

	if (strncmp(t, "__ib_cache_gid_add: ", 20) && strncmp(t, "ib_cache_gid_add: ", 18))
		return false;
	t = strchr(t, ' ') + 1;
	if (sscanf(t, "unable to add gid %47[0-9a-fA-F:] error=%d%n", gid, &e, &n) != 2 || !whole(t, n))
		return false;
	set_kind(ev, MLX_EV_GID_ADD_FAILED);
	copy(ev->detail, sizeof(ev->detail), gid, strlen(gid));
	mlx_ev_set(ev, MLX_EVF_ERRNO, (uint64_t)(int64_t)e);
	return true;
}

int mlx_kmsg_classify_rdma(const char *t, int level, struct mlx_event *ev)
{
	char func[64];
	const char *msg;
	unsigned line, pid, port, qpn, vend, type, hw;
	size_t d;
	int n = 0;
	char st[64];

	if (!strncmp(t, "infiniband ", 11)) {
		d = dev_len(t + 11);
		if (!d || strncmp(t + 11 + d, ": ", 2))
			return 0;
		if (!ev->rdma_device[0])
			copy(ev->rdma_device, sizeof(ev->rdma_device), t + 11, d);
		msg = t + 11 + d + 2;
		/* mlx5_ib_{err,warn}: "<function>:<line>:(pid <n>): " */
		if (sscanf(msg, "%63[A-Za-z0-9_]:%u:(pid %u): %n", func, &line, &pid, &n) == 3 && n > 0)
			msg += n;
	} else if ((d = dev_len(t)) && t[d] == '/' &&
		   sscanf(t + d, "/%u: QP %u error: %63[^(](0x%x 0x%x 0x%x)%n", &port, &qpn, st, &vend, &type,
			  &hw, &n) == 6 && whole(t + d, n)) {
		/* mlx5_ib_qp_err_syndrome: the QP moved to the error state */
		copy(ev->rdma_device, sizeof(ev->rdma_device), t, d);
		set_kind(ev, MLX_EV_RDMA_QP_ERROR);
		mlx_ev_set(ev, MLX_EVF_RDMA_PORT, port);
		mlx_ev_set(ev, MLX_EVF_QPN, qpn);
		mlx_ev_set(ev, MLX_EVF_VENDOR_SYNDROME, vend);
		mlx_ev_set(ev, MLX_EVF_HW_SYNDROME_TYPE, type);
		mlx_ev_set(ev, MLX_EVF_HW_ERROR_SYNDROME, hw);
		d = strlen(st);
		while (d && st[d - 1] == ' ')
			d--;
		copy(ev->detail, sizeof(ev->detail), st, d);
		return 1;
	} else if ((d = dev_len(t)) && !strncmp(t, "mlx5_", 5) && t[d] == ':' &&
		   sscanf(t + d + 1, "%63[A-Za-z0-9_]:%u:(pid %u): %n", func, &line, &pid, &n) == 3 && n > 0) {
		/* mlx5_ib_warn before 4.19: the device's name first */
		if (!ev->rdma_device[0])
			copy(ev->rdma_device, sizeof(ev->rdma_device), t, d);
		msg = t + d + 1 + n;
	} else if (gid_line(t, ev)) {
		return 1;
	} else if (!strncmp(t, "mlx5_ib: ", 9)) {
		/* pr_warn of mlx5_ib without a device (an unexpected event) */
		set_kind(ev, MLX_EV_RDMA_LOG);
		ev->severity = level <= 2 ? MLX_EVSEV_CRITICAL : level == 3 ? MLX_EVSEV_ERROR :
			       level == 4 ? MLX_EVSEV_WARNING : level == 5 ? MLX_EVSEV_NOTICE : MLX_EVSEV_INFO;
		return 1;
	} else {
		return 0;
	}
	if (rdma_msg(msg, ev))
		return 1;
	ev->have = 0;
	ev->detail[0] = '\0';
	set_kind(ev, MLX_EV_RDMA_LOG);
	ev->severity = level <= 2 ? MLX_EVSEV_CRITICAL : level == 3 ? MLX_EVSEV_ERROR :
		       level == 4 ? MLX_EVSEV_WARNING : level == 5 ? MLX_EVSEV_NOTICE : MLX_EVSEV_INFO;
	return 1;
}
