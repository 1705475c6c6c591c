#!/usr/bin/env bash
# dunst and `dosebar daemon --notify` (which sends with notify-send): dunst on a
# bare session bus of the test's own (fixtures/session-bus.conf) and an Xvfb
# display, a dunst rule that logs every notification that arrives (summary,
# body, urgency), the daemon started at the scenario's 09:30. The Swift suite
# (DaemonNotifyTests) drives the actions, restarts and the missed notice on
# Debian 12's dunst; this is the same server and client pair of whichever
# Debian runs it (dunst 1.9 / 1.12, libnotify 0.8.1 / 0.8.6).
#
# Expected, from the scenario (lib.sh) and the English catalog
# (Sources/DoseCore/Catalog.swift: notify.due "Time for {names}", notify.due_body
# "{time} · {doses}", notify.late "{names} {count_is} late", notify.late_body
# "Due at {time}, {late} ago · {doses}"; a late alert is critical, a due one
# normal): at 09:30 Magnesium (09:00) is due and Levothyroxine (06:00, 50 µg)
# late by 3h 30m, Omega-3 taken, Ferrous & C #2 to come; so two notifications,
# nothing for the others. Stopping the daemon closes both (DESIGN §10: no
# notification outlives the daemon that sent it).
set -u
. "$(dirname "$0")/lib.sh"

require dunst dunst dunstctl notify-send dbus-daemon xvfb-run xauth
new_work dunst
scenario_setup || { result FAIL dunst-scenario "could not build the scenario"; finish; }
[ "$SCENARIO_SOURCE" = binary ] || { result SKIP dunst "needs the real dosebar binary (set DOSEBAR)"; finish; }

# The session bus: nothing is started on demand, so what owns the notification name is our dunst.
{ read -r bus_address; read -r bus_pid; } < <(dbus-daemon --config-file="$FIXTURES_DIR/session-bus.conf" \
    --fork --print-address=1 --print-pid=1)
[ -n "${bus_pid:-}" ] || { result FAIL dunst-bus "dbus-daemon did not start a session bus"; finish; }
CLEANUP_PIDS+=("$bus_pid")
export DBUS_SESSION_BUS_ADDRESS=$bus_address

cat >"$WORK/log.sh" <<EOF
#!/bin/sh
printf '%s|%s|%s\n' "\$2" "\$3" "\$5" >>"$WORK/arrived.log"
EOF
chmod +x "$WORK/log.sh"; : >"$WORK/arrived.log"
printf '[global]\n[dosebar-log]\nappname = dosebar\nscript = %s\n' "$WORK/log.sh" >"$WORK/dunstrc"
# The shell in between writes dunst's own pid; xvfb-run ends its Xvfb when dunst ends.
xvfb-run -a -n "$(free_display)" sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/dunst.pid" \
    dunst -config "$WORK/dunstrc" >"$WORK/dunst.log" 2>&1 &
xvfb_pid=$!
owner() { dunstctl count displayed >/dev/null 2>&1; }
if ! wait_for 10 test -s "$WORK/dunst.pid" || ! wait_for 10 owner; then
    kill "$xvfb_pid" 2>/dev/null
    result FAIL dunst-start "dunst did not take the notification service: $(tail -n 3 "$WORK/dunst.log" | tr '\n' ' ')"; finish
fi
CLEANUP_PIDS+=("$(cat "$WORK/dunst.pid")")
result PASS dunst-start "$(dunst -v 2>&1 | head -n1) on the session bus"

dose_argv
"${DOSE_ARGV[@]}" daemon --notify >"$WORK/daemon.log" 2>&1 &
daemon_pid=$!
CLEANUP_PIDS+=("$daemon_pid")
want=$(printf '%s\n' "Time for Magnesium|09:00 · Magnesium|NORMAL" \
    "Levothyroxine is late|Due at 06:00, 3h 30m ago · Levothyroxine 50 µg|CRITICAL" | sort)
arrived() { [ "$(wc -l <"$WORK/arrived.log")" -ge 2 ]; }
wait_for 10 arrived; sleep 0.5 # and no third one
got=$(sort "$WORK/arrived.log")
if [ "$got" = "$want" ]; then
    result PASS dunst-notified "two notifications at 09:30: $(tr '\n' ';' <<<"$got")"
else
    result FAIL dunst-notified "arrived: '$(tr '\n' ';' <<<"$got")', want '$(tr '\n' ';' <<<"$want")' (daemon: $(tail -n 3 "$WORK/daemon.log" | tr '\n' ' '))"
fi
shown=$(dunstctl count displayed 2>&1)
kill -TERM "$daemon_pid"; wait "$daemon_pid"; rc=$?
closed() { [ "$(dunstctl count displayed 2>/dev/null)" = 0 ]; }
if [ "$shown" = 2 ] && [ $rc = 0 ] && wait_for 5 closed; then
    result PASS dunst-closed "2 shown; the daemon stopped (exit 0) and closed both"
else
    result FAIL dunst-closed "shown $shown; daemon exit $rc; displayed after it stopped: $(dunstctl count displayed 2>&1)"
fi
cp "$WORK/arrived.log" "$ARTIFACTS/dunst-arrived.log"; cp "$WORK/dunst.log" "$ARTIFACTS/dunst.log"
finish
