/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the device model knows of an event's device (issue 16, issue 25
 * item 10), for the event source: the function of a netdev, the netdev
 * of a one-port function, and the port and function of an RDMA device
 * (each port's rdma_dev and rdma_port, read from sysfs by lib/device).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "device.h"
#include "monitor.h"

/* The port of RDMA device @name (its @rdma_port when known, else the one
 * port it has), or else the function that has it. */
static const struct mlx_port *port_by_rdma(const struct mlx_devices *devs, const char *name, uint64_t rdma_port,
					   bool have_port, const struct mlx_function **fn)
{
	const struct mlx_port *found = NULL;
	unsigned n = 0;

	*fn = NULL;
	for (size_t i = 0; devs && name[0] && i < devs->nfn; i++) {
		const struct mlx_function *f = &devs->fn[i];

		for (size_t j = 0; j < f->nports; j++)
			if (!strcmp(f->ports[j].rdma_dev, name) &&
			    (!have_port || f->ports[j].rdma_port == rdma_port)) {
				found = &f->ports[j];
				n++;
			}
		for (size_t j = 0; j < f->nrdma && !*fn; j++)
			if (!strcmp(f->rdma[j].name, name))
				*fn = f;
	}
	if (found && !*fn)
		*fn = found->fn;
	return n == 1 ? found : NULL;
}

void mlx_ev_resolve(const struct mlx_devices *devs, struct mlx_event *ev)
{
	const struct mlx_port *p = mlx_devices_port_of(devs, ev->netdev);
	const struct mlx_function *fn = p ? p->fn : mlx_devices_fn_of(devs, ev->pci_address);

	/* a line of an RDMA device: its port's netdev and function (the
	 * device model's rdma_dev and rdma_port of each port) */
	if (!p && !fn && ev->rdma_device[0]) {
		p = port_by_rdma(devs, ev->rdma_device, ev->v[MLX_EVF_RDMA_PORT],
				 mlx_ev_has(ev, MLX_EVF_RDMA_PORT), &fn);
		if (p && !ev->netdev[0])
			snprintf(ev->netdev, sizeof(ev->netdev), "%s", p->ifname);
		if (fn && !ev->pci_address[0])
			snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", fn->bdf);
	}

	if (p && !ev->pci_address[0])
		snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", p->fn->bdf);
	if (fn && !ev->netdev[0] && fn->nports == 1)
		snprintf(ev->netdev, sizeof(ev->netdev), "%s", fn->ports[0].ifname);
}
