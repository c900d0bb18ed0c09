#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 29 item 2: the PCI scan of a captured system reads config space only
# inside the capture.  mlxcli(8) promises that symbolic links in a --sysroot
# DIR resolve inside DIR; libpci opened ".../0000:5e:00.0/config" itself,
# following the capture's links, so a link to a file outside (absolute, or
# with enough "../" to climb out) showed that file's device.  Each case
# plants an outside file that says "ConnectX-7" (device ID 0x1021) where
# the capture's own function is a ConnectX-5 (0x1017):
#   - config -> /abs/outside/config, and config -> ../../../../../../outside/config
#   - the function's entry in sys/bus/pci/devices -> an outside directory
#     holding such a config (absolute and "../")
# mlxcli must never show 0x1021 for 0000:5e:00.0: the link resolves inside
# the capture, where there is no such file, so the function's IDs come
# from its own sysfs vendor and device files (config_space_bytes 0).
# And a link that stays inside (absolute, as the capture's root sees it)
# is followed there: the same bytes planted inside are shown.  (Below a
# function's directory a link may not leave that directory at all.)
. "$(dirname "$0")/lib.sh"
need jq python3

BDF=0000:5e:00.0
REL=sys/devices/pci0000:5d/0000:5d:00.0/$BDF

# patched SRC DST: SRC's config space with the device ID made 0x1021
patched() {
	python3 - "$1" "$2" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[2:4] = (0x1021).to_bytes(2, 'little')
open(sys.argv[2], 'wb').write(b)
EOF
}

# shown NAME: "device_id config_space_bytes" of $BDF in capture $tmp/NAME
shown() {
	"$MLXCLI" --sysroot "$tmp/$1" -j devices 2>"$tmp/$1.err" |
		jq -r --arg b "$BDF" '.devices[] | select(.pci_address == $b) | "\(.device_id) \(.config_space_bytes)"'
}

mkdir -p "$tmp/outside/fn"
fresh cap cx5-ofed
patched "$tmp/cap/$REL/config" "$tmp/outside/config"
cp -a "$tmp/cap/$REL/." "$tmp/outside/fn/"
rm -f "$tmp/outside/fn/config"
cp "$tmp/outside/config" "$tmp/outside/fn/config"

check "the pristine capture shows its own device" "$(shown cap)" "0x1017 4096"

# config linked outside, absolute and climbing out with ../
for how in abs rel; do
	fresh "cfg-$how" cx5-ofed
	rm "$tmp/cfg-$how/$REL/config"
	if [ $how = abs ]; then
		ln -s "$tmp/outside/config" "$tmp/cfg-$how/$REL/config"
	else
		# 5 levels up is the capture's root, the sixth is outside it
		ln -s ../../../../../../outside/config "$tmp/cfg-$how/$REL/config"
	fi
	check "config linked outside ($how): not the outside file's device" "$(shown "cfg-$how")" "0x1017 0"
done

# the function's directory entry linked outside
for how in abs rel; do
	fresh "dir-$how" cx5-ofed
	rm "$tmp/dir-$how/sys/bus/pci/devices/$BDF"
	if [ $how = abs ]; then
		ln -s "$tmp/outside/fn" "$tmp/dir-$how/sys/bus/pci/devices/$BDF"
	else
		ln -s ../../../../outside/fn "$tmp/dir-$how/sys/bus/pci/devices/$BDF"
	fi
	got=$(shown "dir-$how")
	case $got in
	*0x1021*) bad "function directory linked outside ($how): shows the outside device ($got)" ;;
	*) ok "function directory linked outside ($how): the outside device is not shown (${got:-no function})" ;;
	esac
done

# A link that stays inside the capture is followed there: the function's
# entry linked with an absolute target means DIR/target.
fresh inside cx5-ofed
mkdir -p "$tmp/inside/planted"
cp -a "$tmp/outside/fn" "$tmp/inside/planted/fn"
rm "$tmp/inside/sys/bus/pci/devices/$BDF"
ln -s /planted/fn "$tmp/inside/sys/bus/pci/devices/$BDF"
check "an absolute link resolves inside the capture" "$(shown inside)" "0x1021 4096"

finish
