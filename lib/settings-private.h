/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subsystems' side of the settings model (lib/settings.h): the
 * functions each table entry of lib/settings/settings.c points at, one
 * group per subsystem, each in its feature's folder
 * (lib/<feature>/<feature>-settings.c).  Private to lib/.
 */
#ifndef MLX_SETTINGS_PRIVATE_H
#define MLX_SETTINGS_PRIVATE_H

#include "settings.h"
#include "sriov.h"
#include "state.h"
#include "txn.h"

struct mlx_settings_reader {
	struct mlx_ctx *ctx;
	struct mlx_params_cache *params;   /* NULL: the knobs cannot be read */
};

/* The flatten callback and a path under construction. */
typedef void (*mlx_flat_fn)(void *arg, const char *path, const struct mlx_val *v);
void mlx_flat_null(mlx_flat_fn fn, void *arg, const char *path);
void mlx_flat_uint(mlx_flat_fn fn, void *arg, const char *path, uint64_t u);
void mlx_flat_bool(mlx_flat_fn fn, void *arg, const char *path, bool b);
void mlx_flat_str(mlx_flat_fn fn, void *arg, const char *path, const char *s);
/* By @have: nothing (absent), null, or the value @v. */
void mlx_flat_val(mlx_flat_fn fn, void *arg, const char *path, uint8_t have, const struct mlx_val *v);

/* A step's plan note with its where (lib/write.h mlx_plan), and an error
 * of a plan named by the setting's path in the desired state. */
int mlx_plan_fail(struct mlx_ctx *ctx, struct mlx_plan *pl, int err, const char *where,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* lib/qos/qos-settings.c */
void mlx_qos_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		  struct mlx_port_settings *out);
bool mlx_qos_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_qos_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		void *parent);
void mlx_qos_close(void *feat);
int mlx_qos_plan(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		 size_t vf, struct mlx_plan *pl);
int mlx_qos_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t);
void mlx_qos_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_qos_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);

/* lib/dcqcn/dcqcn-settings.c */
void mlx_dcqcn_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		     struct mlx_port_settings *out);
bool mlx_dcqcn_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_dcqcn_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		void *parent);
int mlx_dcqcn_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			size_t vf, struct mlx_plan *pl);
void mlx_dcqcn_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_dcqcn_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);

/* lib/params/params-settings.c */
void mlx_params_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings *out);
bool mlx_params_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_params_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		void *parent);
void mlx_params_close_step(void *feat);
int mlx_params_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			 size_t vf, struct mlx_plan *pl);
void mlx_params_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_params_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);
int mlx_params_dup(struct mlx_port_settings *dst, const struct mlx_port_settings *src);
void mlx_params_release(struct mlx_port_settings *p);

/* lib/state/roce-cm.c */
void mlx_roce_read(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		   struct mlx_port_settings *out);
bool mlx_roce_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_roce_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		void *parent);
int mlx_roce_plan(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		  size_t vf, struct mlx_plan *pl);
void mlx_roce_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_roce_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);

/* lib/sriov/sriov-settings.c: the PF (eswitch mode, numvfs) and each VF */
void mlx_sriov_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		     struct mlx_port_settings *out);
bool mlx_sriov_wanted(const struct mlx_port_settings *want, size_t vf);
bool mlx_vf_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_sriov_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		void *parent);
void mlx_sriov_close_step(void *feat);
int mlx_sriov_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			size_t vf, struct mlx_plan *pl);
int mlx_vf_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		     size_t vf, struct mlx_plan *pl);
int mlx_sriov_after_put_back(struct mlx_ctx *ctx, void *feat);
int mlx_sriov_journal_save(void *feat, int (*line)(void *arg, const char *text), void *arg);
int mlx_sriov_journal_load(struct mlx_ctx *ctx, void *feat, const char *text);
void mlx_sriov_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_sriov_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);
int mlx_sriov_dup(struct mlx_port_settings *dst, const struct mlx_port_settings *src);
void mlx_sriov_release(struct mlx_port_settings *p);

/* lib/debug/health-policy.c: each health reporter's policy */
void mlx_health_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		      struct mlx_port_settings *out);
bool mlx_health_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_health_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
			 void *parent);
int mlx_health_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			 size_t vf, struct mlx_plan *pl);
void mlx_health_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_health_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);
extern const struct mlx_write_ops mlx_health_write_ops;

/* lib/phy/link-settings.c: pause, speed, duplex, autonegotiation, FEC */
void mlx_link_sread(struct mlx_settings_reader *rd, const struct mlx_port_ref *t,
		    struct mlx_port_settings *out);
bool mlx_link_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_link_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
		       void *parent);
int mlx_link_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
		       size_t vf, struct mlx_plan *pl);
void mlx_link_flatten(const struct mlx_port_settings *p, mlx_flat_fn fn, void *arg);
int mlx_link_merge(struct mlx_port_settings *dst, const struct mlx_port_settings *src, bool add);
extern const struct mlx_write_ops mlx_link_write_ops;

/* lib/netview/child-settings.c: the child netdevs of a port (VLANs, IPoIB) */
struct mlx_link_info;
struct mlx_netdevs_writer {
	const char *ifname;           /* the parent */
	const char *on;
	/* the link dump at the plan: the parent's index, type and MTU, every
	 * netdev (names taken, the children); a delete's put-back makes
	 * the child again from what it was */
	struct mlx_link_info *links;
	size_t nlinks;
	long parent;                  /* index in links, -1 none */
	const struct mlx_netdevs_settings *want;   /* the plan's (borrowed) */
};
bool mlx_netdevs_wanted(const struct mlx_port_settings *want, size_t vf);
int mlx_netdevs_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
			  void *parent);
void mlx_netdevs_close_step(void *feat);
int mlx_netdevs_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			  size_t vf, struct mlx_plan *pl);
extern const struct mlx_write_ops mlx_netdevs_write_ops;

/* lib/settings/actions.c: the table of actions (lib/txn.h) */
const struct mlx_subsys *mlx_action(enum mlx_action id);

#endif /* MLX_SETTINGS_PRIVATE_H */
