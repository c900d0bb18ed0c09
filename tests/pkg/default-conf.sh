#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The default configuration file that make install and the Debian package
# ship (etc/mlxcli.conf, every setting commented out): it parses, and with
# every setting uncommented it gives exactly mlxcli's built-in settings, so
# what it shows is true; it names each key mlxcli-dump-me-now(8) documents
# and no other.
. "$(dirname "$0")/../cli/lib.sh"
need jq
CONF=$TOP_SRCDIR/etc/mlxcli.conf
MAN=$TOP_SRCDIR/man/mlxcli-dump-me-now.8

settings() {    # settings NAME CONFIG-FILE: the dump-me-now settings it gives
	MLXCLI_CONFIG=$2 run "$1" -j dump-me-now list
	if [ "$rc" -ne 0 ] || [ -s "$tmp/$1.err" ]; then
		bad "$1: exit $rc: $(cat "$tmp/$1.err")"
		return
	fi
	jq -c '{dir, total_count, preserved_count}' "$tmp/$1.out" >"$tmp/$1.set"
}

settings builtin /nonexistent/mlxcli.conf
settings shipped "$CONF"
cmp -s "$tmp/builtin.set" "$tmp/shipped.set" && ok "etc/mlxcli.conf as shipped: the built-in settings"

# Every commented "#key = value" made live.
sed 's/^#\([a-z0-9_]*[[:space:]]*=\)/\1/' "$CONF" >"$tmp/live.conf"
n=$(grep -c '^[a-z0-9_]*[[:space:]]*=' "$tmp/live.conf")
[ "$n" -gt 0 ] || bad "no commented setting in etc/mlxcli.conf"
settings live "$tmp/live.conf"
if cmp -s "$tmp/builtin.set" "$tmp/live.set"; then
	ok "its $n settings uncommented: $(cat "$tmp/live.set"), the built-in ones"
else
	bad "its settings uncommented give $(cat "$tmp/live.set"), built in: $(cat "$tmp/builtin.set")"
fi

# The keys: those the man page's FILES entry names ("dmn_dir= DIR" ...).
sed -n 's/^\.BI \(\(dmn\|monitor\)_[a-z0-9_]*\)= .*/\1/p' "$MAN" | sort -u >"$tmp/man-keys"
sed -n 's/^\([a-z0-9_]*\)[[:space:]]*=.*/\1/p' "$tmp/live.conf" | sort -u >"$tmp/conf-keys"
[ -s "$tmp/man-keys" ] || bad "no configuration key found in mlxcli-dump-me-now(8)"
if cmp -s "$tmp/man-keys" "$tmp/conf-keys"; then
	ok "the keys of mlxcli-dump-me-now(8): $(tr '\n' ' ' <"$tmp/conf-keys")"
else
	bad "keys in etc/mlxcli.conf: $(tr '\n' ' ' <"$tmp/conf-keys"); in the man page: $(tr '\n' ' ' <"$tmp/man-keys")"
fi
finish
