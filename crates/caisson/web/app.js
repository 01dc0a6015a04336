// The Caisson page: see crates/caisson/web/README in ARCHITECTURE.md.
