//! The random-game runner, in process, on the toy Race.

mod common;

use caisson::random::{run, write_report, Plan};
use common::ToyRegistry;

fn plan(scenario: &str, games: u64, max_steps: u64) -> Plan {
    Plan { scenario: scenario.into(), games, seed: 1, max_steps, options: vec![] }
}

#[test]
fn random_games_finish_and_are_counted() {
    let p = plan("race", 50, 10_000);
    let mut out = Vec::new();
    let report = run(&ToyRegistry, &p, &mut out).expect("run");
    assert_eq!((report.games, report.finished), (50, 50));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert!(report.decisions >= 50 * 4, "{}", report.decisions);
    assert!(out.is_empty(), "nothing to report while running");
    // The same plan makes the same decisions.
    let again = run(&ToyRegistry, &p, &mut Vec::new()).expect("run");
    assert_eq!(again.decisions, report.decisions);
    write_report(&p, &report, &mut out).expect("report");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("games finished:  50 of 50 (seeds 1..=50)"), "{text}");
    assert!(text.contains(&format!("decisions made:  {}", report.decisions)), "{text}");
    assert!(text.contains("decisions/s:"), "{text}");
    assert!(text.contains("failures:        0"), "{text}");
}

#[test]
fn a_panic_is_caught_and_reported_with_seed_and_choices() {
    let p = plan("boom", 20, 10_000);
    let mut out = Vec::new();
    let report = run(&ToyRegistry, &p, &mut out).expect("run");
    assert_eq!(report.games, 20);
    assert!(!report.failures.is_empty());
    assert_eq!(report.finished + report.failures.len() as u64, 20);
    let f = &report.failures[0];
    assert_eq!(f.message, "panic: boom: the rules cannot pass");
    assert_eq!(f.choices.last().map(String::as_str), Some("pass"));
    let text = String::from_utf8(out).expect("utf-8");
    let first = format!("FAILED seed {} after {} decisions: panic: boom", f.seed, f.choices.len());
    assert!(text.contains(&first), "{text}");
    assert!(
        text.contains(&format!("reproduce: caisson new boom --seed {} --union random --confederate random", f.seed))
    );
    assert!(text.contains(&format!("choices: {}", serde_json::to_string(&f.choices).expect("json"))));
}

#[test]
fn a_game_that_does_not_end_within_max_steps_is_a_failure() {
    let report = run(&ToyRegistry, &plan("race", 3, 2), &mut Vec::new()).expect("run");
    assert_eq!(report.finished, 0);
    assert_eq!(report.failures.len(), 3);
    assert_eq!(report.failures[0].message, "not over after 2 decisions");
    assert_eq!(report.decisions, 6);
}

#[test]
fn an_unknown_scenario_fails_every_game() {
    let report = run(&ToyRegistry, &plan("chess", 2, 10), &mut Vec::new()).expect("run");
    assert_eq!(report.failures.len(), 2);
    assert_eq!(report.failures[1].message, "cannot start: no scenario `chess`");
    assert_eq!(report.failures[1].seed, 2);
}
