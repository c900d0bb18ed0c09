#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: set up, build, then list the ConnectX devices
# and ports of this machine -- or, when it has none, of the bundled sample
# host (a dual-port ConnectX-5 with 4 VFs, MLNX_OFED layout).
set -e
. "$(dirname "$0")/setup.sh"
cd "$BUILD"
if [ "$(./mlxcli -j devices | jq '.devices | length')" -gt 0 ]; then
	echo "== ConnectX devices on $(hostname)"
	./mlxcli devices
	echo
	./mlxcli ports
else
	echo "== no ConnectX device on $(hostname): showing the bundled sample host (--sample)"
	./mlxcli --sample devices
	echo
	./mlxcli --sample ports
fi
