#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 14: one JSON vocabulary.  Every read command's -j output on both
# sample hosts (and the Prometheus labels) is held to the key registry in
# mlxcli-json(7): a key that is not there, or has another type, fails.
# The write commands with --dry-run run dry, so change records count too.
# The command list comes from the command tables (json-keys.py says how).
. "$(dirname "$0")/lib.sh"
need python3

if python3 "$TOP_SRCDIR/tests/cli/json-keys.py" "$MLXCLI" "$TOP_SRCDIR/man/mlxcli-json.7" \
	>"$tmp/out" 2>&1; then
	ok "every key in mlxcli-json(7), with its type ($(tail -1 "$tmp/out"))"
else
	cat "$tmp/out" >&2
	bad "keys outside mlxcli-json(7)"
fi
finish
