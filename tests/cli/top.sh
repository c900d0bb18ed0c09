#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mlxcli top` (issue 27) on the cx5-ofed sample, through a real terminal
# (tmux, 80x24, a bash of its own in the pane, with job control as a user
# has it):
#   - the title, the keys line, the header and a row per port are drawn;
#     no line is wrapped (tmux's joined capture equals the plain one), in
#     80 columns and after the window shrinks to 50 (SIGWINCH: drawn again
#     at the new width, cut, never wrapped); a key that looks like a cursor
#     position report (Ctrl-F3) changes nothing;
#   - 's' sorts by the next column (the header marks it), 'r' reverses,
#     '4' and '5' switch views; the module view's temperature is the one
#     `counters -g phy -j` reads;
#   - Ctrl-Z stops it with the terminal as it was, fg draws it again;
#   - 'q', Ctrl-C (SIGINT) and SIGTERM each end it with exit 0, the main
#     screen back (the view gone from it) and the terminal's modes as they
#     were (stty -g before and after); -n N ends it after N screens;
#   - off a terminal it refuses: exit 2, nothing on stdout, a hint to
#     `counters watch -j`.
# The sample's counters hold still, so its rates are 0 (tests/kernel/top-netns.sh
# has moving ones).  Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
need tmux bash jq
STATE=$MLXCLI_STATE_DIR
SOCK=$STATE/tmux.sock
on_exit='tmux -S "$SOCK" kill-server 2>/dev/null'

# ---- off a terminal ----
"$MLXCLI" --sample top -c 1 </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
   grep -q "^mlxcli: error: 'mlxcli top' draws on a terminal, and standard output is not one" "$tmp/err" &&
   grep -q '^mlxcli: hint: .*mlxcli counters watch -j' "$tmp/err"; then
	ok "off a terminal: exit 2 with the hint to counters watch -j"
else
	bad "off a terminal: exit $rc, stdout $(wc -c <"$tmp/out") bytes: $(cat "$tmp/err")"
fi

# ---- through a terminal ----
tmux -S "$SOCK" new-session -d -x 80 -y 24 \
	"env HOME='$tmp' TERM=xterm PS1='PROMPT\$ ' MLXCLI='$MLXCLI' \
	 MLXCLI_STATE_DIR='$STATE' MLXCLI_SAMPLES_DIR='$MLXCLI_SAMPLES_DIR' bash --norc --noprofile -i" ||
	{ bad "cannot start tmux"; finish; }
