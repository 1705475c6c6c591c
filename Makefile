# Convenience targets; the scripts are the source of truth.
.PHONY: build test install demo bench bench-quick gnome-extension gnome-extension-install
build:
	swift build
test:
	scripts/test
install:
	scripts/install
demo:
	scripts/demo
bench:
	scripts/bench
bench-quick:
	scripts/bench --quick
# The GNOME Shell extension: both zips (GNOME 45-48 and 42-44) in integrations/gnome-shell/build,
# and the one that fits this machine's gnome-shell installed for the current user.
gnome-extension:
	integrations/gnome-shell/build.py
gnome-extension-install:
	integrations/gnome-shell/install.sh
