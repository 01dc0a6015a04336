//! The real `caisson` binary with the GCACW registry: the engine over a pipe, terminal play with
//! piped input, saves, maps, random games and command-line errors.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

use common::temp_dir;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_caisson");

/// Runs the binary with `args` and `stdin`, to the end.
fn caisson(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("caisson starts");
    let mut input = child.stdin.take().expect("stdin");
    // The child may stop reading early (quit); a broken pipe here is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("caisson runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An engine process to talk to line by line.
struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl EngineProcess {
    fn start() -> EngineProcess {
        let mut child = Command::new(BIN)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        EngineProcess { child, stdin, stdout }
    }

    /// Sends one raw line and reads one reply line.
    fn raw(&mut self, line: &[u8]) -> Value {
        self.stdin.write_all(line).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("read");
        assert!(reply.starts_with("{\"ok\":"), "reply `{reply}`");
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply `{reply}` is not JSON: {e}"))
    }

    fn ask(&mut self, request: Value) -> Value {
        self.raw(request.to_string().as_bytes())
    }

    fn ok(&mut self, request: Value) -> Value {
        let reply = self.ask(request.clone());
        assert_eq!(reply["ok"], true, "{request} → {reply}");
        reply
    }

    fn err(&mut self, request: Value) -> String {
        let reply = self.ask(request.clone());
        assert_eq!(reply["ok"], false, "{request} → {reply}");
        reply["error"].as_str().unwrap_or_default().to_string()
    }

    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin);
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut self.stdout, &mut rest);
        assert!(rest.is_empty(), "unexpected output after the last reply: {rest}");
        self.child.wait().expect("wait")
    }
}

fn first_option(reply: &Value) -> String {
    reply["decision"]["options"][0]["id"].as_str().expect("an option id").to_string()
}

