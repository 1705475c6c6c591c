#!/usr/bin/env bash
# report: the doctor's HTML report (DESIGN §3 Reports) opened in a real browser.
# Six weeks of doses are logged with the real CLI (back-dated `take --at` and
# `skip --at`, Asia/Seoul, seen on Sun 2026-11-22 at 21:30); `dosebar report
# --format html` writes the page in English and in Korean; Debian's headless
# Chromium takes a screenshot and prints it to PDF, and poppler turns the PDF
# into text and PNG pages. Checked: the file is private; the page fetches
# nothing (Chromium's net log, with a page that does fetch as the control);
# the PDF is A4, of a sane number of pages, none blank, the calendar's colours
# printed; the words and the hostile name "Ferrous <b>&"' #2" came out as text;
# each medicine's figures are those `dosebar stats` gives for the same days,
# each day of the calendar in the state `dosebar history` gives it;
# the Korean page shows real Hangul glyphs, not tofu (a render without CJK
# fonts as the control).
#
# Self-test (DOSEBAR_IT_MUTATE=1, lib.sh): the pages are rewritten wrong before
# the browser sees them (Letter instead of A4, the name unescaped, each
# adherence one point off, a day in the wrong state, the CSP dropped and an
# image fetched from the network); report-self-contained, report-LANG-offline,
# report-LANG-pdf, report-LANG-escaped, report-figures and report-days must
# then FAIL.
#
# Artifacts: report-{en,ko}.html, .png (screenshot), .pdf, -page-N.png.
# UPDATE_SCREENSHOTS=1 also copies the English screenshot and its first PDF
# page to integrations/screenshots/report-en.png and report-page1.png.
set -u
. "$(dirname "$0")/lib.sh"

# --- What the test needs
missing=()
command -v chromium >/dev/null || missing+=("chromium (apt-get install chromium)")
for tool in pdfinfo pdftoppm pdftotext; do
    command -v $tool >/dev/null || { missing+=("$tool (apt-get install poppler-utils)"); break; }
