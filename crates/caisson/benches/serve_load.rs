//! Load test of `caisson serve`: 200 concurrent hot-seat games of hsn-1 on loopback, each
//! player choosing random legal options as fast as the server answers, for a fixed time.
//! Prints the action round-trip percentiles and the actions per second.
//!
//! `cargo bench -p caisson --bench serve_load` (`CAISSON_BENCH_SECS`, `CAISSON_BENCH_GAMES` to
//! change the 10 seconds and 200 games). The server is the real binary with the GCACW rules and a
//! SQLite file in the temporary directory (WAL, `synchronous=FULL`: every action is on disk
//! before its answer), so the figures include the commits; `CAISSON_BENCH_DATABASE=postgres://…`
//! measures the PostgreSQL store instead.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caisson_kernel::Dice;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_caisson");

/// What one player thread saw.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    refused: u64,
    games_finished: u64,
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn post(agent: &ureq::Agent, url: &str, token: Option<&str>, body: &Value) -> Result<(u16, Value), String> {
    let mut req = agent.post(url);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    let mut response = req.send_json(body).map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let value = response.body_mut().with_config().limit(64 << 20).read_json::<Value>().map_err(|e| e.to_string())?;
    Ok((status, value))
}

/// Creates a game and returns its id, token and first state.
fn new_game(agent: &ureq::Agent, base: &str, seed: u64) -> Result<(String, String, Value), String> {
    let (status, created) =
        post(agent, &format!("{base}/api/games"), None, &json!({"scenario": "hsn-1", "seed": seed}))?;
    if status != 201 {
        return Err(format!("create: {status} {created}"));
    }
    let id = created["game"].as_str().ok_or("no game id")?.to_string();
    let token = created["seats"]["table"].as_str().ok_or("no token")?.to_string();
    let mut response = agent
        .get(&format!("{base}/api/games/{id}"))
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .map_err(|e| e.to_string())?;
    let game = response.body_mut().with_config().limit(64 << 20).read_json::<Value>().map_err(|e| e.to_string())?;
    Ok((id, token, game))
}

fn player(base: &str, index: u64, until: Instant, max_actions: u64) -> Result<Tally, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut dice = Dice::new(index);
    let mut tally = Tally::default();
    let mut seed = index * 1000;
    let (mut id, mut token, mut game) = new_game(&agent, base, seed)?;
    while Instant::now() < until && (tally.latencies.len() as u64) < max_actions {
        let options: Vec<&str> = game["decision"]["options"]
            .as_array()
            .map(|o| o.iter().filter_map(|c| c["id"].as_str()).collect())
            .unwrap_or_default();
        if options.is_empty() {
            tally.games_finished += 1;
            seed += 1;
            (id, token, game) = new_game(&agent, base, seed)?;
            continue;
        }
        let option = options[dice.below(options.len())].to_string();
        let seq = game["seq"].as_u64().ok_or("no seq")?;
        let started = Instant::now();
        let (status, answer) = post(
            &agent,
            &format!("{base}/api/games/{id}/actions"),
            Some(&token),
            &json!({"seq": seq, "option": option}),
        )?;
        tally.latencies.push(started.elapsed());
        if status == 200 {
            game = answer;
        } else {
            tally.refused += 1;
        }
    }
    Ok(tally)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing: run briefly then.
    let benching = std::env::args().any(|a| a == "--bench");
    let secs = setting("CAISSON_BENCH_SECS", if benching { 10 } else { 1 });
    let games = setting("CAISSON_BENCH_GAMES", if benching { 200 } else { 4 });
    let db = std::env::temp_dir().join(format!("caisson-serve-load-{}.db", std::process::id()));
    let database = std::env::var("CAISSON_BENCH_DATABASE").unwrap_or_else(|_| format!("sqlite:{}", db.display()));
    // What the report names: the store, without any credentials in the URL.
    let store = if database.starts_with("sqlite:") {
        "SQLite, synchronous=FULL".to_string()
    } else {
        format!("PostgreSQL at {}", database.split('@').next_back().unwrap_or("?"))
    };
    let mut server = Command::new(BIN)
        .args(["serve", "--port", "0", "--database", &database])
        .stdout(Stdio::piped())
        .spawn()
        .expect("caisson serve starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().expect("stdout")).read_line(&mut line).expect("listening line");
    let base: Arc<str> = line.trim().trim_start_matches("listening on ").into();

    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let threads: Vec<_> = (0..games)
        .map(|i| {
            let base = base.clone();
            std::thread::spawn(move || player(&base, i + 1, until, 1_000_000))
        })
        .collect();
    let mut all = Tally::default();
    let mut failures = Vec::new();
    for t in threads {
        match t.join() {
            Ok(Ok(tally)) => {
                all.latencies.extend(tally.latencies);
                all.refused += tally.refused;
                all.games_finished += tally.games_finished;
            }
            Ok(Err(e)) => failures.push(e),
            Err(_) => failures.push("a player thread panicked".to_string()),
        }
    }
    let elapsed = started.elapsed();
    let _ = server.kill();
    let _ = server.wait();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }

    all.latencies.sort_unstable();
    let n = all.latencies.len();
    println!("serve_load: {games} concurrent hsn-1 games for {:.1} s on loopback ({store})", elapsed.as_secs_f64());
    println!(
        "  actions: {n} ({:.0}/s), refused: {}, games finished: {}, player errors: {}",
        n as f64 / elapsed.as_secs_f64(),
        all.refused,
        all.games_finished,
        failures.len()
    );
    println!(
        "  action round trip: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&all.latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&all.latencies, 0.99).as_secs_f64() * 1e3,
        all.latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    for f in failures.iter().take(5) {
        println!("  error: {f}");
    }
    assert!(failures.is_empty() && all.refused == 0 && n > 0, "the load run had errors");
}
