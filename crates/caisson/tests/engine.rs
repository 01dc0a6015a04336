//! The engine protocol, in process, on the toy Race: every command, and every kind of bad request
//! answered with an error while the engine keeps running.

mod common;

use caisson::engine::{Engine, COMMANDS};
use caisson::lines::MAX_LINE;
use common::ToyRegistry;
use serde_json::{json, Value};

/// Sends one request, returns the reply object.
fn ask(engine: &mut Engine<'_>, request: Value) -> Value {
    engine.handle(&request.to_string()).value
}

/// Sends one request that must succeed.
fn ok(engine: &mut Engine<'_>, request: Value) -> Value {
    let reply = ask(engine, request.clone());
    assert_eq!(reply["ok"], json!(true), "{request} → {reply}");
    assert!(reply.get("error").is_none());
    reply
}

/// Sends one request that must fail; returns the error message.
fn err(engine: &mut Engine<'_>, request: Value) -> String {
    let reply = ask(engine, request.clone());
    assert_eq!(reply["ok"], json!(false), "{request} → {reply}");
    reply["error"].as_str().unwrap_or_else(|| panic!("no error message in {reply}")).to_string()
}

/// Runs the engine over `input`; returns the reply lines, each parsed.
fn session(input: &[u8]) -> Vec<Value> {
    let registry = ToyRegistry;
    let mut engine = Engine::new(&registry);
    let mut output = Vec::new();
    engine.run(&mut &input[..], &mut output).expect("run");
    let text = String::from_utf8(output).expect("utf-8 output");
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("reply `{l}` is not JSON: {e}"))).collect()
}

fn option_ids(reply: &Value) -> Vec<String> {
    reply["decision"]["options"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["id"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[test]
fn new_replies_with_the_first_decision_setup_and_notices() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    let r = ok(&mut e, json!({"cmd": "new", "scenario": "race", "seed": 5}));
    assert_eq!(r["decision"]["side"], "union");
    assert_eq!(r["decision"]["kind"], "action");
    assert!(r["decision"]["prompt"].as_str().is_some_and(|p| p.contains("first to 15")));
    assert_eq!(option_ids(&r), ["roll:1", "roll:2", "pass"]);
    assert_eq!(r["decision"]["options"][0]["label"], "Roll one die");
    assert_eq!(r["can_undo"], false);
    assert_eq!(r["setup"], json!({"system": "toy", "scenario": "race", "seed": 5, "dice": "seeded", "options": []}));
    assert_eq!(r["notices"], json!(["race is a toy: nothing here is history."]));
    // Defaults: seed 1, seeded dice; options are sorted.
    let r = ok(&mut e, json!({"cmd": "new", "scenario": "race", "options": ["b=2", "a=1"], "dice": "manual"}));
    assert_eq!(r["setup"]["seed"], 1);
    assert_eq!(r["setup"]["dice"], "manual");
    assert_eq!(r["setup"]["options"], json!(["a=1", "b=2"]));
}

#[test]
fn bad_new_requests_are_errors() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    assert!(err(&mut e, json!({"cmd": "new"})).contains("missing \"scenario\""));
    assert!(err(&mut e, json!({"cmd": "new", "scenario": 3})).contains("\"scenario\" must be a string"));
    assert_eq!(err(&mut e, json!({"cmd": "new", "scenario": "chess"})), "no scenario `chess`");
    assert!(
        err(&mut e, json!({"cmd": "new", "scenario": "race", "seed": -1})).contains("\"seed\" must be a whole number")
    );
    assert!(err(&mut e, json!({"cmd": "new", "scenario": "race", "seed": 1.5})).contains("\"seed\""));
    assert!(err(&mut e, json!({"cmd": "new", "scenario": "race", "seed": "7"})).contains("\"seed\""));
    assert!(err(&mut e, json!({"cmd": "new", "scenario": "race", "dice": "loaded"})).contains("dice mode `loaded`"));
    assert!(err(&mut e, json!({"cmd": "new", "scenario": "race", "options": [1]})).contains("array of strings"));
    assert!(err(&mut e, json!({"cmd": "new", "scenario": "race", "options": "a=1"})).contains("array of strings"));
    // None of these started a game.
    assert!(e.game().is_none());
    // The largest seed is fine.
    ok(&mut e, json!({"cmd": "new", "scenario": "race", "seed": u64::MAX}));
}

#[test]
fn malformed_json_non_objects_and_bad_cmds_are_errors() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    for line in ["{", "not json", "{\"cmd\": \"new\",}", "\u{0}", "{\"cmd\":\"pending\"} trailing"] {
        let r = e.handle(line);
        assert!(!r.is_ok() && !r.quit, "{line}");
        assert!(r.error().is_some_and(|m| m.starts_with("malformed JSON")), "{line}: {:?}", r.error());
    }
    for line in ["[1]", "3", "\"new\"", "null"] {
        let r = e.handle(line);
        assert_eq!(r.error(), Some("a request must be a JSON object with a \"cmd\" field"), "{line}");
    }
    assert!(err(&mut e, json!({"scenario": "race"})).starts_with("missing \"cmd\"; commands: new, pending"));
    assert_eq!(err(&mut e, json!({"cmd": 1})), "\"cmd\" must be a string");
    let m = err(&mut e, json!({"cmd": "fly"}));
    assert_eq!(m, format!("unknown command `fly`; commands: {}", COMMANDS.join(", ")));
    // And the engine still works.
    ok(&mut e, json!({"cmd": "new", "scenario": "race"}));
}

