# Convenience targets; the scripts are the source of truth.
.PHONY: build test install check-man demo bench bench-quick gnome-extension gnome-extension-install
build:
	swift build
test:
	scripts/test
# PREFIX (default ~/.local) and DESTDIR as usual: make install DESTDIR=/tmp/stage PREFIX=/usr
install:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install
# The manual pages as make install writes them, rendered by man (or groff) with warnings on.
check-man:
	scripts/check-man
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
