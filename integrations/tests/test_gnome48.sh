#!/usr/bin/env bash
# The ES-module build of the GNOME Shell extension (GNOME 45-48) inside a real
# GNOME Shell 45-48: Debian 13's 48, in integrations/tests/trixie/run.sh. The
# checks of test_gnome43.sh (panel label and colour by OCR against the
# scenario, the menu, "Taken" followed, disable() leaving nothing, no
# JavaScript error, the carried dose), with the test helper in its ESM form.
GNOME_WANT=45-48
. "$(dirname "$0")/test_gnome43.sh"
