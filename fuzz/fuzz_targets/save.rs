//! The save-file loader: any bytes are either a save that loads or a clear error.
#![no_main]

use caisson_kernel::Save;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(save) = Save::from_json(text) else { return };
    if let Ok(game) = caisson_gcacw::registry::load_game(&save) {
        // A save that loads is a legal game: its invariants hold.
        assert_eq!(game.check(), Ok(()));
    }
});
