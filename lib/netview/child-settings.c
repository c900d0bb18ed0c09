/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The child netdevs of a port as a subsystem of the settings model
 * (lib/settings.h MLX_SUB_NETDEVS, issue 27: the seeds' VlanID and
 * part_man): `vlan add|del` and `ipoib add|del` are one step of the write
 * engine each, validated against the link dump first (the parent, a
 * duplicate id, a name taken), one change per child: "vlan.<id>" or
 * "ipoib.0x<pkey>", its value the child's name, null when there is none.
 * Writing a name makes the child (RTM_NEWLINK), writing null deletes it
 * (RTM_DELLINK), so the engine's put-back of an add deletes what it made
 * and the put-back of a delete makes the child again as the plan read it
 * (protocol, egress map, mode).  A delete drops the child's traffic: it
 * is a change that destroys (MLX_CHG_DESTROYS), confirmed by the caller.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <net/if_arp.h>

#include "mlx-private.h"
#include "netview.h"
#include "settings-private.h"

/* ---- validators ---- */

struct mlx_child_setting *mlx_netdevs_put(struct mlx_ctx *ctx, struct mlx_netdevs_settings *d,
					  unsigned kind, int64_t id, bool present)
{
	struct mlx_child_setting *c;

	if (kind == MLX_CHILD_VLAN && (id < 1 || id > 4094)) {
		mlx_err(ctx, ERANGE, "VLAN id %" PRId64 " is out of range (1-4094)", id);
		return NULL;
	}
	/* ipoib_vlan.c __ipoib_vlan_add: 0 and 0x8000 are no partition.  The
	 * full-membership bit is set here, as the kernel's sysfs create_child
	 * (ipoib_main.c) and part_man do: rtnetlink takes the pkey as sent.
	 * The kernel lets two rtnetlink children share a pkey
	 * (is_child_unique holds only sysfs children to one); mlxcli names a
	 * partition by its pkey, so it keeps one per pkey */
	if (kind == MLX_CHILD_IPOIB && (id < 1 || id > 0xffff || (id & 0x7fff) == 0)) {
		mlx_err(ctx, ERANGE, "pkey 0x%" PRIx64 " is out of range (0x0001-0x7fff, the "
			"full-membership bit 0x8000 allowed)", id);
		return NULL;
	}
	if (kind >= MLX_CHILD_NKINDS) {
		mlx_err(ctx, EINVAL, "no such kind of child netdev");
		return NULL;
	}
	if (kind == MLX_CHILD_IPOIB)
		id |= MLX_IPOIB_FULL_MEMBER;
	for (size_t i = 0; i < d->n; i++)
		if (d->c[i].kind == kind && d->c[i].id == id) {
			mlx_err(ctx, EEXIST, "%s %" PRId64 " is given twice", mlx_child_kind_name(kind), id);
			return NULL;
		}
	if (d->n == MLX_CHILD_WANT_MAX) {
		mlx_err(ctx, ENOSPC, "at most %d child netdevs in one write", MLX_CHILD_WANT_MAX);
		return NULL;
	}
	c = &d->c[d->n++];
	memset(c, 0, sizeof(*c));
	c->kind = (uint8_t)kind;
	c->id = (uint16_t)id;
	c->present = present;
	c->mode = -1;
	d->have = MLX_SET;
	return c;
}

int mlx_child_put_name(struct mlx_ctx *ctx, struct mlx_child_setting *c, const char *name)
{
	/* net/core/dev.c dev_valid_name: 1-15 bytes, not "." or "..", no '/',
	 * ':' or blank (mlx_name_is_safe also refuses control characters) */
	if (!name[0] || strlen(name) >= IFNAMSIZ || !mlx_name_is_safe(name) ||
	    strpbrk(name, ": \t\n"))
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name (1-%d bytes, no '/', "
			       "':' or blank)", name, IFNAMSIZ - 1);
	snprintf(c->name, sizeof(c->name), "%s", name);
	return 0;
}

