/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: what works on state documents rather than on the write
 * engine: --diff (the plan as mlxcli diff's unified diff of the state),
 * FILE's port laid over the port's state as `mlxcli state -j` renders it
 * (cmd/state.c).
 */
#include "config.h"

#include <string.h>

#include <jansson.h>

#include "apply-cmd.h"
#include "state-cmd.h"

/*
 * --diff: the plan as a unified diff of the state, as `mlxcli diff` prints
 * one: the state read now against the same state with FILE's sections laid
 * over each port it matched (objects merged key by key, lists of objects
 * element by element by their key, a DSCP map replaced whole), so what the
 * file leaves alone does not show.
 */
static void overlay(json_t *cur, json_t *want, const char *key)
{
	const char *k, *ek = key ? state_element_key(key) : NULL;
	json_t *w, *c;
	size_t i, j;

	if (json_is_object(cur) && json_is_object(want)) {
		json_object_foreach(want, k, w) {
			if (json_is_null(w) || !strcmp(k, "match"))
				continue;
			c = json_object_get(cur, k);
			if ((json_is_object(c) && json_is_object(w)) ||
			    (json_is_array(c) && json_is_array(w) && state_element_key(k) &&
			     strcmp(k, "dscp2prio")))
				overlay(c, w, k);
			else
				json_object_set(cur, k, w);
		}
		return;
	}
	/* a list of objects: each of FILE's elements over the one of its key */
	json_array_foreach(want, i, w)
		json_array_foreach(cur, j, c)
			if (json_equal(json_object_get(c, ek), json_object_get(w, ek))) {
				overlay(c, w, NULL);
				break;
			}
}

int apply_show_diff(struct cli *cli, struct aport *ap, size_t nap)
{
	const char *netdevs[64];
	json_t *cur, *want, *p;
	size_t i, n, nn = 0;
	int r;

	/* a netdev that is no ConnectX port (--any-netdev) is in the state
	 * only when named */
	for (size_t k = 0; k < nap && nn < sizeof(netdevs) / sizeof(*netdevs); k++)
		if (!ap[k].fn)
			netdevs[nn++] = ap[k].ifname;
	r = state_doc(cli, netdevs, nn, &cur);
	if (r)
		return r;
	want = json_deep_copy(cur);
	json_array_foreach(json_object_get(want, "ports"), i, p)
		for (size_t k = 0; k < nap; k++)
			if (ap[k].fn ? !strcmp(json_string_value(json_object_get(p, "pci_address")) ?: "",
					       ap[k].fn->bdf)
				     : json_is_null(json_object_get(p, "pci_address")) &&
				       !strcmp(json_string_value(json_object_get(p, "netdev")) ?: "",
					       ap[k].ifname))
				overlay(p, ap[k].spec, NULL);
	n = state_diff_docs(cli, "current", "planned", cur, want);
	out_bool(cli->out, "changed", NULL, n > 0);
	json_decref(cur);
	json_decref(want);
	return EXIT_OK;
}