#[test]
fn commands_before_new_are_errors() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    for cmd in ["pending", "choose", "undo", "state", "view", "log", "save"] {
        let m = err(&mut e, json!({"cmd": cmd, "option": "pass"}));
        assert_eq!(m, "no game: send `new` or `load` first", "{cmd}");
    }
    // These need no game.
    let r = ok(&mut e, json!({"cmd": "scenarios"}));
    assert_eq!(r["scenarios"][0]["id"], "race");
    assert_eq!(r["scenarios"][0]["turns"], 30);
    assert_eq!(r["scenarios"][0]["game"], "basic");
    assert_eq!(ok(&mut e, json!({"cmd": "help"}))["commands"], json!(COMMANDS));
}

#[test]
fn an_illegal_choice_is_an_error_and_changes_nothing() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "race"}));
    ok(&mut e, json!({"cmd": "choose", "option": "roll:1"}));
    let before = ok(&mut e, json!({"cmd": "state"}));
    for bad in [json!("roll:3"), json!(""), json!("die:1")] {
        let m = err(&mut e, json!({"cmd": "choose", "option": bad}));
        assert!(m.contains("is not one of the options now"), "{m}");
    }
    assert_eq!(err(&mut e, json!({"cmd": "choose", "option": 1})), "\"option\" must be a string (an option id)");
    assert!(err(&mut e, json!({"cmd": "choose"})).starts_with("missing \"option\""));
    assert_eq!(ok(&mut e, json!({"cmd": "state"})), before);
}

#[test]
fn choose_after_the_game_is_over_is_an_error() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "race", "seed": 3}));
    let mut steps = 0;
    loop {
        let r = ok(&mut e, json!({"cmd": "choose", "option": "roll:2"}));
        steps += 1;
        assert!(steps < 100);
        if r["decision"].is_null() {
            break;
        }
    }
    assert_eq!(ok(&mut e, json!({"cmd": "pending"}))["decision"], Value::Null);
    assert_eq!(err(&mut e, json!({"cmd": "choose", "option": "roll:2"})), "the game is over");
    let view = ok(&mut e, json!({"cmd": "view", "side": null}))["view"].clone();
    assert!(view["winner"].is_string(), "{view}");
}

