//! The search layer on the kernel's toy game "Race" (roll one die, two dice for one point less,
//! or pass; points race to 15): when the search overrules the heuristic prior, and when not.

use caisson_ai::search::{search, Budget};
use caisson_ai::Heuristics;
use caisson_kernel::toy::{Race, RaceState, SIDES};
use caisson_kernel::{Decision, Pending, Rules};

/// A prior that wrongly prefers passing, and a value of `scale` × the side's lead in points.
struct PassFirst {
    scale: f64,
}

impl Heuristics<Race> for PassFirst {
    fn priors(&self, _: &Race, _: &RaceState, decision: &Decision) -> Vec<f64> {
        decision.options.iter().map(|o| if o.id == "pass" { 1.0 } else { 0.0 }).collect()
    }

    fn value(&self, _: &Race, state: &RaceState, side: &str) -> f64 {
        let me = usize::from(side != SIDES[0]);
        self.scale * (f64::from(state.scores[me]) - f64::from(state.scores[1 - me]))
    }

    fn trim(&self, state: &mut RaceState) {
        state.log.clear();
    }

    fn clock(&self, state: &RaceState) -> u64 {
        u64::from(state.turn)
    }
}

fn first_decision(race: &Race) -> (RaceState, Decision) {
    let state = race.start();
    match race.pending(&state) {
        Pending::Decide(d) => (state, d),
        other => panic!("Race starts with a decision, not {other:?}"),
    }
}

const BUDGET: Budget = Budget { candidates: 3, rollouts: 8, confirm: 8, horizon: 1 };

#[test]
fn a_clearly_better_option_overrules_the_prior() {
    // Rolling gains 2.5 to 6 points on average over passing: far beyond the margin.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    for seed in 0..20 {
        let choice = search(&race, &state, &decision, &PassFirst { scale: 1.0 }, BUDGET, seed).choice;
        assert_ne!(choice, "pass", "seed {seed}");
    }
}

#[test]
fn a_gain_within_the_margin_leaves_the_prior_standing() {
    // The same gains valued at a twentieth (0.2 to 0.3 on average) are below the half-point
    // margin: choosing by them would be choosing by noise, so the best prior stands.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    for seed in 0..20 {
        let choice = search(&race, &state, &decision, &PassFirst { scale: 0.05 }, BUDGET, seed).choice;
        assert_eq!(choice, "pass", "seed {seed}");
    }
}

#[test]
fn every_searched_option_gets_its_rollouts_counted() {
    // Race offers three options at the start: each of the 3 candidates gets 8 rollouts, each the
    // candidate's choice and at most one decision more (horizon 1).
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    assert_eq!(decision.options.len(), 3);
    let searched = search(&race, &state, &decision, &PassFirst { scale: 1.0 }, BUDGET, 5);
    assert_eq!(searched.playouts, 24);
    assert!((24..=48).contains(&searched.playout_decisions), "{searched:?}");
}

#[test]
fn candidates_that_cannot_clear_the_margin_are_dropped_after_four_rounds() {
    // Valued at a twentieth, rolling gains about 0.2 a rollout, with a spread of under 0.1: no
    // candidate can reach the half-point margin. After four rounds of the three candidates only
    // the best prior is left, and the search ends there with it standing.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    let searched = search(&race, &state, &decision, &PassFirst { scale: 0.05 }, BUDGET, 5);
    assert_eq!(searched.choice, "pass");
    assert_eq!(searched.playouts, 12);
}

/// [`PassFirst`], but with no lookahead anywhere: the rule system says no decision is worth it.
struct NeverSearch(PassFirst);

impl Heuristics<Race> for NeverSearch {
    fn priors(&self, race: &Race, state: &RaceState, decision: &Decision) -> Vec<f64> {
        self.0.priors(race, state, decision)
    }

    fn value(&self, race: &Race, state: &RaceState, side: &str) -> f64 {
        self.0.value(race, state, side)
    }

