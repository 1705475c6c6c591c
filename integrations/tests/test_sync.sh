#!/usr/bin/env bash
# Two machines, one history (DESIGN §10), with two real Syncthing instances on
# 127.0.0.1 (global and local discovery, relays, NAT and usage reports off; each
# with its own home, GUI/API and listen port; each knows the other from its
# config.xml) sharing one folder, and two dosebar homes (two databases):
# A's medicine and A's take appear on B's bar through B's daemon, and B's take
# reaches A with `sync now`; the same slot taken on both at once is a double dose, both takes kept;
# a device paused (REST API), both sides changed, resumed: both converge.
set -u
. "$(dirname "$0")/lib.sh"

require sync syncthing jq python3 curl perl
if [ -z "$DOSEBAR_BIN" ]; then
    result SKIP sync "no dosebar binary (set DOSEBAR or build it)"; finish
fi
new_work sync

# Two free TCP ports per instance: GUI/API and sync protocol; and one nobody listens on.
read -r GUI_A LISTEN_A GUI_B LISTEN_B CLOSED < <(python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
EOF
)
KEY=dosebar-it-$RANDOM$RANDOM
for side in a b; do
    mkdir -p "$WORK/$side/Sync/.stfolder"
    syncthing generate --home="$WORK/$side/st" --no-default-folder >"$WORK/$side/generate.log" 2>&1 ||
        { result FAIL sync-generate "syncthing generate failed: $(tail -n 2 "$WORK/$side/generate.log")"; finish; }
done
ID_A=$(syncthing serve --home="$WORK/a/st" --device-id 2>/dev/null)
ID_B=$(syncthing serve --home="$WORK/b/st" --device-id 2>/dev/null)

# configure HOME SELF_ID SELF_LISTEN GUI OTHER_ID OTHER_LISTEN FOLDER
configure() {
    python3 - "$@" "$KEY" <<'EOF'
import sys, xml.etree.ElementTree as ET
home, me, listen, gui, other, other_listen, folder, key = sys.argv[1:]
path = home + "/config.xml"
tree = ET.parse(path); root = tree.getroot()
for f in root.findall("folder"): root.remove(f)
for d in root.findall("device"):
    if d.get("id") != me: root.remove(d)
g = root.find("gui"); g.set("tls", "false")
g.find("address").text = "127.0.0.1:" + gui
(g.find("apikey") if g.find("apikey") is not None else ET.SubElement(g, "apikey")).text = key
o = root.find("options")
def opt(name, value):
    e = o.find(name)
    if e is None: e = ET.SubElement(o, name)
    e.text = value
for e in o.findall("listenAddress"): o.remove(e)
ET.SubElement(o, "listenAddress").text = "tcp://127.0.0.1:" + listen
for name, value in [("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"), ("relaysEnabled", "false"),
                    ("natEnabled", "false"), ("urAccepted", "-1"), ("autoUpgradeIntervalH", "0"),
                    ("crashReportingEnabled", "false"), ("startBrowser", "false")]:
    opt(name, value)
d = ET.SubElement(root, "device", id=other, name="other", compression="metadata", introducer="false")
ET.SubElement(d, "address").text = "tcp://127.0.0.1:" + other_listen
f = ET.Element("folder", id="dosebar-it", label="dosebar", path=folder, type="sendreceive",
               rescanIntervalS="3600", fsWatcherEnabled="true", fsWatcherDelayS="1")
ET.SubElement(f, "device", id=me); ET.SubElement(f, "device", id=other)
root.insert(0, f)
tree.write(path)
EOF
}
configure "$WORK/a/st" "$ID_A" "$LISTEN_A" "$GUI_A" "$ID_B" "$LISTEN_B" "$WORK/a/Sync" &&
configure "$WORK/b/st" "$ID_B" "$LISTEN_B" "$GUI_B" "$ID_A" "$LISTEN_A" "$WORK/b/Sync" ||
    { result FAIL sync-config "could not write the Syncthing configs"; finish; }

# The dosebar homes: fixed clock and zone, their own databases and shared directories.
dose_on() { # dose_on a|b ARGS...: dosebar for home A or B
    local side=$1; shift
    env -i PATH=/usr/bin:/bin HOME="$WORK/$side" LANG=C.UTF-8 TZ=Asia/Seoul \
        DOSEBAR_NOW="${NOW:-2026-11-22T07:00:00+09:00}" DOSEBAR_DB="$WORK/$side/db.sqlite" \
        DOSEBAR_DIR="$WORK/$side/shared" XDG_CONFIG_HOME="$WORK/$side/config" ${STHOMEDIR:+STHOMEDIR=$STHOMEDIR} \
        "$DOSEBAR_BIN" "$@"
}
dose_on a add Aspirin --at 08:00,20:00 --stock 30 --from 2026-11-01 >/dev/null &&
dose_on a add Magnesium --at 21:00 --from 2026-11-01 >/dev/null &&
dose_on a sync init "$WORK/a/Sync" >/dev/null && dose_on b sync init "$WORK/b/Sync" >/dev/null ||
    { result FAIL sync-init "dosebar add / sync init failed"; finish; }