#[test]
fn an_oversized_line_is_refused_and_the_engine_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"cmd\":\"scenarios\"}\n");
    // A valid request padded with spaces past the bound.
    input.extend_from_slice(b"{\"cmd\":\"scenarios\"");
    input.extend(std::iter::repeat_n(b' ', MAX_LINE));
    input.extend_from_slice(b"}\n");
    input.extend_from_slice(b"{\"cmd\":\"help\"}\n");
    let replies = session(&input);
    assert_eq!(replies.len(), 3);
    assert_eq!(replies[0]["ok"], true);
    assert_eq!(replies[1]["ok"], false);
    let m = replies[1]["error"].as_str().unwrap_or_default();
    assert!(m.contains("bytes refused: the limit is 1048576 bytes"), "{m}");
    assert_eq!(replies[2]["ok"], true);
}

#[test]
fn a_line_of_exactly_the_limit_is_served() {
    let mut input = b"{\"cmd\":\"help\"".to_vec();
    input.resize(MAX_LINE - 1, b' ');
    input.extend_from_slice(b"}\n");
    let replies = session(&input);
    assert_eq!(replies[0]["ok"], true, "{}", replies[0]);
}

#[test]
fn a_session_over_a_pipe_answers_every_line_skips_blank_ones_and_stops_at_quit() {
    let input = b"{\"cmd\":\"new\",\"scenario\":\"race\",\"id\":1}\n\
        \n   \n\
        garbage\n\
        \xff\xfe\n\
        {\"cmd\":\"choose\",\"option\":\"pass\",\"id\":\"two\"}\n\
        {\"cmd\":\"quit\",\"id\":3}\n\
        {\"cmd\":\"pending\"}\n";
    let replies = session(input);
    assert_eq!(replies.len(), 5, "{replies:?}");
    assert_eq!((replies[0]["ok"].clone(), replies[0]["id"].clone()), (json!(true), json!(1)));
    assert!(replies[1]["error"].as_str().is_some_and(|m| m.starts_with("malformed JSON")));
    assert_eq!(replies[2]["error"], "request line refused: it is not UTF-8");
    assert_eq!(replies[3]["id"], "two");
    assert_eq!(replies[3]["decision"]["side"], "confederate");
    assert_eq!(replies[4], json!({"ok": true, "id": 3}));
}

#[test]
fn quit_is_answered_and_ends_the_session() {
    let replies = session(b"{\"cmd\":\"quit\",\"id\":9}\n{\"cmd\":\"help\"}\n");
    assert_eq!(replies, vec![json!({"ok": true, "id": 9})]);
    // End of input ends it too, with nothing written.
    assert!(session(b"").is_empty());
    // A last line with no newline is still served.
    assert_eq!(session(b"{\"cmd\":\"help\"}").len(), 1);
}

#[test]
fn save_then_load_gives_the_same_hash_and_goes_on_identically() {
    let reg = ToyRegistry;
    let mut a = Engine::new(&reg);
    ok(&mut a, json!({"cmd": "new", "scenario": "race", "seed": 11}));
    for o in ["roll:2", "roll:1", "pass"] {
        ok(&mut a, json!({"cmd": "choose", "option": o}));
    }
    let save = ok(&mut a, json!({"cmd": "save"}))["save"].clone();
    assert_eq!(save["format"], "caisson-save");
    assert_eq!(save["version"], 1);
    assert_eq!(save["actions"].as_array().map(Vec::len), Some(3));
    assert_eq!(save["actions"][0]["choice"], "roll:2");
    assert_eq!(save["actions"][0]["chain"].as_str().map(str::len), Some(64));
    let hash = ok(&mut a, json!({"cmd": "state"}))["hash"].clone();
    assert_eq!(save["state_hash"], hash);

    // Through text, as a client would store it.
    let save: Value = serde_json::from_str(&save.to_string()).expect("json");
    let mut b = Engine::new(&reg);
    let loaded = ok(&mut b, json!({"cmd": "load", "save": save}));
    assert_eq!(loaded["hash"], hash);
    assert_eq!(loaded["decision"], ok(&mut a, json!({"cmd": "pending"}))["decision"]);
    for o in ["roll:2", "roll:2", "roll:1"] {
        let ra = ok(&mut a, json!({"cmd": "choose", "option": o}));
        let rb = ok(&mut b, json!({"cmd": "choose", "option": o}));
        assert_eq!(ra, rb);
        assert_eq!(ok(&mut a, json!({"cmd": "state"})), ok(&mut b, json!({"cmd": "state"})));
    }
    assert_eq!(ok(&mut a, json!({"cmd": "log"})), ok(&mut b, json!({"cmd": "log"})));
}

