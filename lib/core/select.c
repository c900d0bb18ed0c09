/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device selection (DESIGN.md "Device selection").  -d takes:
 *   0000:5e:00.0, 5e:00.0, 5e:0.0   PCI address, hex, as lspci prints it
 *   pci/0000:5e:00.0                 the devlink handle of the function
 *   "94 0 0"                         the decimal bus/dev/func mlxtool users type
 *   enp94s0f0np0, mlx5_0             a netdev or an RDMA device
 * A colon form is hex however many digits it has: that is what lspci, the
 * kernel and every other tool mean by 59:0.1, so a string pasted from
 * lspci can never select another card.  mlxtool's decimal form is the one
 * with blanks.  A colon form of decimal digits could still be an mlxtool
 * user's decimal bus: the selector keeps that other reading, cmd/ warns on
 * a read and refuses a write when both readings name a ConnectX function
 * (issue 25).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"

static bool all(const char *s, size_t n, int (*pred)(int))
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!pred((unsigned char)s[i]))
			return false;
	return true;
}

static int parse_num(const char *s, size_t n, int base, unsigned max, unsigned *out)
{
	unsigned long v = 0;

	if (n == 0 || n > 8)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;

		if (isdigit(c))
			d = c - '0';
		else if (base == 16 && isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else
			return -EINVAL;
		v = v * (unsigned)base + (unsigned)d;
	}
	if (v > max)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

/* "[dddd:]bb:dd.f" with hex fields.  1 = parsed, 0 = not this form. */
static int parse_pci(const char *t, struct mlx_selector *sel)
{
	const char *dot = strrchr(t, '.'), *c2, *c1;
	size_t nb, nd;
	bool digits;

	if (!dot || !dot[1] || dot[2] || !isdigit((unsigned char)dot[1]))
		return 0;
	c2 = memrchr(t, ':', (size_t)(dot - t));
	if (!c2)
		return 0;
	c1 = c2 > t ? memrchr(t, ':', (size_t)(c2 - t)) : NULL;
	nd = (size_t)(dot - c2 - 1);
	nb = c1 ? (size_t)(c2 - c1 - 1) : (size_t)(c2 - t);
	const char *bs = c1 ? c1 + 1 : t;

	if (!all(bs, nb, isxdigit) || !all(c2 + 1, nd, isxdigit))
		return 0;
	if (c1) {
		if (!all(t, (size_t)(c1 - t), isxdigit) ||
		    parse_num(t, (size_t)(c1 - t), 16, 0xffff, &sel->domain) < 0)
			return -EINVAL;
		sel->has_domain = true;
	}
	digits = !c1 && all(bs, nb, isdigit) && all(c2 + 1, nd, isdigit);
	/* Digits only: what mlxtool's decimal reading makes of them, when it
	 * is an address too ("59:0.1": decimal bus 59 is 0x3b). */
	if (digits && parse_num(bs, nb, 10, 0xff, &sel->other_bus) == 0 &&
	    parse_num(c2 + 1, nd, 10, 0x1f, &sel->other_dev) == 0)
		sel->other_valid = true;
	if (parse_num(dot + 1, 1, 10, 7, &sel->func) < 0 ||
	    parse_num(bs, nb, 16, 0xff, &sel->bus) < 0 ||
	    parse_num(c2 + 1, nd, 16, 0x1f, &sel->dev) < 0)
		return -ERANGE;
	sel->kind = MLX_SEL_PCI;
	sel->reading = MLX_READ_PCI;
	sel->has_other = sel->other_valid &&
			 (sel->other_bus != sel->bus || sel->other_dev != sel->dev);
	return 1;
}

/* "B D F", decimal, separated by blanks. */
static int parse_triple(const char *t, struct mlx_selector *sel)
{
	unsigned v[3];
	const char *p = t;

	for (int i = 0; i < 3; i++) {
		const char *s;

		while (*p == ' ' || *p == '\t')
			p++;
		s = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == s)
			return 0;
		if (parse_num(s, (size_t)(p - s), 10, i == 0 ? 255 : i == 1 ? 31 : 7, &v[i]) < 0)
			return -ERANGE;
		if (i < 2 && *p != ' ' && *p != '\t')
			return 0;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		return 0;
	sel->kind = MLX_SEL_PCI;
	sel->reading = MLX_READ_DECIMAL;
	sel->bus = v[0];
	sel->dev = v[1];
	sel->func = v[2];
	return 1;
}

/* sel->text: the address as lspci prints it. */
static void normalise(struct mlx_selector *sel)
{
	if (sel->has_domain)
		snprintf(sel->text, sizeof(sel->text), "%04x:%02x:%02x.%u",
			 sel->domain, sel->bus, sel->dev, sel->func);
	else
		snprintf(sel->text, sizeof(sel->text), "%02x:%02x.%u",
			 sel->bus, sel->dev, sel->func);
}

bool mlx_selector_other_reading(const struct mlx_selector *sel, struct mlx_selector *other)
{
	if (sel->kind != MLX_SEL_PCI || !sel->has_other)
		return false;
	*other = *sel;
	other->reading = MLX_READ_DECIMAL;
	other->bus = sel->other_bus;
	other->dev = sel->other_dev;
	other->has_other = false;
	normalise(other);
	return true;
}

int mlx_selector_parse(struct mlx_ctx *ctx, const char *text, struct mlx_selector *sel)
{
	const char *t = text;
	bool devlink = false;
	int r;

	memset(sel, 0, sizeof(*sel));
	if (!text || !*text)
		return mlx_err(ctx, EINVAL, "empty device name");
	snprintf(sel->text, sizeof(sel->text), "%s", text);
	/* devlink's handle of a PCI device (devlink dev show): "pci/" and the
	 * address, which devlink always writes in lspci's hex */
	if (!strncmp(text, "pci/", 4)) {
		devlink = true;
		t = text + 4;
		if (strchr(t, ' ') || strchr(t, '/'))
			return mlx_err(ctx, EINVAL, "invalid devlink handle '%s': expected "
				       "pci/dddd:bb:dd.f", text);
	}

	r = strchr(t, ' ') ? parse_triple(t, sel) : parse_pci(t, sel);
	if (r == 1) {
		if (devlink)
			sel->has_other = false;
		normalise(sel);
		return 0;
	}
	if (devlink)
		return mlx_err(ctx, EINVAL, "invalid devlink handle '%s': expected pci/dddd:bb:dd.f",
			       text);
	/* "255:0.0": no hex address, but mlxtool's decimal bus 255 is one */
	if (r == -ERANGE && sel->other_valid)
		return mlx_err(ctx, EINVAL,
			       "invalid PCI address '%s': a PCI address is hexadecimal, as lspci "
			       "prints it (bus 00-ff, device 00-1f, function 0-7); for mlxtool's "
			       "decimal bus %u, device %u write '%u %u %u'", text, sel->other_bus,
			       sel->other_dev, sel->other_bus, sel->other_dev, sel->func);
	if (r < 0)
		return mlx_err(ctx, EINVAL, strchr(t, ' ') ?
			       "invalid PCI address '%s': bus 0-255, device 0-31, function 0-7" :
			       "invalid PCI address '%s': bus 00-ff, device 00-1f, function 0-7 "
			       "(hexadecimal, as lspci prints it)", text);
	if (strchr(text, ' '))
		return mlx_err(ctx, EINVAL,
			       "invalid device '%s': expected a PCI address, 'BUS DEV FUNC', a netdev or an RDMA device",
			       text);
	/* Netdev and RDMA names never hold ':' (the kernel refuses it), so a
	 * word with one is a PCI address gone wrong ("5e:00."), not a name. */
	if (strchr(text, ':'))
		return mlx_err(ctx, EINVAL,
			       "invalid PCI address '%s': expected [dddd:]bb:dd.f", text);
	/* A name: it will become a path component, so no '/', no "..". */
	if (!mlx_name_is_safe(text) || strlen(text) >= MLX_NAME_LEN)
		return mlx_err(ctx, EINVAL, "invalid device name '%s'", text);
	sel->kind = MLX_SEL_NAME;
	sel->reading = MLX_READ_NAME;
	snprintf(sel->name, sizeof(sel->name), "%s", text);
	return 0;
}

/* The function whose netdev (@rdma false) or RDMA device is @name, and
 * the port it names; NULL when none. */
static struct mlx_function *by_name(const struct mlx_devices *devs, const char *name, bool rdma,
				    struct mlx_port **portp)
{
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];

		*portp = NULL;
		for (size_t k = 0; k < fn->nports && !rdma; k++)
			if (!strcmp(fn->ports[k].ifname, name)) {
				*portp = &fn->ports[k];
				return fn;
			}
		for (size_t k = 0; k < fn->nrdma && rdma; k++) {
			if (strcmp(fn->rdma[k].name, name))
				continue;
			/* An RDMA device with one port selects that port. */
			for (size_t j = 0; j < fn->nports; j++)
				if (!strcmp(fn->ports[j].rdma_dev, name))
					*portp = &fn->ports[j];
			return fn;
		}
	}
	return NULL;
}