int mlx_child_put_egress(struct mlx_ctx *ctx, struct mlx_child_setting *c, int64_t from, int64_t to)
{
	/* vlan_dev.c vlan_dev_set_egress_priority: any skb priority, a PCP
	 * 0-7 (to << VLAN_PRIO_SHIFT must stay in VLAN_PRIO_MASK) */
	if (from < 0 || from > UINT32_MAX || to < 0 || to > 7)
		return mlx_err(ctx, ERANGE, "egress map %" PRId64 ":%" PRId64 ": a priority (0-%u) to a "
			       "PCP (0-7)", from, to, UINT32_MAX);
	for (size_t i = 0; i < c->negress; i++)
		if (c->egress[i].from == from)
			return mlx_err(ctx, EEXIST, "egress map: priority %" PRId64 " is given twice", from);
	if (c->negress == sizeof(c->egress) / sizeof(c->egress[0]))
		return mlx_err(ctx, ENOSPC, "egress map: at most %zu entries",
			       sizeof(c->egress) / sizeof(c->egress[0]));
	c->egress[c->negress].from = (uint32_t)from;
	c->egress[c->negress++].to = (uint32_t)to;
	return 0;
}

int mlx_child_default_name(char *buf, size_t len, const char *parent, unsigned kind, uint16_t id)
{
	int n = kind == MLX_CHILD_IPOIB ? snprintf(buf, len, "%s.%04x", parent, id) :
		snprintf(buf, len, "%s.%u", parent, id);

	return n < 0 || (size_t)n >= len || n >= IFNAMSIZ ? -ENAMETOOLONG : 0;
}

/* ---- the step ---- */

bool mlx_netdevs_wanted(const struct mlx_port_settings *want, size_t vf)
{
	(void)vf;
	return want->netdevs.have == MLX_SET && want->netdevs.n > 0;
}

int mlx_netdevs_open_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t,
			  void *parent)
{
	struct mlx_netdevs_writer *w = feat;
	int e;

	(void)parent;
	memset(w, 0, sizeof(*w));
	w->ifname = t->ifname;
	w->on = mlx_port_ref_name(t);
	w->parent = -1;
	if (!w->ifname)
		return 0;
	e = mlx_links_dump(ctx, &w->links, &w->nlinks);
	if (e < 0)
		return e;
	for (size_t i = 0; i < w->nlinks; i++)
		if (!strcmp(w->links[i].ifname, w->ifname))
			w->parent = (long)i;
	return 0;
}

void mlx_netdevs_close_step(void *feat)
{
	struct mlx_netdevs_writer *w = feat;

	free(w->links);
	w->links = NULL;
	w->nlinks = 0;
}

/* Is @li the child of kind @kind and id @id on the netdev of index @parent? */
static bool is_child(const struct mlx_link_info *li, int parent, unsigned kind, uint16_t id)
{
	/* a port may name itself in IFLA_LINK (the captures' PFs do) */
	if (li->link != parent || li->ifindex == parent || strcmp(li->kind, mlx_child_kind_name(kind)))
		return false;
	return kind == MLX_CHILD_VLAN ? li->vlan_id == id :
	       li->pkey >= 0 && ((unsigned)li->pkey | MLX_IPOIB_FULL_MEMBER) == id;
}

static const struct mlx_link_info *find_child(const struct mlx_link_info *v, size_t n, int parent,
					      unsigned kind, uint16_t id)
{
	for (size_t i = 0; i < n; i++)
		if (is_child(&v[i], parent, kind, id))
			return &v[i];
	return NULL;
}

static void setting_name(char *buf, size_t len, unsigned kind, uint16_t id)
{
	if (kind == MLX_CHILD_IPOIB)
		snprintf(buf, len, "ipoib.0x%04x", id);
	else
		snprintf(buf, len, "vlan.%u", id);
}

static const char *kind_words(unsigned kind)
{
	return kind == MLX_CHILD_VLAN ? "VLAN" : "IPoIB partition";
}