#[test]
fn bad_saves_are_refused_and_the_current_game_is_kept() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "race", "seed": 11}));
    ok(&mut e, json!({"cmd": "choose", "option": "roll:1"}));
    let save = ok(&mut e, json!({"cmd": "save"}))["save"].clone();
    let hash = ok(&mut e, json!({"cmd": "state"}))["hash"].clone();

    assert!(err(&mut e, json!({"cmd": "load"})).starts_with("missing \"save\""));
    assert!(err(&mut e, json!({"cmd": "load", "save": "text"})).starts_with("not a Caisson save: "));
    assert!(err(&mut e, json!({"cmd": "load", "save": {"format": "caisson-save"}})).starts_with("not a Caisson save: "));
    let mut altered = save.clone();
    altered["actions"][0]["choice"] = json!("roll:2");
    assert_eq!(
        err(&mut e, json!({"cmd": "load", "save": altered})),
        "the save has been altered or corrupted: the hash chain breaks at choice 1"
    );
    let mut altered = save.clone();
    altered["state_hash"] = json!("ab".repeat(32));
    assert!(err(&mut e, json!({"cmd": "load", "save": altered})).contains("does not match its hash"));
    let mut altered = save.clone();
    altered["version"] = json!(2);
    assert!(err(&mut e, json!({"cmd": "load", "save": altered})).starts_with("save version 2 is not supported"));
    let mut altered = save;
    altered["setup"]["scenario"] = json!("chess");
    assert_eq!(err(&mut e, json!({"cmd": "load", "save": altered})), "no scenario `chess`");
    assert_eq!(ok(&mut e, json!({"cmd": "state"}))["hash"], hash);
}

#[test]
fn undo_takes_back_what_it_may_and_refuses_the_rest() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "race", "dice": "manual"}));
    let start = ok(&mut e, json!({"cmd": "state"}));
    let r = ok(&mut e, json!({"cmd": "choose", "option": "roll:2"}));
    assert_eq!(r["decision"]["kind"], "roll");
    assert_eq!(option_ids(&r), ["die:1", "die:2", "die:3", "die:4", "die:5", "die:6"]);
    assert_eq!(r["can_undo"], true);
    let r = ok(&mut e, json!({"cmd": "undo"}));
    assert_eq!(r["decision"]["kind"], "action");
    assert_eq!(r["can_undo"], false);
    assert_eq!(ok(&mut e, json!({"cmd": "state"})), start);
    assert!(err(&mut e, json!({"cmd": "undo"})).starts_with("nothing to undo"));
    // Once a die is in, the choice stays.
    ok(&mut e, json!({"cmd": "choose", "option": "roll:2"}));
    let r = ok(&mut e, json!({"cmd": "choose", "option": "die:6"}));
    assert_eq!(r["can_undo"], false);
    assert!(err(&mut e, json!({"cmd": "undo"})).starts_with("nothing to undo"));
    ok(&mut e, json!({"cmd": "choose", "option": "die:5"}));
    let view = ok(&mut e, json!({"cmd": "view", "side": "union"}))["view"].clone();
    assert_eq!(view["scores"]["union"], 10);
    assert_eq!(view["viewer"], "union");
}