screen() { tmux -S "$SOCK" capture-pane -p 2>/dev/null; }
keys() { tmux -S "$SOCK" send-keys "$@"; }
# wait_for TEXT: until the screen shows TEXT (fixed string), at most 30 s
# (times $TEST_TIME_SCALE): a loaded machine draws later, not wrong
shows() { screen | grep -qF -- "$1"; }
wait_for() { wait_until 30 shows "$1"; }
gone_from_screen() {
	i=0
	while [ $i -lt $((300 * ${TEST_TIME_SCALE:-1})) ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
expect_screen() {   # expect_screen TEXT WHAT
	if wait_for "$1"; then ok "$2"; else bad "$2: '$1' not on the screen:"; screen | sed 's/^/    /'; fi
}
# no_wrap COLS WHAT: no line wider than COLS, and none wrapped (-J joins
# the lines a terminal wrapped: the two captures differ then)
no_wrap() {
	# (-J keeps the blanks at the ends of lines, the plain capture not)
	tmux -S "$SOCK" capture-pane -p | sed 's/ *$//' >"$tmp/plain"
	tmux -S "$SOCK" capture-pane -p -J | sed 's/ *$//' >"$tmp/joined"
	wide=$(awk -v c="$1" 'length($0) > c' "$tmp/plain" | head -1)
	if cmp -s "$tmp/plain" "$tmp/joined" && [ -z "$wide" ]; then
		ok "$2: nothing wider than $1 columns, nothing wrapped"
	else
		bad "$2: a line wrapped or wider than $1: '$wide'"
		diff "$tmp/plain" "$tmp/joined" | head -5
	fi
}
wait_for 'PROMPT$' || bad "no bash prompt in the pane"
# run ARGS: top in the pane, between two readings of the terminal's modes
run_top() {
	keys "stty -g >'$tmp/stty.before'; \"\$MLXCLI\" --sample top $*; echo \"TOP\" \"EXITED \$?\"; stty -g >'$tmp/stty.after'" Enter
}
# ended HOW: top said it exited 0, the view is off the screen, the modes back
ended() {
	if wait_for "TOP EXITED" && screen | grep -q '^TOP EXITED 0$'; then
		ok "$1: exit 0"
	else
		bad "$1: $(screen | grep 'TOP EXITED')"
	fi
	wait_for 'PROMPT$' >/dev/null
	sleep 0.2
	if screen | grep -q -e '^sort ' -e 'keys: 1-5'; then
		bad "$1: the view is still on the main screen"
	else
		ok "$1: the main screen is back"
	fi
	if [ -s "$tmp/stty.after" ] && cmp -s "$tmp/stty.before" "$tmp/stty.after"; then
		ok "$1: the terminal's modes are restored"
	else
		bad "$1: stty before '$(cat "$tmp/stty.before")' after '$(cat "$tmp/stty.after" 2>/dev/null)'"
	fi
	keys clear Enter
	gone_from_screen "TOP EXITED" || bad "the screen did not clear"
	rm -f "$tmp/stty.before" "$tmp/stty.after"
}

run_top -i 0.2
expect_screen "keys: 1-5/v view  s sort  r reverse  q quit" "the keys line"
expect_screen "*PORT           LINK      RX Gb/s  TX Gb/s  RX pkt/s  TX pkt/s   DROP/s" \
	"the traffic header, sorted by port"
for p in enp94s0f0np0 enp94s0f1np1 enp94s0f2 enp94s0f3 enp94s0f4 enp94s0f5; do
	n=$(screen | grep -c "^$p ")
	check "one row for $p" "$n" 1
done
expect_screen "enp94s0f0np0    up 100G      0.00     0.00         0         0        0" \
	"a port's row: link and the (still) sample's zero rates"
screen | grep -q '^enp94s0f1np1    down ' && ok "the second port is down" ||
	bad "the second port's link: $(screen | grep '^enp94s0f1np1')"
no_wrap 80 "80 columns"

keys s
expect_screen "sort RX Gb/s (descending)" "s: sorted by the next column"
screen | grep -q '^ PORT  .*\*RX Gb/s' && ok "s: the header marks RX Gb/s" ||
	bad "s: header $(screen | sed -n 3p)"
keys r
expect_screen "sort RX Gb/s (ascending)" "r: the other direction"
keys 4
expect_screen "view 4/5 cc" "4: the congestion view"
expect_screen "*PORT           CNPSENT/s CNPHNDL/s     ECN/s  STALLRD%  STALLWR% STALLEV/s" \
	"the congestion view's header"
keys 5
expect_screen "view 5/5 module" "5: the module view"
t=$("$MLXCLI" --sample -j counters -g phy -d enp94s0f0np0 | jq -r '.ports[0].counters.module.temperature / 1000 * 10 | round / 10')
expect_screen "enp94s0f0np0    up 100G     $t" "the module view: the temperature counters -g phy reads ($t C)"

# a narrower window: drawn again at its width, cut
tmux -S "$SOCK" resize-window -x 50 -y 24
if gone_from_screen "RXMAX dBm"; then
	ok "SIGWINCH: drawn again at 50 columns"
else
	bad "SIGWINCH: the screen still has the 80-column header"
fi
no_wrap 50 "50 columns"
tmux -S "$SOCK" resize-window -x 80 -y 24
wait_for "RXMAX dBm" || bad "not drawn again at 80 columns"
# Ctrl-F3 on an xterm sends ESC [ 1 ; 5 R, the shape of a cursor position
# report: a key must never resize the view (to 1 row of 5 columns)
keys -H 1b 5b 31 3b 35 52
sleep 1
if screen | head -1 | grep -q '^mlxcli top .* every ' && screen | sed -n 2p | grep -q '^sort .*keys: 1-5'; then
	ok "Ctrl-F3 (ESC [ 1 ; 5 R) is a key, not a size"
else
	bad "Ctrl-F3 resized the view:"; screen | sed 's/^/    /'
fi

keys q
ended "q"

# ^Z: the terminal as it was while stopped, the view again after fg (top
# alone on the line: bash goes on with a list when its job stops)
keys "stty -g >'$tmp/stty.before'; \"\$MLXCLI\" --sample top -i 0.2" Enter
expect_screen "*PORT" "drawn again"
keys C-z
if wait_for "Stopped" && ! screen | grep -q 'keys: 1-5'; then
	ok "Ctrl-Z: stopped, the main screen back"
else
	bad "Ctrl-Z: not stopped, or the view still shown:"; screen | sed 's/^/    /'
fi
keys "stty -g >'$tmp/stty.stopped'" Enter
wait_for 'PROMPT$' >/dev/null
sleep 0.3
if cmp -s "$tmp/stty.before" "$tmp/stty.stopped"; then
	ok "Ctrl-Z: the terminal's modes restored while stopped"
else
	bad "Ctrl-Z: stty before '$(cat "$tmp/stty.before")' while stopped '$(cat "$tmp/stty.stopped" 2>/dev/null)'"
fi
keys "fg; echo \"TOP\" \"EXITED \$?\"; stty -g >'$tmp/stty.after'" Enter
expect_screen "keys: 1-5/v view" "fg: the view drawn again"
keys 3
expect_screen "view 3/5 pause-tx" "fg: the keys work again"
keys q
ended "Ctrl-Z, fg, q"

run_top -i 0.2
expect_screen "*PORT" "drawn again"
keys C-c
ended "Ctrl-C"

keys "sh -c 'echo \$\$ >\"$tmp/pid\"; exec \"\$MLXCLI\" --sample top -i 0.2'; echo \"TOP\" \"EXITED \$?\"" Enter
expect_screen "*PORT" "drawn under sh"
kill -TERM "$(cat "$tmp/pid")"
if wait_for "TOP EXITED" && screen | grep -q '^TOP EXITED 0$'; then
	ok "SIGTERM: exit 0"
else
	bad "SIGTERM: $(screen | grep 'TOP EXITED')"
fi
screen | grep -q 'keys: 1-5' && bad "SIGTERM: the view is still on the main screen"
keys clear Enter
gone_from_screen "TOP EXITED" || bad "the screen did not clear"

run_top -i 0.1 -c 3
ended "-c 3"

finish
