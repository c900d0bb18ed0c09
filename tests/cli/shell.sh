#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mlxcli shell` through a real pseudo-terminal (tmux): TAB completion of a
# command word and of a DCQCN parameter name, a failing command followed
# by a working one, Ctrl-C dropping a half-typed line without ending the
# shell, the current device, history kept across two sessions.
# Then the same shell without a terminal, and batch mode (-b FILE, -b -,
# --force).  Everything runs on the cx5-ofed sample in a private state dir.
set -u
. "$(dirname "$0")/lib.sh"
STATE=$MLXCLI_STATE_DIR
SOCK=$STATE/tmux0.sock
on_exit='for s in "$STATE"/tmux*.sock; do tmux -S "$s" kill-server 2>/dev/null; done'

# ---- without a terminal: no prompt, lines read plainly ----
out=$(printf 'nosuch\ndevices\ndevice enp94s0f0np0\nqosconfig dcqcn get\n' |
	"$MLXCLI" --sample shell 2>"$STATE/err")
rc=$?
if printf '%s\n' "$out" | grep -q '^0000:5e:00.0' &&
   printf '%s\n' "$out" | grep -q 'attributes for adapter "enp94s0f0np0"' &&
   ! printf '%s\n' "$out" | grep -q 'adapter "enp94s0f1np1"' &&
   grep -q "unknown command 'nosuch'" "$STATE/err" && ! printf '%s' "$out" | grep -q 'mlxcli>' &&
   [ "$rc" = 0 ]; then
	ok "plain shell: a failure, then devices, then get on the current device; no prompt"
else
	bad "plain shell (exit $rc): $out $(cat "$STATE/err")"
fi
printf 'devices\nnosuch\n' | "$MLXCLI" --sample shell >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && ok "plain shell exits with the last command's status" || bad "plain shell exit $rc"
printf 'device nosuch0\n' | "$MLXCLI" --sample shell >/dev/null 2>"$STATE/err"
rc=$?
if [ "$rc" = 3 ] && grep -q "nosuch0" "$STATE/err"; then
	ok "device NOSUCH: exit 3 and a message"
else
	bad "device NOSUCH: exit $rc: $(cat "$STATE/err")"
fi

# mlxtool's decimal triple needs no quotes: `device` joins its words.
out=$(printf 'device 94 0 0\ndevice\nqosconfig dcqcn get\n' | "$MLXCLI" --sample shell 2>"$STATE/err")
rc=$?
if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qx '94 0 0' &&
   printf '%s\n' "$out" | grep -q 'attributes for adapter "enp94s0f0np0"' && [ ! -s "$STATE/err" ]; then
	ok "device 94 0 0 (unquoted) becomes the current device"
else
	bad "device 94 0 0 (exit $rc): $out $(cat "$STATE/err")"
fi
printf 'device 94 0 99\n' | "$MLXCLI" --sample shell >/dev/null 2>"$STATE/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "invalid PCI address '94 0 99'" "$STATE/err"; then
	ok "device 94 0 99: exit 2, the triple named in the message"
else
	bad "device 94 0 99: exit $rc: $(cat "$STATE/err")"
fi

# ---- batch mode ----
cat >"$STATE/batch" <<'EOB'
# set, then a failing line, then one that would work
qosconfig dcqcn set -d enp94s0f0np0 DcqcnRpgAiRate 7

qosconfig dcqcn set -d enp94s0f0np0 DcqcnRpgThreshold 99
qosconfig dcqcn get -d enp94s0f0np0
EOB
"$MLXCLI" --sample -b "$STATE/batch" >"$STATE/out" 2>"$STATE/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "batch:4: failed with exit status 2" "$STATE/err" &&
   grep -q 'DcqcnRpgAiRate: .* -> 7$' "$STATE/out" && ! grep -q 'attributes for adapter' "$STATE/out"; then
	ok "-b FILE stops at line 4 with its exit status"
else
	bad "-b FILE: exit $rc: $(cat "$STATE/err")"
fi
"$MLXCLI" --sample -b "$STATE/batch" --force >"$STATE/out" 2>"$STATE/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "batch:4: failed" "$STATE/err" &&
   grep -q 'DcqcnRpgAiRate: 7$' "$STATE/out"; then
	ok "-b FILE --force runs every line, exits with the first failure's status"
else
	bad "-b --force: exit $rc: $(cat "$STATE/err")"