/* The function at @sel's address; *nhits how many domains have one. */
static struct mlx_function *by_address(const struct mlx_devices *devs,
				       const struct mlx_selector *sel, unsigned *nhits)
{
	struct mlx_function *hit = NULL;

	*nhits = 0;
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];

		if (fn->bus != sel->bus || fn->dev != sel->dev || fn->func != sel->func)
			continue;
		if (sel->has_domain && fn->domain != sel->domain)
			continue;
		if (!hit)
			hit = fn;
		(*nhits)++;
	}
	return hit;
}

int mlx_select(struct mlx_ctx *ctx, const struct mlx_devices *devs,
	       const struct mlx_selector *sel,
	       struct mlx_function **fnp, struct mlx_port **portp)
{
	struct mlx_function *hit = NULL;
	struct mlx_port *hport = NULL;
	unsigned nhits = 1;

	*fnp = NULL;
	if (portp)
		*portp = NULL;
	if (sel->kind == MLX_SEL_PCI) {
		hit = by_address(devs, sel, &nhits);
	} else {
		/* a netdev first: the name a port is known by */
		hit = by_name(devs, sel->name, false, &hport);
		if (!hit)
			hit = by_name(devs, sel->name, true, &hport);
	}
	if (!hit)
		return mlx_err(ctx, ENODEV, "no ConnectX device '%s'", sel->text);
	if (nhits > 1)
		return mlx_err(ctx, EINVAL,
			       "'%s' matches functions in %u PCI domains; give the domain (dddd:bb:dd.f)",
			       sel->text, nhits);
	*fnp = hit;
	if (portp)
		*portp = hport;
	return 0;
}

