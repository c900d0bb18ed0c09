/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names of the RDMA enums mlxcli prints (the kernel's, as iproute2's
 * rdma tool prints them) and the CM ID address printers (lib/rdma.h):
 * pure.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "rdma.h"

/* ---- names ---------------------------------------------------------------- */

static const char *const kind_names[MLX_RDMA_NKINDS] = {
	[MLX_RDMA_PD] = "pd", [MLX_RDMA_CQ] = "cq", [MLX_RDMA_QP] = "qp",
	[MLX_RDMA_CM_ID] = "cm_id", [MLX_RDMA_MR] = "mr", [MLX_RDMA_CTX] = "ctx",
	[MLX_RDMA_SRQ] = "srq",
};

const char *mlx_rdma_kind_name(enum mlx_rdma_kind k)
{
	return (unsigned)k < MLX_RDMA_NKINDS ? kind_names[k] : NULL;
}

int mlx_rdma_kind_parse(const char *name)
{
	if (name && !strcmp(name, "cm-id"))
		return MLX_RDMA_CM_ID;
	for (int i = 0; name && i < MLX_RDMA_NKINDS; i++)
		if (!strcmp(name, kind_names[i]))
			return i;
	return -1;
}

bool mlx_rdma_kind_has_raw(enum mlx_rdma_kind k)
{
	return k == MLX_RDMA_QP || k == MLX_RDMA_CQ || k == MLX_RDMA_MR || k == MLX_RDMA_SRQ;
}

static const char *name_of(const char *const *names, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? names[v] : NULL;
}

static int parse_of(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* include/rdma/ib_verbs.h enum ib_port_state (0 is IB_PORT_NOP) */
static const char *const port_states[] = { NULL, "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };
/* IBTA PortPhysicalState, as iproute2's rdma link prints it */
static const char *const phys_states[] = {
	NULL, "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION_TRAINING", "LINK_UP",
	"LINK_ERROR_RECOVERY", "PHY_TEST",
};
/* enum ib_qp_type (7 is not used; IB_QPT_DRIVER is 0xff) */
static const char *const qp_types[] = {
	"SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE", NULL, "RAW_PACKET",
	"XRC_INI", "XRC_TGT",
};
static const char *const qp_states[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };
/* drivers/infiniband/core/cma_priv.h enum rdma_cm_state */
static const char *const cm_states[] = {
	"IDLE", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED", "CONNECT",
	"DISCONNECT", "ADDR_BOUND", "LISTEN", "DEVICE_REMOVAL", "DESTROYING",
};
/* enum ib_poll_context: SOFTIRQ, WORKQUEUE, UNBOUND_WORKQUEUE, then DIRECT */
static const char *const poll_ctxs[] = { "SOFTIRQ", "WORKQUEUE", "UNBOUND_WORKQUEUE", "DIRECT" };
static const char *const srq_types[] = { "BASIC", "XRC", "TM" };
static const char *const counter_modes[] = { "none", "auto", "manual" };

const char *mlx_rdma_port_state_name(int v) { return name_of(port_states, N(port_states), v); }
const char *mlx_rdma_phys_state_name(int v) { return name_of(phys_states, N(phys_states), v); }
const char *mlx_rdma_qp_state_name(int v) { return name_of(qp_states, N(qp_states), v); }
int mlx_rdma_qp_state_parse(const char *s) { return parse_of(qp_states, N(qp_states), s); }
const char *mlx_rdma_cm_state_name(int v) { return name_of(cm_states, N(cm_states), v); }
int mlx_rdma_cm_state_parse(const char *s) { return parse_of(cm_states, N(cm_states), s); }
const char *mlx_rdma_poll_ctx_name(int v) { return name_of(poll_ctxs, N(poll_ctxs), v); }
const char *mlx_rdma_srq_type_name(int v) { return name_of(srq_types, N(srq_types), v); }
const char *mlx_rdma_counter_mode_name(int v) { return name_of(counter_modes, N(counter_modes), v); }

const char *mlx_rdma_qp_type_name(int v)
{
	return v == 0xff ? "DRIVER" : name_of(qp_types, N(qp_types), v);
}

/* include/uapi/rdma/rdma_user_cm.h enum rdma_ucm_port_space */
const char *mlx_rdma_ps_name(uint32_t v)
{
	switch (v) {
	case 0x0002: return "IPOIB";
	case 0x0106: return "TCP";
	case 0x0111: return "UDP";
	case 0x013f: return "IB";
	default: return NULL;
	}
}

bool mlx_rdma_qp_state_failed(int state)
{
	return state == 5 || state == 6;       /* IB_QPS_SQE, IB_QPS_ERR */
}

/* ---- addresses ------------------------------------------------------------- */

#ifndef AF_IB
#define AF_IB 27
#endif

const char *mlx_rdma_addr_ip(const struct mlx_rdma_addr *a, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (!len)
		return buf;
	buf[0] = '\0';
	if (a->family == AF_INET && inet_ntop(AF_INET, a->addr, ip, sizeof(ip)))
		snprintf(buf, len, "%s", ip);
	else if ((a->family == AF_INET6 || a->family == AF_IB) &&
		 inet_ntop(AF_INET6, a->addr, ip, sizeof(ip)))
		snprintf(buf, len, "%s", ip);
	return buf;
}

const char *mlx_rdma_addr_str(const struct mlx_rdma_addr *a, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN + 1];

	mlx_rdma_addr_ip(a, ip, sizeof(ip));
	if (!len)
		return buf;
	buf[0] = '\0';
	if (!ip[0])
		return buf;
	if (a->family == AF_INET)
		snprintf(buf, len, "%s:%u", ip, a->port);
	else if (a->family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ip, a->port);
	else
		snprintf(buf, len, "ib:%s", ip);
	return buf;
}