done
[ -x /usr/bin/convert ] && [ -x /usr/bin/compare ] || missing+=("ImageMagick (apt-get install imagemagick)")
command -v jq >/dev/null || missing+=("jq")
command -v python3 >/dev/null || missing+=("python3")
[ -n "$(fc-list :lang=ko family 2>/dev/null)" ] || missing+=("a Korean font (apt-get install fonts-noto-cjk)")
if [ ${#missing[@]} -gt 0 ]; then
    result SKIP report "missing: ${missing[*]}"; finish
fi
if [ -z "$DOSEBAR_BIN" ]; then
    result SKIP report "no dosebar binary (build it or set DOSEBAR)"; finish
fi
if ! "$DOSEBAR_BIN" report --help >/dev/null 2>&1; then
    result SKIP report "$DOSEBAR_BIN has no 'report' subcommand"; finish
fi
new_work report
CONVERT=/usr/bin/convert   # the real ImageMagick, whatever stands in for it on PATH

# --- Six weeks of doses, logged as a person would (2026-10-12 .. 2026-11-22)
NOW=2026-11-22T21:30:00+09:00
FERROUS='Ferrous <b>&"'"'"' #2'
db() {
    env DOSEBAR_DB="$WORK/dosebar.sqlite" DOSEBAR_DIR="$WORK/shared" TZ=Asia/Seoul DOSEBAR_NOW="$NOW" \
        HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share" \
        XDG_STATE_HOME="$WORK/home/.local/state" LANG=C.UTF-8 NO_COLOR=1 "$DOSEBAR_BIN" "$@"
}
hm() { printf '%02d:%02d' $(( $1 / 60 )) $(( $1 % 60 )); }
# pattern_dose NAME HH:MM DAY D S: that slot on DAY (the D-th day, S-th slot of the day) is, by a fixed
# pattern, taken on time (-10..+20 min), late (+150..+210 min), early (-150 min), skipped or
# missed; 2026-10-30 everything is missed, 2026-11-11 everything skipped.
pattern_dose() {
    local name=$1 slot=$2 day=$3 d=$4 s=$5 t r off
    t=$(( 10#${slot%:*} * 60 + 10#${slot#*:} ))
    r=$(( (d * 5 + s * 3) % 17 ))
    [ "$day" = 2026-10-30 ] && return 0
    [ "$day" = 2026-11-11 ] && r=14
    if [ $r -le 10 ]; then off=$(( (d * 7 + s * 11) % 31 - 10 ))
    elif [ $r -le 12 ]; then off=$(( 150 + (d % 4) * 20 ))
    elif [ $r -eq 13 ]; then off=-150
    elif [ $r -eq 14 ]; then db skip "$name" --slot "$day $slot" --at "${day}T$slot" >/dev/null; return
    else return 0; fi
    [ $(( t + off )) -gt 1430 ] && off=$(( 1430 - t ))
    # --slot names the dose: 150 minutes early is outside its window, where --at alone finds none.
    db take "$name" --slot "$day $slot" --at "${day}T$(hm $(( t + off )))" >/dev/null
}
fill_demo() {
    # Added on the first morning (dosebar tracks a medicine from when it is added: DESIGN §3).
    local NOW=2026-10-12T05:00:00+09:00
    db add Metformin --at 08:00,20:00 --dose "500 mg" --from 2026-10-12 &&
    db add Levothyroxine --at 06:30 --dose "50 µg" --from 2026-10-12 &&
    db add "Vitamin D" --days mon,thu --at 09:00 --dose "1000 IU" --from 2026-10-12 &&
    db add "$FERROUS" --at 21:00 --from 2026-10-12 &&
    db add Amoxicillin --at 08:00,14:00,20:00 --dose "250 mg" --from 2026-10-19 --until 2026-10-25 &&
    db add Ibuprofen --as-needed --max-per-day 3 --dose "200 mg" --from 2026-10-12 || return 1
    NOW=2026-11-22T21:30:00+09:00
    local d day dow
    for d in $(seq 0 41); do
        day=$(date -u -d "2026-10-12 + $d days" +%F); dow=$(date -u -d "$day" +%u)
        pattern_dose Levothyroxine 06:30 "$day" $d 0 && pattern_dose Metformin 08:00 "$day" $d 1 || return 1
        if [ "$dow" = 1 ] || [ "$dow" = 4 ]; then pattern_dose "Vitamin D" 09:00 "$day" $d 2 || return 1; fi
        if [[ $day > 2026-10-18 && $day < 2026-10-26 ]]; then
            pattern_dose Amoxicillin 08:00 "$day" $d 3 && pattern_dose Amoxicillin 14:00 "$day" $d 4 &&
                pattern_dose Amoxicillin 20:00 "$day" $d 5 || return 1
        fi
        if [ $(( d % 9 )) = 2 ]; then db take Ibuprofen --at "${day}T13:15" >/dev/null || return 1; fi
        [ $d = 41 ] && break   # today, 21:30: the evening doses are still open
        pattern_dose Metformin 20:00 "$day" $d 6 || return 1
        # A bad week for the iron (2026-11-02 .. 08): nothing logged.
        if [[ $day < 2026-11-02 || $day > 2026-11-08 ]]; then pattern_dose "$FERROUS" 21:00 "$day" $d 7 || return 1; fi
    done
}
if ! fill_demo >"$WORK/fill.log" 2>&1; then
    result FAIL report-demo "could not log the demo doses: $(tail -n 3 "$WORK/fill.log" | tr '\n' ' ')"; finish
fi
result PASS report-demo "6 medicines, 6 weeks of back-dated takes and skips"

# --- The pages
FROM=2026-10-01 TO=2026-11-22
for lang in en ko; do
    if ! db report --lang $lang --from $FROM --to $TO --format html --output "$WORK/report-$lang.html" 2>"$WORK/report-$lang.err"; then
        result FAIL report-$lang-write "dosebar report failed: $(head -c 300 "$WORK/report-$lang.err")"; finish
    fi
    if [ "$MUTATE" = 1 ]; then
        perl -CSD -0777 -i -pe '
            s/size: A4/size: Letter/;
            s/Ferrous &lt;b&gt;&amp;&quot;&#39; #2/Ferrous <b>&"\x27 #2/g;
            s/(<td class="num f-adherence">)(\d+)%/$1 . ($2 == 100 ? 99 : $2 + 1) . "%"/ge;
            s/<meta http-equiv="Content-Security-Policy"[^>]*>//;
            s/<body>/<body><img src="http:\/\/leak.invalid\/mutated.png" alt="">/;
            s/<td class="day s-done" data-day/<td class="day s-partial" data-day/;' "$WORK/report-$lang.html"
    fi
    cp "$WORK/report-$lang.html" "$ARTIFACTS/report-$lang.html"
done
mode=$(stat -c %a "$WORK/report-en.html")
if [ "$mode" = 600 ]; then result PASS report-private "mode 0600"
else result FAIL report-private "the report is mode $mode, not 0600 (DESIGN §9)"; fi
# Nothing that could reach out, in the source: no script, URL, link, image, frame or imported font.
found=$(grep -o -i -E '<script|https?:|//|url\(|@import|@font-face|<link|<img|<iframe|<object|<embed| src=| href=' \
    "$WORK/report-en.html" "$WORK/report-ko.html" | sort | uniq -c | tr '\n' ' ')
if [ -z "$found" ]; then result PASS report-self-contained "no script, URL, link, image or font in either page"
else result FAIL report-self-contained "found: $found"; fi

# --- Chromium, headless, with no network: DNS answers nothing, and the net log records what the page asked for.
chrome() { # chrome OUT-LOG ARGS... URL
    local log=$1; shift
    timeout -k 5 90 chromium --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
        --user-data-dir="$WORK/chrome" --disable-background-networking --disable-component-update --disable-sync \
        --host-resolver-rules="MAP * ~NOTFOUND" "$@" >"$log" 2>&1
}
# page_requests NETLOG: the network requests the page made (initiated from the file:// page), one URL a line.
page_requests() {
    python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
try:
    log = json.loads(text)
except ValueError:                      # a log cut short: close it
    log = json.loads(text.rstrip().rstrip(",") + "]}")
kinds = {v: k for k, v in log["constants"]["logEventTypes"].items()}
for e in log.get("events", []):
    p = e.get("params", {})
    if kinds.get(e["type"]) == "URL_REQUEST_START_JOB" and "file://" in p.get("network_isolation_key", "") \
            and not p.get("url", "").startswith(("file:", "data:")):
        print(p["url"])
PY
}
# not_blank PNG: the standard deviation of its pixels (0 for a blank page) is above 0.02.
stddev() { $CONVERT "$1" -colorspace gray -format '%[fx:standard_deviation]' info: 2>/dev/null; }
not_blank() { perl -e 'exit !($ARGV[0] > 0.02)' "$(stddev "$1")"; }

# The control: a page that does fetch (an image and a CSS background) must show up in the net log.
cat >"$WORK/leak.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { background: url(https://leak.invalid/bg.png) }</style></head>
<body><img src="http://leak.invalid/pixel.png" alt=""><p>leak</p></body></html>
HTML
chrome "$WORK/leak.log" --log-net-log="$WORK/leak.netlog" --screenshot="$WORK/leak.png" --window-size=400,300 "file://$WORK/leak.html"
leaks=$(page_requests "$WORK/leak.netlog" 2>&1 | sort -u | tr '\n' ' ')
case $leaks in
    *leak.invalid/pixel.png*leak.invalid/bg.png*|*leak.invalid/bg.png*leak.invalid/pixel.png*)
        result PASS report-offline-control "a page that fetches is caught: $leaks" ;;
    *) result FAIL report-offline-control "the net log did not show the control page's requests: ${leaks:-none} ($(tail -n 2 "$WORK/leak.log" | tr '\n' ' '))" ;;
esac

W=1000 H=1400
for lang in en ko; do
    page="file://$WORK/report-$lang.html"
    shot=$ARTIFACTS/report-$lang.png pdf=$ARTIFACTS/report-$lang.pdf
    rm -f "$shot" "$pdf" "$ARTIFACTS"/report-$lang-page-*.png
    chrome "$WORK/shot-$lang.log" --hide-scrollbars --window-size=$W,$H --screenshot="$shot" \
        --log-net-log="$WORK/shot-$lang.netlog" "$page"
    chrome "$WORK/pdf-$lang.log" --no-pdf-header-footer --print-to-pdf="$pdf" --log-net-log="$WORK/pdf-$lang.netlog" "$page"

    # Nothing fetched, on screen or in print.
    requests=$(cat <(page_requests "$WORK/shot-$lang.netlog") <(page_requests "$WORK/pdf-$lang.netlog") 2>&1 | sort -u | tr '\n' ' ')
    if [ -s "$WORK/shot-$lang.netlog" ] && [ -s "$WORK/pdf-$lang.netlog" ] && [ -z "$requests" ]; then
        result PASS report-$lang-offline "the page asked the network for nothing (Chromium's net log)"
    else
        result FAIL report-$lang-offline "requests: ${requests:-no net log written}"
    fi

    # The screenshot: the size asked for, not blank.
    if [ -s "$shot" ] && [ "$(identify -format %wx%h "$shot" 2>/dev/null)" = "${W}x$H" ] && not_blank "$shot"; then
        result PASS report-$lang-screenshot "${W}x$H, standard deviation $(stddev "$shot")"
    else
        result FAIL report-$lang-screenshot "no screenshot, or blank: $(tail -n 2 "$WORK/shot-$lang.log" | tr '\n' ' ')"
    fi

    # The PDF: A4 (Chromium's own default is Letter: only @page makes it A4), 2 to 8 pages for 53 days.
    pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
    size=$(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Page size: *//p')
    if [ -n "$pages" ] && [ "$pages" -ge 2 ] && [ "$pages" -le 8 ] && [[ $size == *"(A4)"* ]]; then
        result PASS report-$lang-pdf "$pages pages, $size"
    else
        result FAIL report-$lang-pdf "expected 2-8 A4 pages; got ${pages:-no PDF} pages of ${size:-?} ($(tail -n 2 "$WORK/pdf-$lang.log" | tr '\n' ' '))"
    fi
    pdftoppm -png -r 60 "$pdf" "$ARTIFACTS/report-$lang-page" 2>/dev/null
    blank=() n=0
    for p in "$ARTIFACTS"/report-$lang-page-*.png; do
        [ -e "$p" ] || continue
        n=$((n + 1)); not_blank "$p" || blank+=("$(basename "$p")")
    done
    if [ "$n" -gt 0 ] && [ "$n" = "${pages:-x}" ] && [ ${#blank[@]} = 0 ]; then
        result PASS report-$lang-pages "$n pages rendered at 60 dpi, none blank"
    else
        result FAIL report-$lang-pages "$n PNG pages of ${pages:-?}; blank: ${blank[*]:-none}"
    fi
    # The calendar's colours printed (print-color-adjust): "done" green and "missed" red cells on page 1.
    p1=$(ls "$ARTIFACTS"/report-$lang-page-*1.png 2>/dev/null | head -n1)
    green=$(color_pixels "$p1" 100000x100000+0+0 '#a8dfb7' 2>/dev/null) red=$(color_pixels "$p1" 100000x100000+0+0 '#f4a9a2' 2>/dev/null)
    if [ "${green:-0}" -gt 200 ] && [ "${red:-0}" -gt 50 ]; then
        result PASS report-$lang-colours "page 1 has $green green and $red red pixels (the calendar)"
    else
        result FAIL report-$lang-colours "the calendar's colours did not print: green ${green:-?}, red ${red:-?} pixels on page 1"
    fi
done

# --- What the PDF says (its text layer), against expectations written here and `dosebar stats`.
text_of() { pdftotext -layout "$ARTIFACTS/report-$1.pdf" - 2>/dev/null | perl -CSD -pe 's/[ \t]+/ /g; s/^ //'; }
text_of en >"$WORK/en.txt"; text_of ko >"$WORK/ko.txt"
# The words of each catalog (Sources/DoseCore/Catalog.swift, report.* and month.*), and the period:
# Thu 2026-10-01 to Sun 2026-11-22 is 53 days.
want_en=("Medication report" "Thu 1 Oct 2026 – Sun 22 Nov 2026 (53 days)" "Time zone: Asia/Seoul"
         "Generated on Sun 22 Nov 2026 at 21:30" "Medicines" "Calendar" "Weekly adherence" "Missed and late doses"
         "Oct 2026" "Nov 2026" "every dose taken" "some missed" "outside the period" "taken late" "daily at 08:00, 20:00")
want_ko=("복약 보고서" "2026년 10월 1일 (목) – 2026년 11월 22일 (일) (53일)" "시간대: Asia/Seoul"
         "2026년 11월 22일 (일) 21:30 작성" "약별 복용 현황" "달력" "주별 복용률" "누락되거나 늦은 복용"
         "2026년 10월" "2026년 11월" "완료:" "일부 누락" "기간 밖" "늦게 복용" "매일 08:00, 20:00")
for lang in en ko; do
    declare -n want=want_$lang
    absent=()
    for w in "${want[@]}"; do grep -qF -- "$w" "$WORK/$lang.txt" || absent+=("$w"); done
    if [ ${#absent[@]} = 0 ]; then result PASS report-$lang-words "${#want[@]} phrases of the $lang catalog in the printed page"
    else result FAIL report-$lang-words "not in the printed page: $(printf '"%s" ' "${absent[@]}")"; fi
    unset -n want
    # The hostile name was drawn as text, exactly (not parsed as markup).
    if grep -qF -- "$FERROUS" "$WORK/$lang.txt" && ! grep -q 'Ferrous &amp;\|Ferrous &lt;' "$WORK/$lang.txt"; then
        result PASS report-$lang-escaped "the browser showed $FERROUS as written"
    else
        result FAIL report-$lang-escaped "$FERROUS not shown as written: $(grep -m1 Ferrous "$WORK/$lang.txt")"
    fi
done
english=$(grep -o -E 'Medication report|Medicines|Adherence|Missed and late doses|Weekly adherence|taken late|daily at' "$WORK/ko.txt" | sort -u | tr '\n' ' ')
if [ -z "$english" ]; then result PASS report-ko-no-english "no English label in the Korean page"
else result FAIL report-ko-no-english "English in the Korean page: $english"; fi

# Every figure equals `dosebar stats` over the same days (the medicines start on 10-12, so the 42 days
# of `stats --days 42` hold every dose of the report): adherence, on time, taken, late, early, skipped,
# missed, in the row of each medicine and of all of them.
db stats --days 42 --json >"$WORK/stats.json" 2>"$WORK/stats.err"
jq -r 'def p: if . == null then "–" else "\(.)%" end;
       def f: "\(.adherence | p) \(.on_time | p) \(.taken) \(.late) \(.early) \(.skipped) \(.missed)";
       (.medications[] | "\(.name)\t\(.name) \(f)"), "ALL\t\(.overall | f)"' "$WORK/stats.json" >"$WORK/expected.tsv" 2>/dev/null
rows=0 wrong=()
while IFS=$'\t' read -r name line; do
    [ -n "$name" ] || continue
    rows=$((rows + 1))
    for lang in en ko; do
        if [ "$name" = ALL ]; then
            label=$([ $lang = en ] && echo "All medicines" || echo "전체")
            grep -qF -- "$label $line" "$WORK/$lang.txt" || wrong+=("$lang: '$label $line'")
        else
            grep -qF -- "$line" "$WORK/$lang.txt" || wrong+=("$lang: '$line'")
        fi
    done
done <"$WORK/expected.tsv"
if [ "$rows" -ge 6 ] && [ ${#wrong[@]} = 0 ]; then
    result PASS report-figures "$rows rows (each medicine and all) equal dosebar stats, in both languages"
else
    result FAIL report-figures "$rows rows from stats ($(head -c 200 "$WORK/stats.err")); not in the printed page: ${wrong[*]:-}"
fi
# Each day of the calendar is in the state `dosebar history` gives it (53 days, 10-01 .. 11-22).
db history --from $FROM --to $TO --json 2>"$WORK/history.err" | jq -r '.[] | "\(.day) \(.state)"' >"$WORK/days.txt"
days=0 wrong=()
while read -r day state; do
    days=$((days + 1))
    grep -qF "<td class=\"day s-$state\" data-day=\"$day\"" "$WORK/report-en.html" || wrong+=("$day $state")
done <"$WORK/days.txt"
if [ "$days" = 53 ] && [ ${#wrong[@]} = 0 ]; then
    result PASS report-days "the calendar's 53 days are in the states dosebar history gives ($(cut -d' ' -f2 "$WORK/days.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ','))"
else
    result FAIL report-days "$days days from history ($(head -c 200 "$WORK/history.err")); not so in the calendar: ${wrong[*]:0:5}"
fi

# --- Real Hangul, not tofu. The three syllables of 보고서 (the Korean catalog's report.title, "복약
# 보고서") are cut from page 1 at 150 dpi where the PDF's text layer puts them; real glyphs differ from
# one another, tofu boxes are all alike. The control prints the same page with only DejaVu (no CJK
# font): its syllables must come out alike, so the check can tell.
# glyph_spread PDF WORD: the smallest RMSE (0..1) between two of WORD's characters; empty if not found.
glyph_spread() {
    local pdf=$1 word=$2 dir geo i a b d min=1 n
    dir=$(mktemp -d "$WORK/glyphs.XXXXXX")
    pdftoppm -png -r 150 -f 1 -l 1 -singlefile "$pdf" "$dir/page" 2>/dev/null || return 1
    n=$(perl -CSDA -e 'print length $ARGV[0]' "$word")
    pdftotext -bbox -f 1 -l 1 "$pdf" - 2>/dev/null | perl -CSDA -ne '
        BEGIN { ($w, $n) = splice @ARGV, 0, 2 }
        if (/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">\Q$w\E</) {
            my $s = 150 / 72; my $cw = ($3 - $1) * $s / $n;
            printf "%dx%d+%d+%d\n", $cw, ($4 - $2) * $s, $1 * $s + $_ * $cw, $2 * $s for 0 .. $n - 1; exit }' "$word" "$n" >"$dir/geo"
    [ "$(wc -l <"$dir/geo")" = "$n" ] || return 1
    i=0; while read -r geo; do $CONVERT "$dir/page.png" -crop "$geo" +repage -colorspace gray "$dir/g$i.png"; i=$((i + 1)); done <"$dir/geo"
    for a in $(seq 0 $((n - 2))); do for b in $(seq $((a + 1)) $((n - 1))); do
        d=$(compare -metric RMSE "$dir/g$a.png" "$dir/g$b.png" null: 2>&1 | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p')
        min=$(perl -e 'print $ARGV[0] < $ARGV[1] ? $ARGV[0] : $ARGV[1]' "${d:-0}" "$min")
    done; done
    echo "$min"
}
cat >"$WORK/no-cjk.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>$WORK/fc-cache</cachedir></fontconfig>
XML
FONTCONFIG_FILE="$WORK/no-cjk.conf" chrome "$WORK/tofu.log" --no-pdf-header-footer --print-to-pdf="$WORK/report-ko-tofu.pdf" \
    "file://$WORK/report-ko.html"
real=$(glyph_spread "$ARTIFACTS/report-ko.pdf" 보고서) tofu=$(glyph_spread "$WORK/report-ko-tofu.pdf" 보고서)
pdftoppm -png -r 60 -f 1 -l 1 -singlefile "$WORK/report-ko-tofu.pdf" "$ARTIFACTS/report-ko-tofu-control" 2>/dev/null
if [ -n "$tofu" ] && perl -e 'exit !($ARGV[0] < 0.02)' "$tofu"; then
    result PASS report-cjk-control "without a CJK font the syllables of 보고서 are alike (RMSE $tofu): tofu is caught"
else
    result FAIL report-cjk-control "the tofu control did not come out as tofu (RMSE ${tofu:-word not found}): the glyph check proves nothing"
fi
if [ -n "$real" ] && perl -e 'exit !($ARGV[0] > 0.1)' "$real"; then
    result PASS report-ko-hangul "the syllables of 보고서 are distinct glyphs (smallest RMSE $real; fonts: $(fc-match -f '%{family[0]}' :lang=ko))"
else
    result FAIL report-ko-hangul "the Korean title looks like tofu or was not found (RMSE ${real:-word not found})"
fi

# --- For the README: the English screenshot and its first printed page, each under 300 KB.
if [ "${UPDATE_SCREENSHOTS:-0}" = 1 ]; then
    out=$INTEGRATIONS_DIR/screenshots
    $CONVERT "$ARTIFACTS/report-en.png" -crop ${W}x1150+0+0 +repage -resize 800x -strip +dither -colors 256 "PNG8:$out/report-en.png" &&
        $CONVERT "$(ls "$ARTIFACTS"/report-en-page-*1.png | head -n1)" -strip +dither -colors 256 "PNG8:$out/report-page1.png" &&
        echo "updated $out/report-en.png ($(stat -c %s "$out/report-en.png") bytes), $out/report-page1.png ($(stat -c %s "$out/report-page1.png") bytes)" >&2
fi
finish