size_t mlx_select_candidates(const struct mlx_devices *devs, const struct mlx_selector *sel,
			     struct mlx_sel_candidate *out, size_t max)
{
	struct mlx_function *a = NULL, *b = NULL;
	struct mlx_port *p;
	enum mlx_sel_reading ra = sel->reading, rb = sel->reading;
	unsigned nhits;
	size_t n = 0;

	if (sel->kind == MLX_SEL_PCI) {
		struct mlx_selector o;

		a = by_address(devs, sel, &nhits);
		if (nhits > 1)
			a = NULL;       /* mlx_select refuses it: no candidate */
		if (mlx_selector_other_reading(sel, &o)) {
			b = by_address(devs, &o, &nhits);
			rb = o.reading;
			if (nhits > 1)
				b = NULL;
		}
	} else {
		a = by_name(devs, sel->name, false, &p);
		b = by_name(devs, sel->name, true, &p);
		ra = MLX_READ_NETDEV;
		rb = MLX_READ_RDMA;
		if (!a) {
			a = b;
			ra = rb;
			b = NULL;
		}
	}
	if (a && n < max)
		out[n++] = (struct mlx_sel_candidate){ a, ra };
	if (b && b != a && n < max)
		out[n++] = (struct mlx_sel_candidate){ b, rb };
	return n;
}
