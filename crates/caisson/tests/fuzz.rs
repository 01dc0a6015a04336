//! The fuzzing soak (`caisson fuzz`), in process, on the toy Race.

mod common;

use std::time::Duration;

use caisson::fuzz::{game_setup, run, write_summary, Campaign};
use caisson_kernel::{DiceMode, Save};
use common::{temp_dir, ToyRegistry};

fn campaign(scenario: &str, games: u64, jobs: usize) -> Campaign {
    Campaign {
        scenarios: vec![scenario.into()],
        seed: 1,
        duration: Duration::from_secs(60),
        games: Some(games),
        jobs,
        max_steps: 10_000,
        options: vec![],
    }
}

#[test]
fn a_campaign_plays_seeded_and_manual_games_and_checks_them() {
    let c = campaign("race", 60, 2);
    let mut out = Vec::new();
    let summary = run(&ToyRegistry, &c, None, None, &mut out).expect("run");
    assert!(summary.failures.is_empty(), "{:?}", summary.failures);
    assert_eq!((summary.games, summary.cut), (60, 0));
    assert!(summary.manual > 5 && summary.manual < 55, "a mix of dice modes: {} manual", summary.manual);
    assert!(summary.decisions >= 60 * 4, "{}", summary.decisions);
    assert!(out.is_empty(), "nothing to report");
    // A game is a function of its seed: the same campaign on one thread makes the same decisions.
    let again = run(&ToyRegistry, &campaign("race", 60, 1), None, None, &mut Vec::new()).expect("run");
    assert_eq!(again.decisions, summary.decisions);
    write_summary(&c, &summary, &mut out).expect("summary");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains(&format!("decisions made:  {}", summary.decisions)), "{text}");
    assert!(text.contains("failures:        0"), "{text}");
}

#[test]
fn game_setups_follow_the_seed_and_cycle_through_the_scenarios() {
    let mut c = campaign("race", 10, 1);
    c.scenarios = vec!["a".into(), "b".into(), "c".into()];
    c.seed = u64::MAX;
    let s = game_setup(&ToyRegistry, &c, 4);
    assert_eq!((s.scenario.as_str(), s.seed, s.system.as_str()), ("b", 3, "toy"));
    assert_eq!(game_setup(&ToyRegistry, &c, 4), s, "the same game every time");
    let modes: Vec<DiceMode> = (0..30).map(|i| game_setup(&ToyRegistry, &c, i).dice).collect();
    assert!(modes.contains(&DiceMode::Manual) && modes.contains(&DiceMode::Seeded));
}

#[test]
fn a_time_limit_stops_the_campaign() {
    let mut c = campaign("race", u64::MAX, 1);
    c.games = None;
    c.duration = Duration::from_millis(300);
    let summary = run(&ToyRegistry, &c, Some(Duration::from_millis(100)), None, &mut Vec::new()).expect("run");
    assert!(summary.elapsed < Duration::from_secs(5), "{:?}", summary.elapsed);
    assert!(summary.games > 0);
}

#[test]
fn a_panic_is_reported_with_its_reproduction_and_a_save() {
    let tmp = temp_dir();
    let dir = tmp.path().to_path_buf();
    let c = campaign("boom", 10, 2);
    let mut out = Vec::new();
    let summary = run(&ToyRegistry, &c, None, Some(&dir), &mut out).expect("run");
    // A boom game that never passes fails later: its save cannot be loaded (no `boom` to load).
    let f = summary.failures.iter().find(|f| f.message.starts_with("panic")).expect("a panic");
    assert_eq!(f.message, "panic: boom: the rules cannot pass");
    assert_eq!(f.choices.last().map(String::as_str), Some("pass"));
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.contains(&format!("reproduce: caisson fuzz --scenario boom --seed {} --games 1", f.setup.seed)),
        "{text}"
    );
    let path = dir.join(format!("fuzz-boom-{}.json", f.setup.seed));
    let save = Save::from_json(&std::fs::read_to_string(&path).expect("save written")).expect("a save");
    assert_eq!(save.setup, f.setup);
    assert_eq!(save.actions.len(), f.choices.len() - 1, "the choices before the one that failed");
}
