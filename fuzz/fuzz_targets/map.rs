//! The map file format: any text is a map or an error naming the line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(map) = caisson_hexmap::format::parse(text, "fuzz.txt") {
        // A map that parses renders.
        let _ = caisson_hexmap::render::svg(&map);
    }
});
