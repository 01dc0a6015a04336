//! The counters CSV and command TOML: any pair of texts (split at the first NUL byte) is a
//! catalog or an error naming file and line.
#![no_main]

use caisson_gcacw::catalog::Catalog;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (csv, toml) = text.split_once('\0').unwrap_or((text, ""));
    let _ = Catalog::parse(csv, "counters.csv", toml, "commands.toml");
});
