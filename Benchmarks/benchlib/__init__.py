"""The parts of dosebar's benchmark (Benchmarks/bench.py is the entry point), by what they measure:

- common: paths, the scenario clock (NOW, TZ), hyperfine, formatting, dosebar's environment;
- binary: the release build and the binary's size;
- floors: cat, C and Swift hellos, the sqlite3 insert, `dosebar --version`;
- scenarios: the generated databases, their fresh copies, take → file changed without the daemon;
- timeline: timeline.json's size against its budget (and `--sizes`);
- sync: `sync now` of another device's history, of one new take, of N takes of one slot;
- dosage: `import dosage` of a 3-year Dosage folder;
- instructions: valgrind instruction counts;
- inotify: file renames seen through inotify (ctypes);
- daemon: the daemon on the real clock (take → file and → watch line, CPU, RSS, idle wake-ups);
- comparisons: bash+jq and habitrack on the same history;
- report: the table printed at the end, with each part's rows and the DESIGN targets.
"""