fi
printf 'devices\n  # comment\n\nports\n' | "$MLXCLI" --sample -b - >"$STATE/out" 2>"$STATE/err"
rc=$?
if [ "$rc" = 0 ] && grep -q '^0000:5e:00.0' "$STATE/out" && grep -q '^NETDEV' "$STATE/out" &&
   [ ! -s "$STATE/err" ]; then
	ok "-b - reads stdin"
else
	bad "-b -: exit $rc: $(cat "$STATE/err")"
fi
printf 'devices\nnosuch\n' | "$MLXCLI" --sample -b - >/dev/null 2>"$STATE/err"
rc=$?
[ "$rc" = 2 ] && grep -q "stdin:2:" "$STATE/err" && ok "-b - names stdin:LINE" || bad "-b - failure: $rc"

echo '-Qosconfig -Dcqcn -Name enp94s0f0np0 -Get' >"$STATE/b2"
"$MLXCLI" --sample -b "$STATE/b2" >"$STATE/out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q 'DcqcnRpgAiRate:' "$STATE/out" && ok "-b runs Windows syntax lines" ||
	bad "-b Windows line: exit $rc: $(cat "$STATE/out")"

# ---- through a terminal ----
if ! command -v tmux >/dev/null; then
	echo "SKIP: no tmux for the terminal checks (add 'tmux' to tests/setup.sh)"
	[ $fail = 0 ] && exit 77
	finish
fi

# session: start `mlxcli --sample shell` in a detached tmux window (a tmux
# server of its own each time).
nsess=0
session() {
	tmux -S "$SOCK" kill-server 2>/dev/null
	nsess=$((nsess + 1))
	SOCK=$STATE/tmux$nsess.sock
	tmux -S "$SOCK" new-session -d -x 150 -y 60 \
		"env MLXCLI_STATE_DIR='$STATE' MLXCLI_SAMPLES_DIR='$MLXCLI_SAMPLES_DIR' TERM=xterm \
		 '$MLXCLI' --sample shell; echo \"SHELL EXITED \$?\"; sleep 60"
}
screen() { tmux -S "$SOCK" capture-pane -p -S -100 2>/dev/null; }
keys() { tmux -S "$SOCK" send-keys "$@"; }
# wait_for TEXT: until the screen shows TEXT (fixed string), at most 30 s
# (times $TEST_TIME_SCALE): a loaded machine draws later, not wrong (issue 30)
shows() { screen | grep -qF -- "$1"; }
wait_for() { wait_until 30 shows "$1"; }
on_screen() {   # on_screen TEXT WHAT
	if wait_for "$1"; then ok "$2"; else bad "$2: '$1' not on the screen"; screen | tail -15; fi
}

session
on_screen "mlxcli>" "the prompt"
# (capture-pane drops trailing blanks: patterns end without them)
keys "qosc" Tab
on_screen "mlxcli> qosconfig" "TAB completes a command word"
keys "dcqcn describe DcqcnRpgAi" Tab
on_screen "describe DcqcnRpgAiRate" "TAB completes a DCQCN parameter name"
keys Enter
on_screen "rate step of the additive increase phase" "the completed line runs"
keys "nosuch" Enter
on_screen "unknown command 'nosuch'" "a failing command prints its error"
keys "devices" Enter
on_screen "0000:5e:00.5" "and the shell goes on"
keys "qosconfig dcq"
on_screen "mlxcli> qosconfig dcq" "a half-typed line"
keys C-c
on_screen "mlxcli> qosconfig dcq^C" "Ctrl-C drops it"
keys C-c
wait_for "mlxcli> ^C" && ok "Ctrl-C at an empty prompt" || bad "no new prompt after Ctrl-C"
screen | grep -q "SHELL EXITED" && bad "Ctrl-C ended the shell"
keys "device enp94s0f0np0" Enter
on_screen "mlxcli enp94s0f0np0>" "device DEV becomes the current device"
keys "qosconfig dcqcn get" Enter
on_screen 'attributes for adapter "enp94s0f0np0"' "commands use the current device"
keys "exit" Enter
on_screen "SHELL EXITED 0" "exit leaves the shell"
if grep -q nosuch "$STATE/history" 2>/dev/null; then
	ok "history saved in \$MLXCLI_STATE_DIR/history"
else
	bad "no history in $STATE/history"
fi

session
on_screen "mlxcli>" "a second session"
keys Up Up
on_screen "mlxcli> qosconfig dcqcn get" "history from the first session (Up, Up)"
keys C-u "help" Enter
on_screen "device [DEV]" "help lists the shell commands too"
keys C-d
on_screen "SHELL EXITED" "end of input leaves the shell"

finish