#[test]
fn scenarios_prints_a_table() {
    let out = caisson(&["scenarios"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    let header = lines.next().unwrap_or_default();
    for column in ["id", "name", "dates", "turns", "game"] {
        assert!(header.contains(column), "{header}");
    }
    let hsn1 = lines.next().unwrap_or_default();
    assert!(hsn1.starts_with("hsn-1 "), "{stdout}");
    assert!(stdout.contains("basic") && stdout.contains("advanced"), "{stdout}");
}

#[test]
fn the_engine_over_a_pipe_plays_saves_loads_and_survives_bad_requests() {
    let mut e = EngineProcess::start();
    assert!(e.raw(b"{oops").get("error").and_then(Value::as_str).is_some_and(|m| m.starts_with("malformed JSON")));
    assert!(e.err(json!({"cmd": "dance"})).starts_with("unknown command `dance`"));
    assert_eq!(e.err(json!({"cmd": "pending"})), "no game: send `new` or `load` first");
    assert_eq!(e.err(json!({"cmd": "choose", "option": "x"})), "no game: send `new` or `load` first");
    let list = e.ok(json!({"cmd": "scenarios"}));
    assert_eq!(list["scenarios"][0]["id"], "hsn-1");
    assert!(e.err(json!({"cmd": "new", "scenario": "no-such"})).contains("no-such"));

    let r = e.ok(json!({"cmd": "new", "scenario": "hsn-1", "seed": 3, "id": "n"}));
    assert_eq!(r["id"], "n");
    assert_eq!(r["setup"]["system"], "gcacw");
    assert!(r["notices"].as_array().is_some_and(|n| !n.is_empty()));
    let d = &r["decision"];
    assert!(d["side"] == "union" || d["side"] == "confederate", "{d}");
    for field in ["kind", "prompt"] {
        assert!(d[field].is_string(), "{d}");
    }
    assert!(e.err(json!({"cmd": "choose", "option": "no:such:option"})).contains("is not one of the options now"));
    let mut r = r;
    for _ in 0..5 {
        if r["decision"].is_null() {
            break;
        }
        r = e.ok(json!({"cmd": "choose", "option": first_option(&r)}));
    }
    let state = e.ok(json!({"cmd": "state"}));
    assert_eq!(state["hash"].as_str().map(str::len), Some(64));
    assert!(e.ok(json!({"cmd": "view", "side": "union"}))["view"].is_object());
    assert!(e.ok(json!({"cmd": "log", "from": 0}))["log"].as_array().is_some_and(|l| !l.is_empty()));
    let save = e.ok(json!({"cmd": "save"}))["save"].clone();
    assert_eq!(save["format"], "caisson-save");
    assert_eq!(save["setup"]["scenario"], "hsn-1");

    // A second engine loads the save and is in the same state.
    let mut f = EngineProcess::start();
    let loaded = f.ok(json!({"cmd": "load", "save": save}));
    assert_eq!(loaded["hash"], state["hash"]);
    assert_eq!(f.ok(json!({"cmd": "pending"}))["decision"], e.ok(json!({"cmd": "pending"}))["decision"]);
    let mut bad = save.clone();
    bad["actions"][0]["chain"] = json!("0".repeat(64));
    assert!(f.err(json!({"cmd": "load", "save": bad})).contains("hash chain breaks at choice 1"));
    assert_eq!(f.ok(json!({"cmd": "state"}))["hash"], state["hash"], "a refused load keeps the game");

    assert_eq!(e.ok(json!({"cmd": "quit"})), json!({"ok": true}));
    assert!(e.finish().success());
    assert!(f.finish().success(), "end of input ends the engine cleanly");
}

#[test]
fn the_engine_refuses_an_oversized_line_and_goes_on() {
    let mut e = EngineProcess::start();
    let mut line = b"{\"cmd\":\"help\",\"pad\":\"".to_vec();
    line.resize(1 << 20, b'x');
    line.extend_from_slice(b"\"}");
    let r = e.raw(&line);
    assert!(r["error"].as_str().is_some_and(|m| m.contains("the limit is 1048576 bytes")), "{r}");
    e.ok(json!({"cmd": "help"}));
    assert!(e.finish().success());
}

#[test]
fn terminal_play_with_piped_input_quits_and_ends_on_eof() {
    let out = caisson(&["new", "hsn-1", "--seed", "3"], "?\nbanana\n1\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Caisson: hsn-1, seed 3, seeded dice.\nNotes on this scenario:\n"), "{stdout}");
    assert!(stdout.contains("Not understood: `banana`"), "{stdout}");
    assert!(stdout.contains("u        undo the last choice"), "{stdout}");
    assert!(stdout.contains("\n  1. "), "{stdout}");
    assert!(stdout.contains("→ "), "{stdout}");
    assert!(stdout.ends_with("Quit.\n"), "{stdout}");

    let out = caisson(&["new", "hsn-1", "--seed", "3", "--dice", "manual"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).ends_with("End of input: leaving the game.\n"));
}

#[test]
fn hint_says_what_the_computer_would_choose_and_changes_nothing() {
    // HSN Sc 1 as the Union: after the Leader Transfer Phase the computer would open with
    // Stanley's activation, which takes the four IV Corps units far from Columbia on one
    // Movement Allowance roll (GCACW 5.2).
    let out = caisson(&["new", "hsn-1", "--seed", "3", "--confederate", "random"], "3\nhint\nhint\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let hint = "The computer would choose 23. Activate Stanley in 0324 (Colored Church) [activate:stanley]\n";
    assert_eq!(stdout.matches(hint).count(), 2, "the same hint twice: {stdout}");
    assert!(!stdout.contains("Stanley activates"), "a hint takes no action: {stdout}");

    // The computer opponent plays GCACW only; elsewhere it gives no hint rather than a random one,
    // nor for a die entered by hand.
    let none = "No hint here: the computer opponent plays the GCACW games only, and a die to enter is no choice.";
    let out = caisson(&["new", "pv-16-1", "--seed", "3"], "hint\nq\n");
    assert!(text(&out.stdout).contains(none), "{}", text(&out.stdout));
    let input = "done\ndone\nmarch:armstrong\nhint\nq\n";
    let out = caisson(&["new", "hsn-1", "--seed", "3", "--dice", "manual"], input);
    assert!(text(&out.stdout).contains("[confederate · roll] Roll for Movement Allowance"), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(none), "{}", text(&out.stdout));
}

#[test]
fn random_players_finish_a_game_and_the_autosave_loads() {
    let dir = temp_dir();
    let file = dir.path().join("hsn1.json");
    let f = file.to_str().expect("utf-8 path");
    let args = ["new", "hsn-1", "--seed", "5", "--union", "random", "--confederate", "random", "--save", f];
    let out = caisson(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("union (random): "), "{stdout}");
    assert!(stdout.contains("confederate (random): "), "{stdout}");
    assert!(stdout.ends_with("Game over.\n"), "{stdout}");
    // The same seed plays the same game.
    let again = caisson(&args, "");
    assert_eq!(text(&again.stdout), stdout);

    let out = caisson(&["load", f], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Caisson: hsn-1 resumed from "), "{stdout}");
    assert!(stdout.ends_with("Game over.\n"), "{stdout}");
}

#[test]
fn load_refuses_garbage_and_missing_files() {
    let dir = temp_dir();
    let file = dir.path().join("garbage.json");
    std::fs::write(&file, "this is not a save").expect("write");
    let out = caisson(&["load", file.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("caisson: ") && stderr.contains("not a Caisson save"), "{stderr}");

    let out = caisson(&["load", "/nonexistent/save.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read"), "{}", text(&out.stderr));
}

#[test]
fn map_render_writes_svg() {
    let dir = temp_dir();
    let file = dir.path().join("hsn.svg");
    let out = caisson(&["map", "render", "hsn", "--out", file.to_str().expect("path")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&file).expect("svg written");
    assert!(svg.contains("<svg"), "{}", &svg[..svg.len().min(200)]);
    let out = caisson(&["map", "render", "atlantis", "--out", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("atlantis"));
}

#[test]
fn random_games_are_reported() {
    let out = caisson(&["random", "hsn-1", "--games", "3", "--seed", "7"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("games finished:  3 of 3 (seeds 7..=9)"), "{stdout}");
    assert!(stdout.contains("decisions made:  "), "{stdout}");
    assert!(stdout.contains("decisions/s:     "), "{stdout}");
    // A game cut short is a failure, reported with what reproduces it; the exit code says so.
    let out = caisson(&["random", "hsn-1", "--games", "1", "--max-steps", "3"], "");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("FAILED seed 1 after 3 decisions: not over after 3 decisions"), "{stdout}");
    assert!(stdout.contains("reproduce: caisson new hsn-1 --seed 1 --union random --confederate random"), "{stdout}");
}

/// `--confederate liddell` plays pv-16-0's solo variant (EX 16.0d): the option is turned on (a
/// Command Confusion roll sets Liddell's order), the game ends, the same seed replays it; a
/// scenario with no solo variant is refused with a message.
#[test]
fn the_liddell_bot_plays_pv_16_0_solo_in_the_terminal() {
    let args = ["new", "pv-16-0", "--seed", "3", "--union", "random", "--confederate", "liddell"];
    let out = caisson(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("confederate (computer): "), "{stdout}");
    assert!(stdout.contains("Optional rule offered: Solo variant"), "{stdout}");
    assert!(stdout.contains("every event chit goes in the cup (solo variant)"), "{stdout}");
    assert!(stdout.ends_with("Game over.\n"), "{stdout}");
    assert_eq!(text(&caisson(&args, "").stdout), stdout);

    let out = caisson(&["new", "pv-16-1", "--seed", "1", "--confederate", "liddell"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no solo variant"), "{}", text(&out.stderr));
}

#[test]
fn command_line_errors_exit_2_with_a_message() {
    let out = caisson(&["new", "no-such-scenario", "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("caisson: "), "{}", text(&out.stderr));
    for args in [&["new"][..], &["new", "hsn-1", "--dice", "loaded"], &["new", "hsn-1", "--seed", "-4"], &["bogus"]] {
        let out = caisson(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!text(&out.stderr).is_empty());
    }
}

/// Random play through `caisson engine`, over a pipe, for every scenario (HSN, then Perryville):
/// every reply is a well-formed decision with options until the game ends, and the engine never
/// fails. A release build (the README's test command) plays 100 seeds of each HSN scenario and 5
/// of each (longer) Perryville one; a debug build 2 and 1.
#[test]
fn random_play_through_the_engine_ends_every_scenario() {
    let (seeds, pv_seeds): (u64, u64) = if cfg!(debug_assertions) { (2, 1) } else { (100, 5) };
    let mut engine = EngineProcess::start();
    let list = engine.ok(json!({"cmd": "scenarios"}));
    let ids: Vec<String> = list["scenarios"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["id"].as_str().expect("id").to_string())
        .collect();
    assert_eq!(ids.len(), 14, "the nine HSN scenarios and the five Perryville ones");
    assert!(ids[9..].iter().all(|id| id.starts_with("pv-16-")), "{ids:?}");
    for id in &ids {
        let seeds = if id.starts_with("pv-") { pv_seeds } else { seeds };
        for seed in 1..=seeds {
            let mut dice = caisson_kernel::Dice::new(seed ^ 0x5eed);
            let mut reply = engine.ok(json!({"cmd": "new", "scenario": id, "seed": seed}));
            let mut steps = 0u32;
            while !reply["decision"].is_null() {
                let options = reply["decision"]["options"].as_array().expect("options");
                assert!(!options.is_empty(), "{id} seed {seed}: a decision without options: {reply}");
                let pick = options[dice.below(options.len())]["id"].as_str().expect("id").to_string();
                reply = engine.ok(json!({"cmd": "choose", "option": pick}));
                steps += 1;
                assert!(steps < 100_000, "{id} seed {seed}: the game does not end");
            }
        }
    }
    assert!(engine.finish().success());
}

/// The twelve GCACW charts, each with the kind of source `caisson chart` must name.
const CHARTS: [(&str, &str); 12] = [
    ("combat", "official chart"),
    ("terrain", "rulebook section"),
    ("occupied", "rulebook section"),
    ("attack-types", "rulebook section"),
    ("movement-allowance", "rulebook section"),
    ("strength", "reconstructed"),
    ("extended-march", "rulebook section"),
    ("ratio", "rulebook section"),
    ("artillery", "rulebook section"),
    ("maximum-values", "rulebook section"),
    ("cavalry-retreat", "rulebook section"),
    ("retreat", "rulebook section"),
];

#[test]
fn chart_lists_every_chart_with_its_source() {
    let out = caisson(&["chart"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for (name, source) in CHARTS {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for `{name}`:\n{stdout}"));
        assert!(line.contains(source), "{name} should name its source `{source}`: {line}");
        assert!(line.contains("GCACW "), "{name} should name its rule section: {line}");
    }
    let line = |name: &str| stdout.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_default();
    assert!(line("combat").contains("none"), "the Combat Chart is official: {}", line("combat"));
    assert!(line("strength").contains("10 of 11 values"), "{}", line("strength"));
    assert!(line("extended-march").contains(" of 84 values"), "{}", line("extended-march"));
    // The system may be named, and every chart prints.
    assert_eq!(text(&caisson(&["chart", "gcacw"], "").stdout), stdout);
    for (name, _) in CHARTS {
        let out = caisson(&["chart", "gcacw", name], "");
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stdout).lines().count() > 5, "{name}: {}", text(&out.stdout));
    }
}

#[test]
fn chart_combat_reads_the_rulebook_example() {
    // HSN combat example (GCACW 7.5): +4, Brown (8) attacks Wagner (7): Wagner 1DR, Brown fa.
    let out = caisson(&["chart", "gcacw", "combat", "--diff", "+4", "--attacker-cv", "8", "--defender-cv", "7"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("row +4"), "{stdout}");
    assert!(stdout.contains("Defender: Combat value 7 (before entrenchment), column 7–11 → 1DR"), "{stdout}");
    assert!(stdout.contains("Attacker: Combat value 8, column 7–11 → fa"), "{stdout}");
    for meaning in ["  D  Disorganize/Fatigue", "  R  Rout/Demoralize-1", "  f  Fatigue-1", "  a  Advance"] {
        assert!(stdout.contains(meaning), "`{meaning}` missing:\n{stdout}");
    }
    assert!(stdout.contains("GCACW 7.5"), "{stdout}");
    assert!(!stdout.contains('†'), "the Combat Chart is official:\n{stdout}");
    // Negative rows, halves, and rows beyond the chart.
    let out =
        caisson(&["chart", "gcacw", "combat", "--diff", "-30", "--attacker-cv", "3½", "--defender-cv", "0.5"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("row -8") && stdout.contains("beyond the chart"), "{stdout}");
    assert!(stdout.contains("Attacker: Combat value 3½, column 4–6 → 4D"), "{stdout}");
}

#[test]
fn chart_marks_reconstructed_values() {
    let out = caisson(&["chart", "gcacw", "extended-march"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = |label: &str| stdout.lines().find(|l| l.starts_with(label)).unwrap_or_default().to_string();
    // Organized 5 (NE, the Newton example) and 6 (D, a GTC example) are attested; 7 is not.
    let six = row("6 ");
    assert!(six.contains(" D ") && !six.contains("D†"), "{six}");
    assert!(row("7 ").contains("D†"), "{}", row("7 "));
    assert!(row("11 or more").contains('†'), "{stdout}");
    assert!(stdout.contains("† 82 of 84 values are reconstructed"), "{stdout}");
    assert!(stdout.contains("  † Organized, modified roll 9 → D: unknown row"), "{stdout}");
    assert!(!stdout.contains("(not marked above)"), "every reconstructed value is placed:\n{stdout}");
    // The official Combat Chart has none.
    let out = caisson(&["chart", "gcacw", "combat"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("No value of this chart is reconstructed."), "{stdout}");
    assert!(stdout.contains("≥+10  3DR*"), "{stdout}");
}

#[test]
fn chart_errors_exit_2_with_a_message() {
    let out = caisson(&["chart", "gcacw", "supply"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("caisson: no chart `supply` in gcacw; the charts are: combat, terrain"), "{stderr}");
    let combat = ["chart", "gcacw", "combat", "--diff", "+4"];
    for (args, message) in [
        (&["chart", "hsn", "combat"][..], "unknown rule system `hsn`"),
        (&["chart", "combat"][..], "write `caisson chart gcacw combat`"),
        (&[&combat[..], &["--attacker-cv", "0", "--defender-cv", "7"]].concat()[..], "at least ½"),
        (&[&combat[..], &["--attacker-cv", "-3", "--defender-cv", "7"]].concat()[..], "cannot be negative"),
        (&[&combat[..], &["--attacker-cv", "8", "--defender-cv", "seven"]].concat()[..], "not a Combat value"),
        (&[&combat[..], &["--attacker-cv", "8", "--defender-cv", "2.25"]].concat()[..], "a whole number or a half"),
        (
            &["chart", "gcacw", "combat", "--diff", "four", "--attacker-cv", "8", "--defender-cv", "7"][..],
            "differential",
        ),
        (&combat[..], "needs all three"),
        (
            &["chart", "gcacw", "ratio", "--diff", "1", "--attacker-cv", "8", "--defender-cv", "7"][..],
            "not the `ratio`",
        ),
    ] {
        let out = caisson(args, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: `{message}` not in {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// The chart layout is the library's, for any registry: here the toy race's one chart.
#[test]
fn chart_layout_counts_and_marks_for_any_registry() {
    use caisson::Registry;
    let reg = common::ToyRegistry;
    let rows = caisson::charts::list(&reg).expect("the toy charts");
    assert_eq!((rows.len(), rows[0].values, rows[0].reconstructed), (1, 2, 1));
    let mut out = Vec::new();
    caisson::charts::write_list("toy", &rows, &mut out).expect("written");
    let list = text(&out);
    assert!(list.contains("speed  how far a racer moves  Race 1.0  rulebook section  1 of 2 values"), "{list}");
    let mut out = Vec::new();
    caisson::charts::write_chart(&reg.chart("speed").expect("the speed chart"), &mut out).expect("written");
    let chart = text(&out);
    assert!(chart.starts_with("Speed Table (Race 1.0)\nSource: Race 1.0\n"), "{chart}");
    assert!(chart.contains("\n1-5     1\n6       2†\n"), "{chart}");
    assert!(chart.contains("\n† 1 of 2 values is reconstructed"), "{chart}");
    assert!(chart.contains("  † 6 → 2: a guess\n"), "{chart}");
    assert!(reg.chart("nothing").is_err());
}

#[test]
fn bot_match_reports_balance_as_json_and_plots_the_vp() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let plot = dir.join("vp.svg");
    let args = [
        "bot-match",
        "hsn-1",
        "--games",
        "4",
        "--union",
        "random",
        "--confederate",
        "ai-easy",
        "--jobs",
        "2",
        "--json",
        "--plot",
        plot.to_str().expect("utf-8 path"),
    ];
    let out = caisson(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(report["games"], 4);
    assert_eq!(report["finished"], 4);
    assert_eq!(report["union"], "random");
    assert_eq!(report["confederate"], "ai-easy");
    assert_eq!(report["vp_side"], "confederate");
    let levels: u64 = report["levels"].as_object().expect("levels").values().filter_map(|v| v.as_u64()).sum();
    assert_eq!(levels, 4, "every finished game has a victory level");
    assert_eq!(report["results"].as_array().map(Vec::len), Some(4));
    assert!(report["decisions"]["mean"].as_f64().is_some_and(|d| d > 10.0));
    let svg = std::fs::read_to_string(&plot).expect("the plot was written");
    assert!(svg.starts_with("<svg") && svg.contains("Confederate Decisive Victory"), "{svg}");
    assert!(svg.contains(" game") && !svg.contains(": 1 games<"), "a bar's tooltip counts its games in words: {svg}");
    // The same seeds give the same games whatever the number of threads.
    let one_thread = caisson(&args.map(|a| if a == "2" { "1" } else { a }), "");
    let again: serde_json::Value = serde_json::from_slice(&one_thread.stdout).expect("JSON");
    let vps = |r: &serde_json::Value| {
        r["results"].as_array().map(|rs| rs.iter().map(|g| g["outcome"]["vp"].clone()).collect::<Vec<_>>())
    };
    assert_eq!(vps(&report), vps(&again));
    assert!(caisson(&["bot-match", "hsn-1", "--union", "genius"], "").status.code() == Some(2));
}

#[test]
fn bot_reports_of_split_seeds_merge_into_the_report_of_the_whole_match() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let play = |seed: &str, games: &str, confederate: &str, name: &str| {
        let args =
            ["bot-match", "hsn-1", "--games", games, "--seed", seed, "--union", "random", "--confederate", confederate];
        let out = caisson(&[&args[..], &["--json"]].concat(), "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let file = dir.join(name);
        std::fs::write(&file, &out.stdout).expect("write the report");
        file.to_str().expect("utf-8 path").to_string()
    };
    let whole_file = play("1", "4", "ai-easy", "whole.json");
    let first = play("1", "2", "ai-easy", "first.json");
    let second = play("3", "2", "ai-easy", "second.json");
    let merged = caisson(&["bot-report", &second, &first, "--json"], "");
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).expect("one JSON report");
    let whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole_file).expect("read")).expect("JSON");
    // Everything but the timings is worked out from the games, whichever order the files come in.
    for field in ["games", "finished", "wins", "levels", "vp_side", "vp", "losses", "decisions", "seed"] {
        assert_eq!(merged[field], whole[field], "{field}");
    }
    let outcomes = |r: &serde_json::Value| {
        r["results"]
            .as_array()
            .map(|rs| rs.iter().map(|g| (g["seed"].clone(), g["outcome"].clone())).collect::<Vec<_>>())
    };
    assert_eq!(outcomes(&merged), outcomes(&whole));
    assert_eq!(merged["matches"], 2);
    let shown = text(&caisson(&["bot-report", &first, &second], "").stdout);
    assert!(shown.contains("games finished:  4 of 4 (seeds 1..=4)"), "{shown}");
    assert!(shown.contains("s in all, 2 matches)"), "{shown}");
    // A game in two reports, reports of different players, a file that is no report: refused.
    let twice = caisson(&["bot-report", &first, &whole_file], "");
    assert!(
        !twice.status.success() && text(&twice.stderr).contains("seed 1 is in two reports"),
        "{}",
        text(&twice.stderr)
    );
    let other = play("5", "1", "random", "other.json");
    let mixed = caisson(&["bot-report", &first, &other], "");
    assert!(
        !mixed.status.success()
            && text(&mixed.stderr).contains("report 2 is of hsn-1 (Union random, Confederate random"),
        "{}",
        text(&mixed.stderr)
    );
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"scenario\": 3}").expect("write");
    let bad = caisson(&["bot-report", junk.to_str().expect("utf-8 path")], "");
    assert!(
        !bad.status.success() && text(&bad.stderr).contains("junk.json: not a `bot-match --json` report"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn two_bots_compare_over_the_same_seeds_with_their_sides_swapped() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let play = |union: &str, confederate: &str, name: &str| {
        let args = ["bot-match", "hsn-1", "--games", "2", "--union", union, "--confederate", confederate, "--json"];
        let out = caisson(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let file = dir.join(name);
        std::fs::write(&file, &out.stdout).expect("write the report");
        file.to_str().expect("utf-8 path").to_string()
    };
    let first = play("ai-easy", "random", "first.json");
    let second = play("random", "ai-easy", "second.json");
    let out = caisson(&["bot-compare", &first, &second, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cmp: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON comparison");
    assert_eq!(cmp["seeds"], serde_json::json!([1, 2]));
    assert_eq!(cmp["vp_side"], "confederate");
    let n = |v: &serde_json::Value| v.as_u64().expect("a count");
    let won = |bot: &serde_json::Value| n(&bot["union_wins"]) + n(&bot["confederate_wins"]);
    assert_eq!(won(&cmp["bots"][0]) + won(&cmp["bots"][1]) + n(&cmp["no_winner"]), 4, "{cmp}");
    assert_eq!(n(&cmp["better"]) + n(&cmp["equal"]) + n(&cmp["worse"]), 2, "{cmp}");
    // The heuristic beats the random player in every game, and in the Confederate seat (whose VP
    // count) it scores more with each seed than the random player does.
    assert_eq!((won(&cmp["bots"][0]), n(&cmp["better"])), (4, 2), "{cmp}");
    let shown = text(&caisson(&["bot-compare", &first, &second], "").stdout);
    assert!(
        shown.contains("bots:          ai-easy against random, each seed played both ways: 2 seeds, 4 games"),
        "{shown}"
    );
    // The same match twice is no comparison.
    let same = caisson(&["bot-compare", &first, &first], "");
    assert!(
        !same.status.success() && text(&same.stderr).contains("are not the first's swapped"),
        "{}",
        text(&same.stderr)
    );
}

#[test]
fn a_bot_match_counts_the_searching_sides_playouts() {
    let args = ["bot-match", "hsn-1", "--games", "1", "--union", "ai-normal", "--confederate", "ai-easy", "--json"];
    let out = caisson(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    // ai-normal gives each option it tries at least four rounds of rollouts; ai-easy never
    // searches.
    let union = report["search"]["union"]["playouts"].as_u64().expect("union playouts");
    assert!(union >= 4, "{report}");
    assert!(report["search"]["union"]["per_second"].as_f64().is_some_and(|s| s > 0.0), "{report}");
    assert_eq!(report["search"]["confederate"]["playouts"], 0, "{report}");
}

#[test]
fn a_bot_match_game_saved_loads_with_its_whole_log_and_final_score() {
    let tmp = temp_dir();
    let dir = tmp.path();
    let saves = dir.join("saves");
    let args = ["bot-match", "hsn-1", "--games", "1", "--seed", "7", "--union", "random", "--confederate", "ai-easy"];
    let out = caisson(&[&args[..], &["--saves", saves.to_str().expect("utf-8 path")]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let save = saves.join("hsn-1-7.json");
    let loaded = caisson(&["load", save.to_str().expect("utf-8 path")], "");
    let shown = text(&loaded.stdout);
    // A finished game is shown from its first entry to the itemised score.
    assert!(shown.contains("Turn 1 begins. [GCACW 3.0]"), "{shown}");
    assert!(shown.contains("Confederate VP total:") && shown.contains("Game over."), "{shown}");
    assert!(!shown.contains("earlier log entries not shown"), "{shown}");
}