static int plan_one(struct mlx_ctx *ctx, struct mlx_netdevs_writer *w, const struct mlx_link_info *p,
		    const struct mlx_child_setting *c, size_t idx, struct mlx_plan *pl)
{
	const struct mlx_link_info *have = find_child(w->links, w->nlinks, p->ifindex, c->kind, c->id);
	char set[24], name[IFNAMSIZ], idtext[16];
	int k;

	setting_name(set, sizeof(set), c->kind, c->id);
	snprintf(idtext, sizeof(idtext), c->kind == MLX_CHILD_IPOIB ? "0x%04x" : "%u", c->id);
	/* the kernel's own refusals, said before anything is sent:
	 * vlan_check_real_dev (a device that cannot carry tags: IPoIB's
	 * ARPHRD_INFINIBAND is VLAN-challenged), ipoib_new_child_link (an
	 * IPoIB parent, and no child itself) */
	if (c->kind == MLX_CHILD_VLAN && p->type != ARPHRD_ETHER)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, set, "VLANs are not supported on %s: it is "
				     "no Ethernet interface (link type %u)%s", w->on, p->type,
				     p->type == ARPHRD_INFINIBAND ? " (an InfiniBand partition is an "
				     "IPoIB child: mlxcli ipoib add)" : "");
	if (c->kind == MLX_CHILD_IPOIB && p->type != ARPHRD_INFINIBAND)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, set, "IPoIB partitions are not supported on "
				     "%s: it is no IPoIB interface (link type %u, not InfiniBand's %u); "
				     "a partition is added on an InfiniBand port's interface (ib0)", w->on,
				     p->type, ARPHRD_INFINIBAND);
	if (c->kind == MLX_CHILD_IPOIB && !strcmp(p->kind, "ipoib") && p->link && p->link != p->ifindex)
		return mlx_plan_fail(ctx, pl, EINVAL, set, "%s is an IPoIB child itself: a partition is "
				     "added on its parent", w->on);
	if (!c->present) {
		if (!have)
			return mlx_plan_fail(ctx, pl, EINVAL, set, "%s has no %s %s", w->on,
					     kind_words(c->kind), idtext);
		if (c->name[0] && strcmp(c->name, have->ifname))
			return mlx_plan_fail(ctx, pl, EINVAL, set, "%s %s of %s is '%s', not '%s'",
					     kind_words(c->kind), idtext, w->on, have->ifname, c->name);
		k = mlx_plan_add(pl, set, NULL, (int)idx, (int)c->kind, mlx_val_null());
		if (k < 0)
			return mlx_err(ctx, ENOMEM, "out of memory");
		pl->c[k].flags |= MLX_CHG_DESTROYS | MLX_CHG_NULL_NONE;
		pl->c[k].note = "deleting it drops the traffic on it";
		return 0;
	}
	if (have)
		return mlx_plan_fail(ctx, pl, EEXIST, set, "%s %s already exists on %s: '%s'",
				     kind_words(c->kind), idtext, w->on, have->ifname);
	if (c->name[0])
		snprintf(name, sizeof(name), "%s", c->name);
	else if (mlx_child_default_name(name, sizeof(name), w->ifname, c->kind, c->id) < 0)
		return mlx_plan_fail(ctx, pl, EINVAL, set, "the default name %s.%s does not fit in %d "
				     "bytes: give one with 'name NAME'", w->ifname,
				     c->kind == MLX_CHILD_IPOIB ? idtext + 2 : idtext, IFNAMSIZ - 1);
	for (size_t i = 0; i < w->nlinks; i++)
		if (!strcmp(w->links[i].ifname, name))
			return mlx_plan_fail(ctx, pl, EEXIST, set, "a netdev named '%s' already exists",
					     name);
	k = mlx_plan_add(pl, set, NULL, (int)idx, (int)c->kind, mlx_val_str(name));
	if (k < 0)
		return mlx_err(ctx, ENOMEM, "out of memory");
	pl->c[k].flags |= MLX_CHG_NULL_NONE;
	return 0;
}

int mlx_netdevs_plan_step(struct mlx_ctx *ctx, void *feat, const struct mlx_port_settings *want,
			  size_t vf, struct mlx_plan *pl)
{
	struct mlx_netdevs_writer *w = feat;
	const struct mlx_netdevs_settings *d = &want->netdevs;
	int e = 0;

	(void)vf;
	if (!w->ifname)
		return mlx_plan_fail(ctx, pl, EOPNOTSUPP, "netdevs", "%s has no network interface: no "
				     "child netdevs", w->on);
	if (w->parent < 0)
		return mlx_plan_fail(ctx, pl, ENODEV, "netdevs", "'%s' is not in the kernel's list of "
				     "links", w->ifname);
	w->want = d;
	for (size_t i = 0; i < d->n && !e; i++)
		e = plan_one(ctx, w, &w->links[w->parent], &d->c[i], i, pl);
	return e;
}