#[test]
fn state_view_and_log_commands() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "race", "dice": "manual"}));
    for o in ["roll:2", "die:3", "die:4"] {
        ok(&mut e, json!({"cmd": "choose", "option": o}));
    }
    let st = ok(&mut e, json!({"cmd": "state"}));
    assert_eq!(st["state"]["scores"], json!([6, 0]));
    assert_eq!(st["hash"].as_str().map(str::len), Some(64));

    let all = ok(&mut e, json!({"cmd": "log"}));
    assert_eq!(all["from"], 0);
    assert_eq!(all["next"], 3);
    let roll = &all["log"][2]["roll"];
    assert_eq!(roll["dice"], json!([3, 4]));
    assert_eq!(roll["modifiers"][0], json!({"label": "rolling two dice", "value": -1, "rule": "Race 3"}));
    assert_eq!(roll["total"], 6);
    assert_eq!(roll["rule"], "Race 2");
    let tail = ok(&mut e, json!({"cmd": "log", "from": 2}));
    assert_eq!(tail["log"].as_array().map(Vec::len), Some(1));
    assert_eq!(tail["log"][0], all["log"][2]);
    let past = ok(&mut e, json!({"cmd": "log", "from": 99}));
    assert_eq!(past["log"], json!([]));
    assert_eq!(past["next"], 3);
    assert!(err(&mut e, json!({"cmd": "log", "from": -1})).contains("\"from\""));

    assert_eq!(ok(&mut e, json!({"cmd": "view"}))["view"]["viewer"], Value::Null);
    assert_eq!(ok(&mut e, json!({"cmd": "view", "side": "confederate"}))["view"]["viewer"], "confederate");
    assert!(err(&mut e, json!({"cmd": "view", "side": 2})).contains("\"side\""));
}

#[test]
fn a_panic_in_the_rules_is_an_error_reply_and_the_engine_keeps_running() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "boom"}));
    let before = ok(&mut e, json!({"cmd": "state"}));
    let m = err(&mut e, json!({"cmd": "choose", "option": "pass"}));
    assert_eq!(
        m,
        "internal error: `choose` panicked (boom: the rules cannot pass); the game is as it was before the \
         request. This is a bug: please report it with a save"
    );
    assert_eq!(ok(&mut e, json!({"cmd": "state"})), before);
    ok(&mut e, json!({"cmd": "choose", "option": "roll:1"}));
}

#[test]
fn a_panic_after_the_rules_changed_the_game_is_rolled_back() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    ok(&mut e, json!({"cmd": "new", "scenario": "boom-after", "seed": 2}));
    ok(&mut e, json!({"cmd": "choose", "option": "roll:2"}));
    let before = ok(&mut e, json!({"cmd": "state"}));
    let pending = ok(&mut e, json!({"cmd": "pending"}));
    let m = err(&mut e, json!({"cmd": "choose", "option": "pass"}));
    assert!(m.contains("the game is as it was before the request"), "{m}");
    assert_eq!(ok(&mut e, json!({"cmd": "state"})), before, "the half-made pass is gone");
    assert_eq!(ok(&mut e, json!({"cmd": "pending"})), pending);
    assert_eq!(e.game().map(|g| g.actions().len()), Some(1));
}

#[test]
fn a_whole_game_plays_through_the_protocol() {
    let reg = ToyRegistry;
    let mut e = Engine::new(&reg);
    let mut r = ok(&mut e, json!({"cmd": "new", "scenario": "race", "seed": 21, "dice": "manual"}));
    let mut player = caisson_kernel::Dice::new(4);
    let mut steps = 0;
    while !r["decision"].is_null() {
        let ids = option_ids(&r);
        let pick = ids[player.below(ids.len())].clone();
        r = ok(&mut e, json!({"cmd": "choose", "option": pick}));
        steps += 1;
        assert!(steps < 1000);
    }
    let save = ok(&mut e, json!({"cmd": "save"}))["save"].clone();
    assert_eq!(save["actions"].as_array().map(Vec::len), Some(steps));
    let mut again = Engine::new(&reg);
    let loaded = ok(&mut again, json!({"cmd": "load", "save": save}));
    assert_eq!(loaded["decision"], Value::Null);
}