result PASS sync-init "both homes initialised"

STNODEFAULTFOLDER=1 syncthing serve --home="$WORK/a/st" --no-browser --no-restart --no-upgrade \
    --logfile="$WORK/a/syncthing.log" >/dev/null 2>&1 &
CLEANUP_PIDS+=($!)
STNODEFAULTFOLDER=1 syncthing serve --home="$WORK/b/st" --no-browser --no-restart --no-upgrade \
    --logfile="$WORK/b/syncthing.log" >/dev/null 2>&1 &
CLEANUP_PIDS+=($!)

# Connected, and both APIs up (a connection can come before the other side's GUI listens).
connected() { curl -fsS -H "X-API-Key: $KEY" "http://127.0.0.1:$GUI_B/rest/system/connections" 2>/dev/null |
    jq -e --arg id "$ID_A" '.connections[$id].connected == true' >/dev/null &&
    curl -fsS -H "X-API-Key: $KEY" "http://127.0.0.1:$GUI_A/rest/system/ping" >/dev/null 2>&1; }
if wait_for 60 connected; then result PASS sync-connected "the two Syncthing instances see each other on 127.0.0.1"
else result FAIL sync-connected "B never connected to A: $(tail -n 3 "$WORK/b/syncthing.log" | tr '\n' ' ')"; finish; fi

# doctor: Syncthing runs and its API answers; then a config whose API port nobody listens on.
doctor_a=$(STHOMEDIR=$WORK/a/st dose_on a doctor 2>&1)
case $doctor_a in
    *"ok    syncing through $WORK/a/Sync"*) result PASS sync-doctor "doctor sees Syncthing running and answering" ;;
    *) result FAIL sync-doctor "doctor: $doctor_a" ;;
esac
mkdir -p "$WORK/silent" && printf '<configuration><gui tls="false"><address>127.0.0.1:%s</address></gui></configuration>\n' \
    "$CLOSED" >"$WORK/silent/config.xml"
doctor_silent=$(STHOMEDIR=$WORK/silent dose_on a doctor 2>&1)
case $doctor_silent in
    *"FIX   sync is set up"*"does not answer"*) result PASS sync-doctor-silent "doctor says the API does not answer" ;;
    *) result FAIL sync-doctor-silent "doctor: $doctor_silent" ;;
esac

# B's daemon applies what arrives and rewrites B's bar.
NOW=2026-11-22T08:05:00+09:00 dose_on b daemon >"$WORK/b/daemon.log" 2>&1 &
CLEANUP_PIDS+=($!)
wait_for 5 grep -q "daemon: pid" "$WORK/b/daemon.log" ||
    { result FAIL sync-daemon "B's daemon did not start: $(tail -n 2 "$WORK/b/daemon.log")"; finish; }
# $! is the subshell that runs dose_on; the daemon, its child, says its pid (it outlived the test before).
CLEANUP_PIDS+=($(sed -n 's/.*daemon: pid \([0-9]*\),.*/\1/p' "$WORK/b/daemon.log" | head -n 1))
status_on_b() { jq -r --arg n "$1" '[.doses[] | select(.medication == $n) | .status] | first // empty' \
    "$WORK/b/shared/snapshot.json" 2>/dev/null; }
aspirin_on_b() { [ -n "$(status_on_b Aspirin)" ]; }
aspirin_taken_on_b() { [ "$(status_on_b Aspirin)" = taken ]; }
if wait_for 60 aspirin_on_b; then
    result PASS sync-medicine "A's Aspirin is on B's bar ($(status_on_b Aspirin))"
else
    result FAIL sync-medicine "A's medicines never reached B: $(tail -n 3 "$WORK/b/daemon.log" | tr '\n' ' ')"
fi

NOW=2026-11-22T08:05:00+09:00 dose_on a take Aspirin >/dev/null
if wait_for 60 aspirin_taken_on_b; then
    result PASS sync-take "a take on A appears on B's bar"
else
    result FAIL sync-take "B's bar shows Aspirin '$(status_on_b Aspirin)', not taken"
fi

# Back: B refills Aspirin, and A sees the stock with `sync now`.
NOW=2026-11-22T08:06:00+09:00 dose_on b refill Aspirin 10 >/dev/null
stock_on_a() { NOW=2026-11-22T08:07:00+09:00 dose_on a sync now >/dev/null 2>&1
    dose_on a list --json | jq -r '.[] | select(.name == "Aspirin") | .stock'; }
stock_39_on_a() { [ "$(stock_on_a)" = 39 ]; }
if wait_for 60 stock_39_on_a; then
    result PASS sync-back "B's refill reaches A (30 - 1 + 10 = 39)"
else
    result FAIL sync-back "A's Aspirin stock is $(stock_on_a), not 39"
