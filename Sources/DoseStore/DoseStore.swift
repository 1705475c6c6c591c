// DoseStore: the SQLite store (GRDB).
