//! `caisson serve` over real HTTP on loopback: in-process servers with the toy registry (each
//! test on its own port and SQLite file), and the real binary with the GCACW rules for hsn-1,
//! restarts and a SIGKILL. The store's own guarantees (one of two simultaneous actions, two
//! servers sharing a database, undo, SIGKILL) are also checked on PostgreSQL when the run has a
//! test server (`CAISSON_TEST_POSTGRES`, which `scripts/test.sh` starts).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use caisson::serve::{listen, store, App};
use common::{temp_dir, ToyRegistry};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_caisson");

/// A server in this process, on its own port and database; it stops when dropped.
struct Server {
    base: String,
    _runtime: tokio::runtime::Runtime,
    /// The server's own SQLite database, if it has one, removed after the server stops.
    _db: Option<Sqlite>,
}

fn toy_server_on(database: &str) -> Server {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let store = store::open(database).expect("database opens");
    let app = Arc::new(App::new(Arc::new(ToyRegistry), store));
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("bind");
    let addr = listener.local_addr().expect("address");
    runtime.spawn(listen(app, listener));
    Server { base: format!("http://{addr}"), _runtime: runtime, _db: None }
}

fn toy_server() -> Server {
    let db = sqlite("serve.db");
    let server = toy_server_on(&db.url);
    Server { _db: Some(db), ..server }
}

/// A new SQLite database in a temporary folder, removed with the folder when dropped.
struct Sqlite {
    url: String,
    _dir: tempfile::TempDir,
}

fn sqlite(name: &str) -> Sqlite {
    let dir = temp_dir();
    Sqlite { url: format!("sqlite:{}", dir.path().join(name).display()), _dir: dir }
}

/// The URL of this run's PostgreSQL test database, or `None` (said on stderr) if it has none.
fn postgres() -> Option<String> {
    let url = std::env::var("CAISSON_TEST_POSTGRES").ok();
    if url.is_none() {
        eprintln!("no CAISSON_TEST_POSTGRES: the PostgreSQL case is not run (scripts/test.sh starts a server)");
    }
    url
}

/// The real binary, serving GCACW games; killed (SIGKILL) when dropped.
struct Binary {
    base: String,
    child: Child,
}

