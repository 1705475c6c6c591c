#!/usr/bin/env bash
# systemd user unit: what the unit says (systemd-analyze --user verify, with a
# home that has ~/.local/bin/dosebar), and that the daemon keeps the promise of
# Type=notify: READY=1 on $NOTIFY_SOCKET once the shared directory is written,
# reload on SIGHUP (ExecReload), a clean exit on SIGTERM.
set -u
. "$(dirname "$0")/lib.sh"

unit=$INTEGRATIONS_DIR/systemd/dosebar.service
new_work systemd

# --- the unit's text: the contract of DESIGN §6 / issue 4
value() { sed -n "s/^$1=//p" "$unit"; }
problems=""
[ "$(value Type)" = notify ] || problems="$problems Type=$(value Type);"
[ "$(value ExecStart)" = '%h/.local/bin/dosebar daemon' ] || problems="$problems ExecStart=$(value ExecStart);"
[ "$(value WantedBy)" = default.target ] || problems="$problems WantedBy=$(value WantedBy);"
grep -q '^RuntimeDirectory' "$unit" && problems="$problems has RuntimeDirectory=;"
if [ -z "$problems" ]; then
    result PASS systemd-unit "Type=notify, ExecStart=%h/.local/bin/dosebar daemon, WantedBy=default.target, no RuntimeDirectory="
else
    result FAIL systemd-unit "$problems"
fi

if command -v systemd-analyze >/dev/null; then
    home=$WORK/vhome; mkdir -p "$home/.local/bin" && mkdir -m 700 "$WORK/vrt"
    printf '#!/bin/sh\n' >"$home/.local/bin/dosebar"; chmod +x "$home/.local/bin/dosebar"
    out=$(HOME=$home XDG_RUNTIME_DIR=$WORK/vrt systemd-analyze --user verify "$unit" 2>&1); rc=$?
    if [ $rc = 0 ] && [ -z "$out" ]; then
        result PASS systemd-verify "systemd-analyze --user verify: no complaint"
    else
        result FAIL systemd-verify "systemd-analyze --user verify (exit $rc): $out"
    fi
else
    result SKIP systemd-verify "systemd-analyze is not installed (apt-get install systemd)"
fi

# --- the daemon under the unit's Type=notify
py=$(command -v python3 || true)
scenario_setup || { result FAIL systemd-scenario "could not build the scenario"; finish; }
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP systemd-notify "no working dosebar binary to run as the unit's daemon"; finish
fi
if [ -z "$py" ]; then
    result SKIP systemd-notify "python3 is not installed (it plays systemd's notify socket)"; finish
fi
sock=$WORK/notify.sock
"$py" -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); s.settimeout(20)
print("listening", flush=True)
try:
    while True:
        print(s.recv(4096).decode(errors="replace").replace("\n", " | "), flush=True)
except socket.timeout:
    pass
' "$sock" >"$WORK/notify.log" 2>&1 &
CLEANUP_PIDS+=($!)
wait_for 5 test -S "$sock" || { result FAIL systemd-notify "could not bind the notify socket"; finish; }

rm -rf "$SHARED" # the daemon writes it before it says READY=1
dose_argv
NOTIFY_SOCKET=$sock "${DOSE_ARGV[@]}" daemon >"$WORK/daemon.log" 2>&1 &
dpid=$!
CLEANUP_PIDS+=($dpid)
if wait_for 10 grep -q 'READY=1' "$WORK/notify.log"; then
    if [ -s "$SHARED/timeline.json" ] && [ -s "$SHARED/waybar.json" ]; then
        result PASS systemd-notify "READY=1 after the shared directory was written: $(grep -m1 READY=1 "$WORK/notify.log")"
    else
        result FAIL systemd-notify "READY=1 came before the shared directory was written"
    fi
else
    result FAIL systemd-notify "no READY=1 on NOTIFY_SOCKET within 10 s (systemd would kill the service): $(cat "$WORK/notify.log" "$WORK/daemon.log" | tr '\n' ' ')"
fi

kill -HUP "$dpid"; sleep 0.5
if kill -0 "$dpid" 2>/dev/null; then result PASS systemd-reload "ExecReload's SIGHUP: the daemon stays up"
else result FAIL systemd-reload "the daemon died on SIGHUP: $(tail -n 3 "$WORK/daemon.log" | tr '\n' ' ')"; fi

kill -TERM "$dpid"
if wait_for 5 bash -c "! kill -0 $dpid 2>/dev/null"; then
    wait "$dpid"; rc=$?
    if [ $rc = 0 ]; then result PASS systemd-stop "SIGTERM: clean exit (status 0)"
    else result FAIL systemd-stop "SIGTERM: exit status $rc (systemd counts it a failure)"; fi
else
    result FAIL systemd-stop "the daemon is still running 5 s after SIGTERM"
fi
cp "$WORK/notify.log" "$ARTIFACTS/systemd-notify.log"; cp "$WORK/daemon.log" "$ARTIFACTS/systemd-daemon.log"
finish