/* ---- the write engine's operations ---- */

static int nd_read(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c, struct mlx_val *out)
{
	struct mlx_netdevs_writer *w = feat;
	const struct mlx_link_info *li;
	struct mlx_link_info *v;
	size_t n;
	int parent = 0;
	uint16_t id;
	int e;

	if (c->arg < 0 || c->arg >= MLX_CHILD_NKINDS || w->parent < 0)
		return mlx_err(ctx, EINVAL, "no such child netdev setting");
	e = mlx_links_dump(ctx, &v, &n);
	if (e < 0)
		return e;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].ifname, w->ifname))
			parent = v[i].ifindex;
	id = (uint16_t)strtoul(strchr(c->setting, '.') + 1, NULL, 0);
	li = parent ? find_child(v, n, parent, (unsigned)c->arg, id) : NULL;
	*out = li ? mlx_val_str(li->ifname) : mlx_val_null();
	free(v);
	if (!parent)
		return mlx_err(ctx, ENODEV, "'%s' is gone from the kernel's list of links", w->ifname);
	return 0;
}

static int nd_write(struct mlx_ctx *ctx, void *feat, const struct mlx_change *c,
		    const struct mlx_val *v)
{
	struct mlx_netdevs_writer *w = feat;
	const struct mlx_link_info *p;
	struct mlx_child_req rq;

	if (w->parent < 0 || c->arg < 0 || c->arg >= MLX_CHILD_NKINDS)
		return mlx_err(ctx, EINVAL, "no such child netdev setting");
	p = &w->links[w->parent];
	memset(&rq, 0, sizeof(rq));
	rq.kind = (enum mlx_child_kind)c->arg;
	rq.mode = -1;
	if (v->kind == MLX_VAL_NULL) {
		/* none: delete the child the other value names (a delete's
		 * new, an add's put-back) */
		const struct mlx_val *o = v == &c->new ? &c->old : &c->new;

		if (o->kind != MLX_VAL_STR)
			return 0;
		rq.del = true;
		snprintf(rq.name, sizeof(rq.name), "%s", o->s);
		return mlx_child_send(ctx, rq.name, &rq);
	}
	if (v->kind != MLX_VAL_STR)
		return mlx_err(ctx, EINVAL, "a child netdev's value is its name");
	snprintf(rq.name, sizeof(rq.name), "%s", v->s);
	rq.parent_index = (uint32_t)p->ifindex;
	rq.id = (uint16_t)strtoul(strchr(c->setting, '.') + 1, NULL, 0);
	if (v == &c->new && w->want && c->id >= 0 && (size_t)c->id < w->want->n) {
		const struct mlx_child_setting *s = &w->want->c[c->id];

		rq.proto = s->proto;
		rq.mode = s->mode;
		rq.negress = s->negress;
		for (size_t i = 0; i < s->negress; i++) {
			rq.egress[i].from = s->egress[i].from;
			rq.egress[i].to = s->egress[i].to;
		}
	} else {
		/* a delete put back: the child as the plan read it */
		const struct mlx_link_info *was = find_child(w->links, w->nlinks, p->ifindex, rq.kind,
							     rq.id);

		/* ... with its index, MTU and address, and up when it was: a
		 * VLAN made again down, under another index, would still drop
		 * its traffic (seen in the fault matrix's read-back faults) */
		if (was) {
			rq.proto = was->vlan_proto;
			rq.mode = was->mode;
			rq.negress = was->vlan_negress;
			memcpy(rq.egress, was->vlan_egress, sizeof(rq.egress));
			rq.ifindex = was->ifindex > 0 ? was->ifindex : 0;
			rq.up = (was->flags & IFF_UP) != 0;
			rq.mtu = was->mtu > 0 ? was->mtu : 0;
			if (was->addr_len && was->addr_len <= sizeof(rq.addr)) {
				memcpy(rq.addr, was->addr, was->addr_len);
				rq.addr_len = was->addr_len;
			}
		}
	}
	return mlx_child_send(ctx, w->ifname, &rq);
}

const struct mlx_write_ops mlx_netdevs_write_ops = {
	.read = nd_read,
	.write = nd_write,
};