impl Binary {
    fn start(database: &str) -> Binary {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0", "--database", database])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("caisson serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("a first line");
        let base = line.trim().strip_prefix("listening on ").expect("`listening on URL`").to_string();
        Binary { base, child }
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Reply {
    status: u16,
    body: Value,
    text: String,
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

fn finish(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
    let mut response = response.expect("an HTTP answer");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("a body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply { status, body, text }
}

fn get(url: &str, token: Option<&str>) -> Reply {
    let mut req = agent().get(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    finish(req.call())
}

fn post(url: &str, token: Option<&str>, body: &str) -> Reply {
    let mut req = agent().post(url).header("Content-Type", "application/json");
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    finish(req.send(body))
}

/// A new game: its id and its seats' tokens.
fn create(base: &str, request: Value) -> (String, Value) {
    let r = post(&format!("{base}/api/games"), None, &request.to_string());
    assert_eq!(r.status, 201, "{}", r.text);
    (r.body["game"].as_str().expect("game id").to_string(), r.body["seats"].clone())
}

fn act(base: &str, game: &str, token: &str, seq: u64, option: &str) -> Reply {
    post(&format!("{base}/api/games/{game}/actions"), Some(token), &json!({"seq": seq, "option": option}).to_string())
}

fn token<'a>(seats: &'a Value, seat: &str) -> &'a str {
    seats[seat].as_str().expect("a seat token")
}

fn options(game: &Value) -> Vec<String> {
    game["decision"]["options"]
        .as_array()
        .map(|o| o.iter().filter_map(|c| c["id"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[test]
fn a_hotseat_game_is_created_played_and_read_back() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race", "seed": 4, "mode": "hotseat"}));
    let table = token(&seats, "table");
    let g = get(&format!("{}/api/games/{game}", s.base), Some(table));
    assert_eq!(g.status, 200);
    assert_eq!(g.body["seq"], 0);
    assert_eq!(g.body["seat"], "table");
    assert_eq!(g.body["waiting_for"], "union");
    assert_eq!(g.body["can_act"], true);
    assert_eq!(g.body["over"], false);
    assert_eq!(g.body["setup"]["seed"], 4);
    assert_eq!(g.body["view"]["viewer"], Value::Null, "the table sees the view for both sides");
    assert_eq!(options(&g.body), ["roll:1", "roll:2", "pass"]);
    assert!(g.body["notices"][0].as_str().is_some_and(|n| n.contains("toy")));

    let r = act(&s.base, &game, table, 0, "roll:1");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["seq"], 1);
    assert_eq!(r.body["waiting_for"], "confederate");
    let rolled = r.body["log"].as_array().and_then(|l| l.iter().find(|e| e["roll"].is_object())).cloned();
    assert!(rolled.is_some(), "the seeded roll is logged: {}", r.body["log"]);
    let again = get(&format!("{}/api/games/{game}", s.base), Some(table));
    assert_eq!(again.body, r.body, "a GET gives the game the action answered with");
}

#[test]
fn an_hsn_1_game_marches_through_the_real_binary() {
    let db = sqlite("hsn.db");
    let server = Binary::start(&db.url);
    let base = &server.base;
    let (game, seats) = create(base, json!({"scenario": "hsn-1", "seed": 3}));
    let table = token(&seats, "table");
    let mut g = get(&format!("{base}/api/games/{game}"), Some(table)).body;
    assert_eq!(g["setup"]["scenario"], "hsn-1");
    assert!(g["view"]["units"].as_array().is_some_and(|u| !u.is_empty()));
    // Both leader transfer phases end at once; then the first action phase offers marches.
    while !options(&g).iter().any(|o| o.starts_with("march:")) {
        assert!(options(&g).contains(&"done".to_string()), "{}", g["decision"]);
        let seq = g["seq"].as_u64().expect("seq");
        g = act(base, &game, table, seq, "done").body;
        assert!(seq < 10, "no march offered");
    }
    // A hint names an offered option, the same one each time, and changes nothing.
    let hint = get(&format!("{base}/api/games/{game}/hint"), Some(table));
    assert_eq!(hint.status, 200, "{}", hint.text);
    let advised = hint.body["option"].as_str().expect("an option id").to_string();
    assert!(options(&g).contains(&advised), "{advised} is not offered: {}", g["decision"]);
    assert!(hint.body["label"].as_str().is_some_and(|l| !l.is_empty()), "{}", hint.text);
    assert_eq!(hint.body["bot"], "ai-normal");
    assert_eq!(hint.body["seq"], g["seq"]);
    assert_eq!(get(&format!("{base}/api/games/{game}/hint"), Some(table)).body, hint.body);
    assert_eq!(get(&format!("{base}/api/games/{game}"), Some(table)).body["seq"], g["seq"]);
    let march = options(&g).into_iter().find(|o| o.starts_with("march:")).expect("a march option");
    let leader = march.trim_start_matches("march:").to_string();
    let seq = g["seq"].as_u64().expect("seq");
    let r = act(base, &game, table, seq, &march);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["seq"], seq + 1);
    let log = r.body["log"].to_string().to_lowercase();
    assert!(log.contains(&format!("{leader} marches")), "the log tells of the march: {log}");
    let stored = get(&format!("{base}/api/games/{game}"), Some(table));
    assert_eq!(stored.body["seq"], seq + 1);
    assert_eq!(stored.body["decision"], r.body["decision"]);

    // The map the page draws, and the page itself.
    let map = get(&format!("{base}/api/maps/hsn.svg"), None);
    assert_eq!(map.status, 200);
    assert!(map.text.starts_with("<svg"));
    let page = get(&format!("{base}/"), None);
    assert_eq!(page.status, 200);
    assert!(page.text.to_lowercase().contains("<html"));
}

#[test]
fn undo_takes_back_a_transfer_and_is_stored() {
    undo_is_stored(&sqlite("undo.db").url);
}

#[test]
fn undo_is_stored_in_postgres() {
    if let Some(url) = postgres() {
        undo_is_stored(&url);
    }
}

fn undo_is_stored(db: &str) {
    let server = Binary::start(db);
    let base = &server.base;
    let (game, seats) = create(base, json!({"scenario": "hsn-1", "seed": 3}));
    let table = token(&seats, "table");
    let r = act(base, &game, table, 0, "transfer:schofield");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["can_undo"], true);
    let undo_url = format!("{base}/api/games/{game}/undo");
    assert_eq!(post(&undo_url, Some(table), r#"{"seq": 0}"#).status, 409, "undo with a stale seq");
    let u = post(&undo_url, Some(table), r#"{"seq": 1}"#);
    assert_eq!(u.status, 200, "{}", u.text);
    assert_eq!(u.body["seq"], 0);
    assert_eq!(u.body["can_undo"], false);
    assert!(options(&u.body).contains(&"transfer:schofield".to_string()));
    assert_eq!(post(&undo_url, Some(table), r#"{"seq": 0}"#).status, 400, "nothing left to undo");
    // The undo is stored: a new process sees it, and the game goes on from seq 0.
    drop(server);
    let server = Binary::start(db);
    let g = get(&format!("{}/api/games/{game}", server.base), Some(table));
    assert_eq!(g.body["seq"], 0);
    assert_eq!(act(&server.base, &game, table, 0, "done").status, 200);
}

#[test]
fn hostile_requests_get_json_errors_and_change_nothing() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race", "seed": 1}));
    let (other, other_seats) = create(&s.base, json!({"scenario": "race", "seed": 1}));
    let table = token(&seats, "table");
    let actions = format!("{}/api/games/{game}/actions", s.base);
    let cases: Vec<(&str, Reply, u16)> = vec![
        ("malformed JSON", post(&actions, Some(table), "{oops"), 400),
        ("not an object", post(&actions, Some(table), "[1, 2]"), 400),
        ("no seq", post(&actions, Some(table), r#"{"option": "pass"}"#), 400),
        ("negative seq", post(&actions, Some(table), r#"{"seq": -1, "option": "pass"}"#), 400),
        ("no option", post(&actions, Some(table), r#"{"seq": 0}"#), 400),
        ("illegal option", act(&s.base, &game, table, 0, "roll:7"), 400),
        ("stale seq", act(&s.base, &game, table, 3, "pass"), 409),
        ("unknown game", act(&s.base, "nosuchgame", table, 0, "pass"), 404),
        ("unknown game, GET", get(&format!("{}/api/games/nosuchgame", s.base), Some(table)), 404),
        ("missing token", post(&actions, None, r#"{"seq": 0, "option": "pass"}"#), 401),
        ("another game's token", act(&s.base, &game, token(&other_seats, "table"), 0, "pass"), 403),
        ("a made-up token", act(&s.base, &game, "00000000000000000000000000000000", 0, "pass"), 403),
        ("unknown path", get(&format!("{}/api/nothing", s.base), None), 404),
        ("wrong method", get(&format!("{}/api/games/{game}/actions", s.base), Some(table)), 405),
        ("unknown scenario", post(&format!("{}/api/games", s.base), None, r#"{"scenario": "nope"}"#), 400),
        ("bad mode", post(&format!("{}/api/games", s.base), None, r#"{"scenario": "race", "mode": "x"}"#), 400),
        ("bad seed", post(&format!("{}/api/games", s.base), None, r#"{"scenario": "race", "seed": -2}"#), 400),
        ("bad bot", post(&format!("{}/api/games", s.base), None, r#"{"scenario": "race", "bot": "genius"}"#), 400),
        ("unknown map", get(&format!("{}/api/maps/nope.svg", s.base), None), 404),
        ("replay past the end", get(&format!("{}/api/games/{game}/replay?at=5", s.base), Some(table)), 400),
        ("replay without at", get(&format!("{}/api/games/{game}/replay", s.base), Some(table)), 400),
    ];
    for (what, reply, status) in cases {
        assert_eq!(reply.status, status, "{what}: {}", reply.text);
        assert!(
            reply.body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: not a JSON error: {}",
            reply.text
        );
    }
    let g = get(&format!("{}/api/games/{game}", s.base), Some(table));
    assert_eq!(g.body["seq"], 0, "no refused request stored anything");
    assert_eq!(get(&format!("{}/api/games/{other}", s.base), Some(table)).status, 403);
}

/// Sends a raw request and returns the status line and the rest.
fn raw(base: &str, request: &str) -> String {
    let addr = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    // The server may answer before it has read all of a long request.
    let _ = stream.write_all(request.as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn a_body_over_one_mebibyte_gets_413() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race"}));
    let table = token(&seats, "table");
    // The declared length alone is refused, before any of the body is read.
    let answer = raw(
        &s.base,
        &format!(
            "POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {table}\r\n\
             Content-Type: application/json\r\nContent-Length: 1048577\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
    // A body of undeclared length is read up to the limit and refused there.
    let chunk = "x".repeat((1 << 20) + 1);
    let answer = raw(
        &s.base,
        &format!(
            "POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {table}\r\n\
             Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
            chunk.len()
        ),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{}", answer.get(..200).unwrap_or(&answer));
    // Exactly 1 MiB is read, and refused only as JSON.
    let head = r#"{"seq": 0, "option": "pass""#;
    let padded = format!("{head}{}}}", " ".repeat((1 << 20) - head.len() - 1));
    assert_eq!(padded.len(), 1 << 20);
    let r = post(&format!("{}/api/games/{game}/actions", s.base), Some(table), &padded);
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn of_two_simultaneous_actions_with_one_seq_exactly_one_applies() {
    let s = toy_server();
    exactly_one_applies(&s, &s);
    let db = sqlite("race.db");
    exactly_one_applies(&toy_server_on(&db.url), &toy_server_on(&db.url));
}

#[test]
fn of_two_simultaneous_actions_on_postgres_exactly_one_applies() {
    if let Some(url) = postgres() {
        let s = toy_server_on(&url);
        exactly_one_applies(&s, &s);
        exactly_one_applies(&toy_server_on(&url), &toy_server_on(&url));
    }
}

/// Sends two different actions on the same `seq` at once, one to each server (they may be one).
fn exactly_one_applies(a: &Server, b: &Server) {
    for round in 0..5 {
        let (game, seats) = create(&a.base, json!({"scenario": "race", "seed": round}));
        let table = token(&seats, "table").to_string();
        let barrier = Arc::new(Barrier::new(2));
        let threads: Vec<_> = [(&a.base, "roll:1"), (&b.base, "pass")]
            .into_iter()
            .map(|(base, option)| {
                let (base, game, table, barrier) = (base.clone(), game.clone(), table.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    act(&base, &game, &table, 0, option).status
                })
            })
            .collect();
        let mut statuses: Vec<u16> = threads.into_iter().map(|t| t.join().expect("thread")).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "round {round}");
        for s in [a, b] {
            assert_eq!(get(&format!("{}/api/games/{game}", s.base), Some(&table)).body["seq"], 1);
        }
    }
}

#[test]
fn two_servers_on_one_database_never_serve_a_stale_game() {
    two_servers_agree(&sqlite("shared.db").url);
}

#[test]
fn two_servers_on_one_postgres_database_never_serve_a_stale_game() {
    if let Some(url) = postgres() {
        two_servers_agree(&url);
    }
}

fn two_servers_agree(db: &str) {
    let a = toy_server_on(db);
    let b = toy_server_on(db);
    let (game, seats) = create(&a.base, json!({"scenario": "race", "seed": 9}));
    let table = token(&seats, "table");
    assert_eq!(get(&format!("{}/api/games/{game}", b.base), Some(table)).body["seq"], 0);
    assert_eq!(act(&a.base, &game, table, 0, "roll:2").status, 200);
    let seen = get(&format!("{}/api/games/{game}", b.base), Some(table));
    assert_eq!(seen.body["seq"], 1, "b sees what a stored");
    assert_eq!(act(&b.base, &game, table, 0, "pass").status, 409, "b refuses an action on the old game");
    assert_eq!(act(&b.base, &game, table, 1, "pass").status, 200);
    let from_a = get(&format!("{}/api/games/{game}", a.base), Some(table));
    assert_eq!(from_a.body["seq"], 2);
    assert_eq!(from_a.body["view"], get(&format!("{}/api/games/{game}", b.base), Some(table)).body["view"]);
}

#[test]
fn an_answered_action_survives_sigkill() {
    survives_sigkill(&sqlite("kill.db").url);
}

#[test]
fn an_answered_action_survives_sigkill_with_postgres() {
    if let Some(url) = postgres() {
        survives_sigkill(&url);
    }
}

fn survives_sigkill(db: &str) {
    let mut server = Binary::start(db);
    let (game, seats) = create(&server.base, json!({"scenario": "hsn-1", "seed": 5}));
    let table = token(&seats, "table").to_string();
    let r = act(&server.base, &game, &table, 0, "done");
    assert_eq!(r.status, 200, "{}", r.text);
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("reaped");
    let server = Binary::start(db);
    let g = get(&format!("{}/api/games/{game}", server.base), Some(&table));
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.body["seq"], 1);
    assert_eq!(g.body["decision"], r.body["decision"]);
    assert_eq!(g.body["view"], r.body["view"]);
}

#[test]
fn the_computer_moves_for_its_side_reproducibly() {
    let s = toy_server();
    let play = || {
        let (game, seats) =
            create(&s.base, json!({"scenario": "race", "seed": 11, "mode": "computer", "computer": "confederate"}));
        let table = token(&seats, "table").to_string();
        let r = act(&s.base, &game, &table, 0, "roll:1");
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body["seq"], 2, "the computer answered at once");
        assert_eq!(r.body["waiting_for"], "union");
        assert_eq!(r.body["computer"], "confederate");
        assert_eq!(r.body["bot"], "ai-normal", "the computer opponent is the default bot");
        let save = get(&format!("{}/api/games/{game}/save?token={table}", s.base), None);
        assert_eq!(save.status, 200);
        save.body["actions"].clone()
    };
    let first = play();
    assert_eq!(first, play(), "the same seed and choices give the same computer choices");

    // Playing the union, the computer moves before the first answer.
    let (game, seats) = create(&s.base, json!({"scenario": "race", "mode": "computer", "computer": "union"}));
    let table = token(&seats, "table");
    let g = get(&format!("{}/api/games/{game}", s.base), Some(table));
    assert_eq!(g.body["seq"], 1);
    assert_eq!(g.body["waiting_for"], "confederate");
    assert_eq!(g.body["can_act"], true);
    assert_eq!(g.body["view"]["viewer"], "confederate", "against the computer the table gets the human side's view");

    // The random player may be asked for by name, and is kept with the game.
    let (game, seats) =
        create(&s.base, json!({"scenario": "race", "mode": "computer", "computer": "union", "bot": "random"}));
    let g = get(&format!("{}/api/games/{game}", s.base), Some(token(&seats, "table")));
    assert_eq!(g.body["bot"], "random");
}

#[test]
fn online_seats_see_their_own_view_and_act_only_for_their_side() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race", "mode": "online"}));
    assert!(seats.get("table").is_none(), "an online game has no table seat: {seats}");
    let (union, confederate) = (token(&seats, "union"), token(&seats, "confederate"));
    assert_ne!(union, confederate);
    let url = format!("{}/api/games/{game}", s.base);
    let u = get(&url, Some(union)).body;
    let c = get(&url, Some(confederate)).body;
    assert_eq!((u["seat"].as_str(), c["seat"].as_str()), (Some("union"), Some("confederate")));
    assert_eq!(u["view"]["viewer"], "union");
    assert_eq!(c["view"]["viewer"], "confederate");
    assert_eq!(u["can_act"], true);
    assert_eq!(c["decision"], Value::Null, "the confederate does not see the union's decision");
    assert_eq!(c["waiting_for"], "union");
    let refused = act(&s.base, &game, confederate, 0, "pass");
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert_eq!(act(&s.base, &game, union, 0, "pass").status, 200);
    assert_eq!(act(&s.base, &game, union, 1, "pass").status, 403, "now it is the confederate's turn");
    let c = get(&url, Some(confederate)).body;
    assert_eq!(c["can_act"], true);
    assert_eq!(act(&s.base, &game, confederate, 1, "roll:1").status, 200);
}

#[test]
fn hints_are_refused_where_they_would_help_against_a_person_or_cannot_be_given() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race", "mode": "online"}));
    let hint = get(&format!("{}/api/games/{game}/hint", s.base), Some(token(&seats, "union")));
    assert_eq!(hint.status, 403, "{}", hint.text);
    assert!(hint.body["error"].as_str().is_some_and(|e| e.contains("online")), "{}", hint.text);
    // The computer opponent plays GCACW only: in the toy race it gives no hint, not a random one.
    let (game, seats) = create(&s.base, json!({"scenario": "race", "mode": "hotseat"}));
    let hint = get(&format!("{}/api/games/{game}/hint", s.base), Some(token(&seats, "table")));
    assert_eq!(hint.status, 400, "{}", hint.text);
    assert!(hint.body["error"].as_str().is_some_and(|e| e.contains("no hint here")), "{}", hint.text);
    assert_eq!(get(&format!("{}/api/games/{game}/hint", s.base), None).status, 401);
}

#[test]
fn a_downloaded_save_imports_as_a_new_game_and_replays_step_by_step() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race", "seed": 21}));
    let table = token(&seats, "table");
    for (seq, option) in ["roll:2", "roll:1", "pass"].into_iter().enumerate() {
        assert_eq!(act(&s.base, &game, table, seq as u64, option).status, 200);
    }
    let save = get(&format!("{}/api/games/{game}/save?token={table}", s.base), None);
    assert_eq!(save.status, 200);
    assert_eq!(save.body["format"], "caisson-save");
    assert_eq!(save.body["actions"].as_array().map(Vec::len), Some(3));

    let imported = post(&format!("{}/api/games/import", s.base), None, &save.text);
    assert_eq!(imported.status, 201, "{}", imported.text);
    let copy = imported.body["game"].as_str().expect("id");
    assert_ne!(copy, game);
    let copy_token = imported.body["seats"]["table"].as_str().expect("token");
    let original = get(&format!("{}/api/games/{game}", s.base), Some(table)).body;
    let copied = get(&format!("{}/api/games/{copy}", s.base), Some(copy_token)).body;
    assert_eq!(copied["seq"], 3);
    assert_eq!(copied["view"], original["view"]);

    let wrapped = json!({"save": save.body, "mode": "online"});
    let online = post(&format!("{}/api/games/import", s.base), None, &wrapped.to_string());
    assert_eq!(online.status, 201, "{}", online.text);
    assert!(online.body["seats"]["union"].is_string() && online.body["seats"]["confederate"].is_string());

    let mut altered = save.body.clone();
    altered["actions"][1]["choice"] = json!("roll:2");
    let refused = post(&format!("{}/api/games/import", s.base), None, &altered.to_string());
    assert_eq!(refused.status, 400);
    assert!(refused.body["error"].as_str().is_some_and(|e| e.contains("altered")), "{}", refused.text);

    let at1 = get(&format!("{}/api/games/{game}/replay?at=1", s.base), Some(table)).body;
    assert_eq!(at1["seq"], 1);
    assert_eq!(at1["decision"], Value::Null);
    assert_eq!(at1["can_act"], false);
    assert_eq!(at1["waiting_for"], "confederate");
    let at3 = get(&format!("{}/api/games/{game}/replay?at=3", s.base), Some(table)).body;
    assert_eq!(at3["view"], original["view"]);
}

#[test]
fn the_event_stream_announces_each_new_action() {
    let s = toy_server();
    let (game, seats) = create(&s.base, json!({"scenario": "race"}));
    let table = token(&seats, "table").to_string();
    let addr = s.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    write!(stream, "GET /api/games/{game}/events?token={table} HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
    let mut reader = BufReader::new(stream);
    let mut wait_for = |wanted: &str| {
        let mut seen = String::new();
        while !seen.contains(wanted) {
            let mut line = String::new();
            let n = reader.read_line(&mut line).expect("the stream goes on");
            assert!(n > 0, "the stream ended; saw {seen}");
            seen.push_str(&line);
        }
        seen
    };
    let head = wait_for("data: {\"seq\":0}");
    assert!(head.contains("text/event-stream"), "{head}");
    assert!(head.contains("event: update"), "{head}");
    assert_eq!(act(&s.base, &game, &table, 0, "roll:1").status, 200);
    wait_for("data: {\"seq\":1}");
    assert_eq!(act(&s.base, &game, &table, 1, "pass").status, 200);
    wait_for("data: {\"seq\":2}");
    // Without a token there is no stream.
    assert_eq!(get(&format!("{}/api/games/{game}/events", s.base), None).status, 401);
}

#[test]
fn an_unreachable_or_unknown_database_is_a_clear_error() {
    let cases = [
        ("postgres://caisson@127.0.0.1:1/caisson", "cannot connect to PostgreSQL"),
        ("postgres://[oops", "the PostgreSQL URL cannot be read"),
        ("mysql://localhost/caisson", "unknown database `mysql://localhost/caisson`"),
        ("sqlite:", "`sqlite:` needs a file name"),
    ];
    for (url, says) in cases {
        let out = Command::new(BIN).args(["serve", "--port", "0", "--database", url]).output().expect("caisson runs");
        assert_eq!(out.status.code(), Some(2), "{url}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{url}: {err}");
    }
}

#[test]
fn a_panic_in_the_rules_is_a_json_500_and_the_stored_game_is_untouched() {
    let s = toy_server();
    for scenario in ["boom", "boom-after"] {
        let (game, seats) = create(&s.base, json!({"scenario": scenario, "seed": 2}));
        let table = token(&seats, "table");
        let r = act(&s.base, &game, table, 0, "pass");
        assert_eq!(r.status, 500, "{scenario}: {}", r.text);
        assert!(r.body["error"].as_str().is_some_and(|e| e.starts_with("internal error")), "{}", r.text);
        // The game in memory may be half-changed; the server rebuilds it from the database.
        let g = get(&format!("{}/api/games/{game}", s.base), Some(table));
        assert_eq!(g.status, 200, "{scenario}: {}", g.text);
        assert_eq!(g.body["seq"], 0);
        assert_eq!(g.body["waiting_for"], "union");
        assert_eq!(act(&s.base, &game, table, 0, "roll:1").status, 200, "{scenario}: play goes on");
    }
}