    fn trim(&self, state: &mut RaceState) {
        self.0.trim(state);
    }

    fn clock(&self, state: &RaceState) -> u64 {
        self.0.clock(state)
    }

    fn worth_searching(&self, _: &Race, _: &RaceState, _: &Decision) -> bool {
        false
    }
}

#[test]
fn a_decision_not_worth_searching_takes_the_best_prior_without_playouts() {
    // The gain that overrules the prior above is never looked at.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    let searched = search(&race, &state, &decision, &NeverSearch(PassFirst { scale: 1.0 }), BUDGET, 5);
    assert_eq!(searched.choice, "pass");
    assert_eq!(searched.playouts, 0);
}

/// A prior that rules out every option but passing.
struct OnlyPass;

impl Heuristics<Race> for OnlyPass {
    fn priors(&self, _: &Race, _: &RaceState, decision: &Decision) -> Vec<f64> {
        decision.options.iter().map(|o| if o.id == "pass" { 0.0 } else { f64::NEG_INFINITY }).collect()
    }

    fn value(&self, race: &Race, state: &RaceState, side: &str) -> f64 {
        PassFirst { scale: 1.0 }.value(race, state, side)
    }

    fn trim(&self, state: &mut RaceState) {
        state.log.clear();
    }

    fn clock(&self, state: &RaceState) -> u64 {
        u64::from(state.turn)
    }
}

#[test]
fn a_single_candidate_is_taken_without_playouts() {
    // Rolling would gain, but the prior rules it out: with one candidate left there is nothing to
    // compare its rollouts with.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    let searched = search(&race, &state, &decision, &OnlyPass, BUDGET, 5);
    assert_eq!(searched.choice, "pass");
    assert_eq!(searched.playouts, 0);
}

/// Passing first for the side to decide at the start, rolling one die for the other; and a
/// value that is noise: up to ±50 points hashed from the other side's score, which its one die
/// sets alike whichever option the first side took.
struct Noise;

impl Heuristics<Race> for Noise {
    fn priors(&self, race: &Race, state: &RaceState, decision: &Decision) -> Vec<f64> {
        if state.to_move == 0 {
            return PassFirst { scale: 1.0 }.priors(race, state, decision);
        }
        decision.options.iter().map(|o| if o.id == "roll:1" { 1.0 } else { 0.0 }).collect()
    }

    fn value(&self, _: &Race, state: &RaceState, _: &str) -> f64 {
        (caisson_ai::search::mix(7, u64::from(state.scores[1])) % 101) as f64 - 50.0
    }

    fn trim(&self, state: &mut RaceState) {
        state.log.clear();
    }

    fn clock(&self, state: &RaceState) -> u64 {
        u64::from(state.turn)
    }
}

#[test]
fn an_overrule_found_by_noise_is_tried_on_more_dice_and_seldom_holds() {
    // With a value that is noise, every overrule of the prior is a false one. Without more dice
    // (confirm = rollouts) some searches overrule; trying each would-be overrule on three times
    // the rollouts leaves far fewer, and those searches ran more playouts than the budget's.
    let race = Race::default();
    let (state, decision) = first_decision(&race);
    let confirmed = Budget { confirm: 24, ..BUDGET };
    let overrules = |budget: Budget| {
        (0..200).filter(|&seed| search(&race, &state, &decision, &Noise, budget, seed).choice != "pass").count()
    };
    let (plain, checked) = (overrules(BUDGET), overrules(confirmed));
    assert!(plain >= 10, "noise overrules the prior in {plain} of 200 searches");
    assert!(checked * 2 <= plain, "{checked} overrules with more dice, {plain} without");
    let longest = (0..200).map(|seed| search(&race, &state, &decision, &Noise, confirmed, seed).playouts).max();
    assert!(longest > Some(24), "no search went past the budget: {longest:?}");
}
