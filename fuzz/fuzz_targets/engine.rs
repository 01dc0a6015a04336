//! The engine's JSON-lines protocol: any input gets one reply line per non-blank request line,
//! each a JSON object with `ok`, and never a panic.
#![no_main]

use caisson::engine::Engine;
use caisson::gcacw::Gcacw;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new(&Gcacw);
    let mut out = Vec::new();
    engine.run(&mut &data[..], &mut out).expect("writing to a Vec never fails");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    for line in text.lines() {
        let reply: serde_json::Value = serde_json::from_str(line).expect("each reply is JSON");
        assert!(reply.get("ok").is_some_and(serde_json::Value::is_boolean), "{line}");
        if let Some(error) = reply.get("error").and_then(serde_json::Value::as_str) {
            assert!(!error.starts_with("internal error"), "{line}");
        }
    }
});