fi
# The same slot taken on both at once (before either file reached the other): a double dose (both
# takes kept, stock counted twice: DESIGN §10), shown taken at the earlier time (A's 20:01) on both;
# history counts the second take.
NOW=2026-11-22T20:01:00+09:00 dose_on a take Aspirin >/dev/null & take_a=$!
NOW=2026-11-22T20:02:00+09:00 dose_on b take Aspirin >/dev/null & take_b=$!
wait "$take_a" "$take_b"
evening() { # evening a|b: the 20:00 Aspirin's taken_at and the day's duplicates, after a sync now
    NOW=2026-11-22T20:10:00+09:00 dose_on "$1" sync now >/dev/null 2>&1
    printf '%s %s' "$(NOW=2026-11-22T20:10:00+09:00 dose_on "$1" today --json |
        jq -r '[.doses[] | select(.medication == "Aspirin" and (.scheduled | test("T20:00"))) | .taken_at] | first // empty')" \
        "$(NOW=2026-11-22T20:10:00+09:00 dose_on "$1" history --json --from 2026-11-22 --to 2026-11-22 | jq -r '.[0].duplicates // 0')"
}
once_on_both() { [ "$(evening a)" = "2026-11-22T20:01:00+09:00 1" ] && [ "$(evening b)" = "2026-11-22T20:01:00+09:00 1" ]; }
if wait_for 30 once_on_both; then
    result PASS sync-same-slot "a slot taken on both at once shows the earlier time on both, and the second take is counted"
else
    result FAIL sync-same-slot "A: '$(evening a)', B: '$(evening b)' (want '2026-11-22T20:01:00+09:00 1' on both)"
fi

# A pauses B (Syncthing's REST API); both change meanwhile; resumed, both converge.
api_a() { curl -fsS -X POST -H "X-API-Key: $KEY" "http://127.0.0.1:$GUI_A/rest/system/$1?device=$ID_B" >/dev/null; }
b_paused_for_a() { curl -fsS -H "X-API-Key: $KEY" "http://127.0.0.1:$GUI_B/rest/system/connections" 2>/dev/null |
    jq -e --arg id "$ID_A" '.connections[$id].connected == false' >/dev/null; }
if api_a pause && wait_for 20 b_paused_for_a; then
    NOW=2026-11-22T21:05:00+09:00 dose_on a skip Magnesium >/dev/null
    NOW=2026-11-22T21:06:00+09:00 dose_on b refill Aspirin 5 >/dev/null
    sleep 2
    apart() { NOW=2026-11-22T21:10:00+09:00 dose_on b sync now >/dev/null 2>&1
        NOW=2026-11-22T21:10:00+09:00 dose_on b today --json |
            jq -e '[.doses[] | select(.medication == "Magnesium") | .status] == ["skipped"]' >/dev/null; }
    if apart; then result FAIL sync-paused "A's skip reached B while B was paused"
    else result PASS sync-paused "while paused, A's skip stays on A"; fi
    api_a resume
    view() { # view a|b: today --json without local ids, after a sync now
        NOW=2026-11-22T21:10:00+09:00 dose_on "$1" sync now >/dev/null 2>&1
        NOW=2026-11-22T21:10:00+09:00 dose_on "$1" today --json |
            jq -cS 'walk(if type == "object" then with_entries(select(.key != "id" and (.key | endswith("_id") | not))) else . end)'
    }
    converged() { local va vb; va=$(view a); vb=$(view b)
        [ -n "$va" ] && [ "$va" = "$vb" ] &&
        echo "$va" | jq -e '[.doses[] | select(.medication == "Magnesium") | .status] == ["skipped"]' >/dev/null &&
        [ "$(dose_on a list --json | jq -r '.[] | select(.name == "Aspirin") | .stock')" = 42 ] &&
        [ "$(dose_on b list --json | jq -r '.[] | select(.name == "Aspirin") | .stock')" = 42 ]; }
    if wait_for 40 converged; then
        result PASS sync-resumed "resumed: A's skip on B, B's refill on A (39 - 2 + 5 = 42: the 20:00 dose taken on both is two doses), the same today on both"
    else
        view a > "$WORK/view-a.json"; view b > "$WORK/view-b.json"
        result FAIL sync-resumed "not converged: stock $(dose_on a list --json | jq -r '.[] | select(.name == "Aspirin") | .stock') on A, $(dose_on b list --json | jq -r '.[] | select(.name == "Aspirin") | .stock') on B; $(diff <(jq . "$WORK/view-a.json") <(jq . "$WORK/view-b.json") | head -c 600 | tr '\n' ' ')"
    fi
else
    result FAIL sync-paused "could not pause B on A through the REST API"
fi

status_a=$(dose_on a sync status)
case $status_a in
    *"(this device)"*"operations applied"*) result PASS sync-status "$(echo "$status_a" | tail -n 1)" ;;
    *) result FAIL sync-status "unexpected: $status_a" ;;
esac
finish
