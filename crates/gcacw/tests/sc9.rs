//! HSN Scenario 9 (the Advanced Game campaign): the special rules Wagons, Union 01XX/02XX
//! hexrows and Union Unit Restrictions (d); exiting the map (HSN-A 14.0); the VP Phase, the
//! Automatic Victory and every victory award, on hand-built positions.

mod common;
use caisson_gcacw::campaign::Winter;
use caisson_gcacw::charts::Half;
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::retreat::{self, Retreat, RetreatKind};
use caisson_gcacw::scenario::Entrenchment;
use caisson_gcacw::sequence::{choose, enter, Phase};
use caisson_gcacw::state::{LossCause, March, Stage, State, StationMark};
use caisson_gcacw::victory::{score, ScoreItem, NOT_EVALUATED};
use caisson_gcacw::{wagons, Gcacw, Settings, Side};
use caisson_hexmap::Hex;
use common::{option_ids, place};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

fn game() -> (Gcacw, State) {
    Gcacw::new(hsn().expect("HSN data loads"), "hsn-9", Settings::default()).expect("hsn-9")
}

/// Sc 9 with every unit off the map (leaders with nobody), so that positions can be built by hand.
fn empty() -> (Gcacw, State) {
    let (rules, mut state) = game();
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    (rules, state)
}

fn unit(rules: &Gcacw, id: &str) -> usize {
    rules.unit_by_id(id).unwrap_or_else(|| panic!("unit {id}"))
}

fn moving(state: &mut State, u: usize, mp: u16) {
    let march = March {
        unit: u,
        ma: 6,
        left: Half::whole(mp),
        moved: false,
        started_in_zoc: false,
        wagon_paid: false,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: Vec::new(),
    };
    state.stage = Stage::Moving { march };
}

fn item(rules: &Gcacw, state: &State, id: &str) -> ScoreItem {
    score(rules, state).items.into_iter().find(|i| i.id == id).unwrap_or_else(|| panic!("award {id}"))
}

fn vp(rules: &Gcacw, state: &State, id: &str) -> f64 {
    item(rules, state, id).vp
}

/// Runs the VP Phase of `turn` on the position as it stands.
fn vp_phase_on(rules: &Gcacw, state: &mut State, turn: u16) {
    state.turn = turn;
    enter(rules, state, Phase::VictoryPoints);
}

// ----- special rules are data with real kinds -------------------------------------------------

/// HSN Sc 9 special rules Wagons, Union 01XX/02XX hexrows, Union Unit Restrictions (d), the
/// Automatic Victory and the VP bookkeeping are enforced: `caisson notes` no longer lists them.
#[test]
fn sc9_rules_of_this_part_are_enforced_hsn_sc9() {
    let lines = notices("hsn-9").expect("notices");
    for title in ["Wagons", "Hexrow", "(d) DE and DN", "Automatic Victory", "VP bookkeeping", "Exiting"] {
        assert!(
            !lines.iter().any(|l| l.starts_with("Scenario rule not yet enforced") && l.contains(title)),
            "{title}: {lines:#?}"
        );
    }
}

/// HSN Sc 9 VC: every award of the scenario file is evaluated.
#[test]
fn every_sc9_award_is_evaluated_hsn_sc9_vc() {
    let (rules, state) = game();
    for i in score(&rules, &state).items {
        assert_ne!(i.detail, NOT_EVALUATED, "{}", i.id);
    }
}

// ----- Union 01XX and 02XX hexrows ---------------------------------------------------------------

/// HSN Sc 9 Union 01XX/02XX Hexrow Movement Restrictions: closed to Union units on Turns 1–5 only.
#[test]
fn union_hexrows_closed_on_turns_1_to_5_hsn_sc9() {
    let (rules, _) = game();
    for turn in 1..=5 {
        assert!(rules.prohibited_on(Side::Union, h(115), turn), "0115 on turn {turn}");
        assert!(rules.prohibited_on(Side::Union, h(220), turn), "0220 on turn {turn}");
    }
    assert!(!rules.prohibited_on(Side::Union, h(221), 1), "0221 is open");
    assert!(!rules.prohibited_on(Side::Union, h(115), 6), "open from Turn 6");
    assert!(!rules.prohibited_on(Side::Confederate, h(115), 1), "Union only");
}

/// HSN Sc 9 hexrows: a Union march may not enter 0220 on Turn 3, and may on Turn 6.
#[test]
fn union_march_kept_out_of_the_hexrows_hsn_sc9() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "wood", h(221), 9);
    state.turn = 3;
    moving(&mut state, u, 8);
    assert!(!option_ids(&rules, &state).contains(&"move:0220".to_string()), "closed on Turn 3");
    state.turn = 6;
    assert!(option_ids(&rules, &state).contains(&"move:0220".to_string()), "open on Turn 6");
}

/// HSN Sc 9 hexrows: a retreating Union stack may not enter them on Turns 1–5 (forced to, it
/// surrenders: eliminated).
#[test]
fn union_retreat_kept_out_of_the_hexrows_hsn_sc9() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "wood", h(221), 9);
    let r = Retreat {
        side: Side::Union,
        units: vec![u],
        start: h(221),
        enemy: h(322),
        kind: RetreatKind::Retreat,
        path: Vec::new(),
        override_used: false,
    };
    state.turn = 2;
    let steps: Vec<Hex> = retreat::steps(&rules, &state, &r).into_iter().map(|s| s.hex).collect();
    assert!(steps.iter().all(|s| !(s.col <= 2 && s.row <= 20)), "{steps:?}");
    state.turn = 6;
    let steps: Vec<Hex> = retreat::steps(&rules, &state, &r).into_iter().map(|s| s.hex).collect();
    assert!(steps.iter().any(|s| s.col <= 2 && s.row <= 20), "open on Turn 6: {steps:?}");
}

// ----- Union Unit Restrictions (d) -------------------------------------------------------------

/// HSN Sc 9 Union Unit Restrictions (d): DE and DN units may not enter a hex whose column is 38 or
/// less until the turn is past the Last Turn of Winter; other Union units may.
#[test]
fn de_and_dn_units_kept_east_of_column_39_until_winter_is_over_hsn_sc9() {
    let (rules, mut state) = empty();
    let steedman = place(&rules, &mut state, "steedman", h(3910), 11);
    state.turn = 12;
    assert!(rules.barred(&state, steedman, h(3810), false).is_some(), "no winter yet: barred");
    assert!(rules.barred(&state, steedman, h(3810), true).is_none(), "entering, not attacking");
    assert!(rules.barred(&state, steedman, h(3910), false).is_none(), "column 39 is open");
    let anderson = place(&rules, &mut state, "anderson", h(3912), 4);
    assert!(rules.barred(&state, anderson, h(3812), false).is_some(), "DN too");
    let cox = place(&rules, &mut state, "cox", h(4014), 11);
    assert!(rules.barred(&state, cox, h(3814), false).is_none(), "XXIII Corps is free");

    moving(&mut state, steedman, 8);
    let ids = option_ids(&rules, &state);
    assert!(!ids.iter().any(|o| o.starts_with("move:38")), "{ids:?}");
    state.campaign.winter = Some(Winter { start: 12, last: 17 });
    state.turn = 17;
    assert!(rules.barred(&state, steedman, h(3810), false).is_some(), "the Last Turn of Winter itself");
    state.turn = 18;
    assert!(rules.barred(&state, steedman, h(3810), false).is_none(), "past the Last Turn of Winter");
    let ids = option_ids(&rules, &state);
    assert!(ids.iter().any(|o| o.starts_with("move:38")), "{ids:?}");
}

// ----- exiting the map -------------------------------------------------------------------------

/// HSN-A 14.0: a Confederate division in exit hex 0111 marches off the map for a pike hex's cost;
/// it and its leader leave the game, not eliminated, no Manpower lost (no VP).
#[test]
fn division_marches_off_the_map_hsn_a_14_0() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "loring", h(111), 8);
    let stewart = rules.leader_by_id("stewart").expect("stewart");
    state.leaders[stewart].with = Some(u);
    let before = vp(&rules, &state, "confederate-manpower-lost");
    moving(&mut state, u, 3);
    assert!(option_ids(&rules, &state).contains(&"exit".to_string()));
    choose(&rules, &mut state, "exit").expect("exit");
    assert_eq!(state.units[u].hex, None);
    assert!(!state.units[u].eliminated);
    assert_eq!(state.units[u].manpower, 8);
    assert!(state.campaign.exited.contains(&u));
    assert_eq!(state.leaders[stewart].with, None, "the leader goes with it");
    assert_eq!(vp(&rules, &state, "confederate-manpower-lost"), before, "an exit is no Manpower loss");
    rules_check(&rules, &state);
}

fn rules_check(rules: &Gcacw, state: &State) {
    caisson_gcacw::invariants::check(rules, state).expect("invariants hold");
}

/// HSN-A 14.0: only a side's own exit hexes: no exit from 0112, nor for a Union unit in 0111.
#[test]
fn exit_only_from_own_exit_hexes_hsn_a_14_0() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "loring", h(112), 8);
    moving(&mut state, u, 3);
    assert!(!option_ids(&rules, &state).contains(&"exit".to_string()), "0112 is no exit hex");
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "cox", h(111), 8);
    moving(&mut state, u, 3);
    assert!(!option_ids(&rules, &state).contains(&"exit".to_string()), "0111 is a Confederate exit");
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "cox", h(5433), 8);
    moving(&mut state, u, 3);
    assert!(option_ids(&rules, &state).contains(&"exit".to_string()), "5433 is a Union exit");
}

/// HSN-A 14.0: a retreat, and a cavalry retreat, may leave the map from an exit hex, with no
/// Manpower loss; elsewhere on the edge they may not (no HSN Sc 8 map-edge rule in Sc 9).
#[test]
fn retreats_leave_by_exit_hexes_hsn_a_14_0() {
    for kind in [RetreatKind::Retreat, RetreatKind::Rout, RetreatKind::Cavalry] {
        let (rules, mut state) = empty();
        let u = place(&rules, &mut state, "loring", h(125), 8);
        let r = Retreat {
            side: Side::Confederate,
            units: vec![u],
            start: h(225),
            enemy: h(325),
            kind,
            path: vec![h(125)],
            override_used: false,
        };
        assert!(retreat::off_map_allowed(&rules, &state, &r), "{kind:?}");
        assert!(retreat::off_map_choice(&rules, &state, &r).is_some());
        retreat::leave_map(&rules, &mut state, &r);
        assert!(state.campaign.exited.contains(&u), "{kind:?}");
        assert_eq!(state.units[u].manpower, 8);
        assert!(state.losses.is_empty());
        rules_check(&rules, &state);
    }
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "loring", h(124), 8);
    let r = Retreat {
        side: Side::Confederate,
        units: vec![u],
        start: h(224),
        enemy: h(324),
        kind: RetreatKind::Retreat,
        path: vec![h(124)],
        override_used: false,
    };
    assert!(!retreat::off_map_allowed(&rules, &state, &r), "0124 is no exit hex");
}

// ----- wagons --------------------------------------------------------------------------------

/// HSN Sc 9 Wagons: a wagon entering Nashville is removed at once, and the entry is recorded.
#[test]
fn wagon_removed_on_entering_nashville_hsn_sc9_wagons() {
    let (rules, mut state) = empty();
    let w = place(&rules, &mut state, "wagon-a", h(5708), 2);
    moving(&mut state, w, 6);
    assert!(option_ids(&rules, &state).contains(&"move:5707".to_string()));
    choose(&rules, &mut state, "move:5707").expect("move");
    assert_eq!(state.units[w].hex, None, "removed");
    assert!(!state.units[w].eliminated);
    assert!(wagons::removed(&rules, &state, w));
    assert!(!matches!(state.stage, Stage::Moving { .. }), "its march is over");
    // 2 wagons still count +6 for not reaching Nashville; wagon-a does not.
    assert_eq!(vp(&rules, &state, "wagon-not-in-nashville"), 12.0);
    rules_check(&rules, &state);
}

/// HSN Sc 9 Wagons: Fortress Rosecrans removes a wagon only while the hex's fort stands;
/// Murfreesboro always; each such entry is −2 VP.
#[test]
fn wagon_removed_in_murfreesboro_and_standing_fortress_hsn_sc9_wagons() {
    let (rules, mut state) = empty();
    let a = place(&rules, &mut state, "wagon-a", h(5130), 2);
    rules.relocate(&mut state, a, h(5131));
    assert_eq!(state.units[a].hex, None, "fort in 5131 stands: removed");
    let b = place(&rules, &mut state, "wagon-b", h(5230), 2);
    state.flags.insert("fort-destroyed/5231".into(), 1);
    rules.relocate(&mut state, b, h(5231));
    assert_eq!(state.units[b].hex, Some(h(5231)), "fort in 5231 destroyed: stays");
    rules.relocate(&mut state, b, h(5232));
    assert_eq!(state.units[b].hex, None, "Murfreesboro: removed");
    assert_eq!(vp(&rules, &state, "wagon-in-murfreesboro"), -4.0);
    assert_eq!(vp(&rules, &state, "wagon-not-in-nashville"), 18.0, "none reached Nashville");
}

/// HSN Sc 9 Wagons: the Union player with the initiative destroys wagons not south of the Duck
/// River, one action for any number; +1 VP per Manpower point; no Manpower loss VP.
#[test]
fn union_destroys_wagons_in_one_action_hsn_sc9_wagons() {
    let (rules, mut state) = empty();
    let a = place(&rules, &mut state, "wagon-a", h(4010), 2);
    let b = place(&rules, &mut state, "wagon-b", h(4012), 2);
    let c = place(&rules, &mut state, "wagon-c", h(324), 2);
    assert!(rules.south_of_duck(h(324)) && !rules.south_of_duck(h(4010)));
    place(&rules, &mut state, "cox", h(4510), 11);
    state.stage = Stage::Action { side: Side::Union, other_passed: false };
    choose(&rules, &mut state, wagons::ACTION).expect("the action");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"wagon:wagon-a".to_string()) && ids.contains(&"wagon:wagon-b".to_string()));
    assert!(!ids.contains(&"wagon:wagon-c".to_string()), "south of the Duck: {ids:?}");
    assert!(!ids.contains(&"done".to_string()), "at least one");
    choose(&rules, &mut state, "wagon:wagon-a").expect("a");
    choose(&rules, &mut state, "wagon:wagon-b").expect("b");
    choose(&rules, &mut state, "done").expect("done");
    assert_eq!(state.units[a].hex, None);
    assert_eq!(state.units[b].hex, None);
    assert_eq!(state.units[c].hex, Some(h(324)));
    assert!(!matches!(state.stage, Stage::DestroyWagons { .. }), "the segment is spent");
    assert_eq!(vp(&rules, &state, "wagon-destroyed-or-winter"), 4.0);
    assert_eq!(vp(&rules, &state, "union-manpower-lost"), 0.0);
    rules_check(&rules, &state);
}

/// HSN Sc 9 Wagons and HSN-A 4.0: wagons still on the map when winter starts are removed, each
/// scoring its Manpower then.
#[test]
fn wagons_removed_when_winter_starts_hsn_sc9_wagons() {
    let (rules, mut state) = empty();
    let a = place(&rules, &mut state, "wagon-a", h(4010), 2);
    rules.lose_manpower(&mut state, a, 1, LossCause::ExtendedMarch, "extended march", "GCACW 5.1");
    let b = place(&rules, &mut state, "wagon-b", h(4510), 2);
    let c = place(&rules, &mut state, "wagon-c", h(5708), 2);
    rules.relocate(&mut state, c, h(5707));
    wagons::remove_for_winter(&rules, &mut state);
    assert_eq!(state.units[a].hex, None);
    assert_eq!(state.units[b].hex, None);
    assert_eq!(vp(&rules, &state, "wagon-destroyed-or-winter"), 3.0);
    assert_eq!(vp(&rules, &state, "wagon-not-in-nashville"), 12.0, "a and b never reached Nashville");
    rules_check(&rules, &state);
}

/// HSN Sc 9 VC: every Manpower point a wagon loses counts +2, extended march included; other
/// Union units' extended-march losses do not; Confederate combat losses count −3.
#[test]
fn wagon_march_losses_score_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    let w = place(&rules, &mut state, "wagon-a", h(4010), 2);
    let cox = place(&rules, &mut state, "cox", h(4510), 11);
    let loring = place(&rules, &mut state, "loring", h(3010), 8);
    rules.lose_manpower(&mut state, w, 1, LossCause::ExtendedMarch, "extended march", "GCACW 5.1");
    rules.lose_manpower(&mut state, cox, 1, LossCause::ExtendedMarch, "extended march", "GCACW 5.1");
    rules.lose_manpower(&mut state, cox, 2, LossCause::Combat, "combat", "GCACW 7.5");
    rules.lose_manpower(&mut state, loring, 1, LossCause::Combat, "combat", "GCACW 7.5");
    assert_eq!(vp(&rules, &state, "union-manpower-lost"), 6.0, "wagon 1 + combat 2, × 2");
    assert_eq!(vp(&rules, &state, "confederate-manpower-lost"), -3.0);
}

// ----- the VP Phase -----------------------------------------------------------------------------

/// HSN Sc 9 VC: Franklin held in the VP Phases of Turns 9, 10 and 11 is itemised 3 × 2 = 6; a
/// demoralized or cavalry holder earns nothing.
#[test]
fn franklin_recorded_turn_by_turn_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "french", h(4010), 5);
    for turn in 9..=11 {
        vp_phase_on(&rules, &mut state, turn);
    }
    state.units[u].demoralized = 1;
    vp_phase_on(&rules, &mut state, 12);
    state.units[u].demoralized = 0;
    state.units[u].hex = None;
    place(&rules, &mut state, "armstrong", h(4010), 2);
    vp_phase_on(&rules, &mut state, 13);
    let i = item(&rules, &state, "franklin");
    assert_eq!(i.vp, 6.0);
    assert!(i.detail.contains("9, 10, 11: 3 × 2 = 6"), "{}", i.detail);
    assert_eq!(vp(&rules, &state, "columbia"), 0.0);
}

/// HSN Sc 9 VC: a brigade counts for Columbia (+1).
#[test]
fn columbia_by_an_infantry_brigade_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    place(&rules, &mut state, "smith-b", h(1715), 2);
    vp_phase_on(&rules, &mut state, 10);
    assert_eq!(vp(&rules, &state, "columbia"), 1.0);
}

/// HSN Sc 9 VC: Murfreesboro scores nothing while the fort in 5231 stands; then 12 the first time
/// and 2 later; in the Turn 32 phase 12 more (first held on 26 and still on 32: 14 that phase).
#[test]
fn murfreesboro_first_later_and_last_turn_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    place(&rules, &mut state, "french", h(5232), 5);
    vp_phase_on(&rules, &mut state, 25);
    assert_eq!(vp(&rules, &state, "murfreesboro-first"), 0.0, "fort in 5231 stands");
    state.flags.insert("fort-destroyed/5231".into(), 1);
    vp_phase_on(&rules, &mut state, 26);
    vp_phase_on(&rules, &mut state, 27);
    assert_eq!(vp(&rules, &state, "murfreesboro-first"), 12.0);
    assert_eq!(vp(&rules, &state, "murfreesboro-later"), 2.0);
    vp_phase_on(&rules, &mut state, 32);
    assert_eq!(vp(&rules, &state, "murfreesboro-later"), 4.0);
    assert_eq!(vp(&rules, &state, "murfreesboro-last-turn"), 12.0);
    assert!(matches!(state.stage, Stage::Over), "Turn 32 over: the game ends");
}

/// HSN Sc 9 VC: first held in the Turn 32 VP Phase, Murfreesboro gives 24.
#[test]
fn murfreesboro_first_on_turn_32_gives_24_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    place(&rules, &mut state, "french", h(5232), 5);
    state.flags.insert("fort-destroyed/5231".into(), 1);
    vp_phase_on(&rules, &mut state, 32);
    let total: f64 = ["murfreesboro-first", "murfreesboro-later", "murfreesboro-last-turn"]
        .iter()
        .map(|id| vp(&rules, &state, id))
        .sum();
    assert_eq!(total, 24.0);
}

/// HSN Sc 9 VC (digest A1: Nashville is 5706/5707): three divisions 2–3 hexes away the first time
/// earn 30 + 2; the next phase 2; a division next to Nashville earns 5 instead of the 2.
#[test]
fn nashville_proximity_awards_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    let hex = h(5609);
    let d = [h(5706), h(5707)].iter().map(|n| n.distance(hex)).min().unwrap_or(0);
    assert!((2..=3).contains(&d), "5609 is {d} from Nashville");
    for id in ["french", "loring", "walthall"] {
        place(&rules, &mut state, id, hex, 5);
    }
    vp_phase_on(&rules, &mut state, 10);
    assert_eq!(vp(&rules, &state, "nashville-first-approach"), 30.0);
    assert_eq!(vp(&rules, &state, "nashville-two-three-hexes"), 2.0);
    vp_phase_on(&rules, &mut state, 11);
    assert_eq!(vp(&rules, &state, "nashville-first-approach"), 30.0, "once only");
    assert_eq!(vp(&rules, &state, "nashville-two-three-hexes"), 4.0);
    place(&rules, &mut state, "brown", h(5607), 8);
    assert_eq!(h(5607).distance(h(5707)), 1);
    vp_phase_on(&rules, &mut state, 12);
    assert_eq!(vp(&rules, &state, "nashville-adjacent"), 5.0);
    assert_eq!(vp(&rules, &state, "nashville-two-three-hexes"), 4.0, "not with the 5");
}

/// HSN Sc 9 Automatic Victory: an undemoralized Confederate infantry division in 5707 in a VP
/// Phase ends the game at once in a Confederate Decisive Victory, whatever the VP.
#[test]
fn automatic_victory_in_nashville_hsn_sc9() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "french", h(5707), 5);
    state.units[u].demoralized = 1;
    vp_phase_on(&rules, &mut state, 14);
    assert!(!matches!(state.stage, Stage::Over), "a demoralized division does not win");
    state.units[u].demoralized = 0;
    vp_phase_on(&rules, &mut state, 15);
    assert!(matches!(state.stage, Stage::Over));
    assert_eq!(state.turn, 15);
    let s = score(&rules, &state);
    assert_eq!(s.level, "Confederate Decisive Victory");
    assert!(s.items.iter().any(|i| i.id == "automatic-victory" && i.detail.contains("Turn 15")), "{s:?}");
    assert!(state.log.iter().any(|l| l.text.contains("Confederate Decisive Victory")));
}

// ----- end-of-game awards -------------------------------------------------------------------------

/// HSN Sc 9 VC: +1 per listed station Destroyed (a Damaged one scores nothing).
#[test]
fn destroyed_stations_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    state.stations.insert(h(5514), StationMark::Destroyed);
    state.stations.insert(h(4910), StationMark::Destroyed);
    state.stations.insert(h(5519), StationMark::Damaged);
    assert_eq!(vp(&rules, &state, "station-destroyed"), 2.0);
}

/// HSN Sc 9 VC: a division south of the Duck on a route to the south edge has an LOC (+4); one
/// whose every neighbour is in the ZOC of undemoralized Union infantry has none.
#[test]
fn loc_south_of_the_duck_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    let u = place(&rules, &mut state, "french", h(423), 5);
    assert!(rules.south_of_duck(h(423)));
    assert_eq!(vp(&rules, &state, "loc-south"), 4.0, "{}", item(&rules, &state, "loc-south").detail);
    assert_eq!(vp(&rules, &state, "loc-north"), 0.0);
    // Union infantry on two opposite sides: every neighbour is covered.
    let n: Vec<Hex> = h(423).neighbors().map(|(_, n)| n).collect();
    place(&rules, &mut state, "cox", n[0], 11);
    place(&rules, &mut state, "wagner", n[3], 11);
    let i = item(&rules, &state, "loc-south");
    assert_eq!(i.vp, 0.0, "{}", i.detail);
    assert!(i.detail.contains("surrounded"), "{}", i.detail);
    state.units[u].hex = None;
    state.campaign.exited.insert(u);
    assert_eq!(vp(&rules, &state, "loc-south"), 0.0, "exited divisions never score");
}

/// HSN Sc 9 VC: north of the Duck, a pike to a south-edge pike hex (0111, 0125, 0131); blocked by
/// Union stacks of Combat 6+ under Fort markers with a corps or district leader (or Steedman).
#[test]
fn loc_north_of_the_duck_and_blocked_hexes_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    place(&rules, &mut state, "french", h(4010), 5);
    assert!(!rules.south_of_duck(h(4010)));
    let i = item(&rules, &state, "loc-north");
    assert_eq!(i.vp, 4.0, "{}", i.detail);
    let fort = |state: &mut State, id: &str, hex: Hex, mp: u8| {
        let u = place(&rules, state, id, hex, mp);
        state.units[u].entrenchment = Some(Entrenchment::FortComplete);
        u
    };
    let cox = fort(&mut state, "cox", h(111), 11);
    fort(&mut state, "wagner", h(125), 11);
    fort(&mut state, "steedman", h(131), 11);
    let schofield = rules.leader_by_id("schofield").expect("schofield");
    let stanley = rules.leader_by_id("stanley").expect("stanley");
    state.leaders[schofield].with = Some(cox);
    state.leaders[stanley].with = Some(unit(&rules, "wagner"));
    let i = item(&rules, &state, "loc-north");
    assert_eq!(i.vp, 0.0, "every south-edge pike hex blocked: {}", i.detail);
    // Without the leader, Cox's fort no longer blocks 0111.
    state.leaders[schofield].with = None;
    let i = item(&rules, &state, "loc-north");
    assert_eq!(i.vp, 4.0, "{}", i.detail);
    // Without the Fort marker neither.
    state.leaders[schofield].with = Some(cox);
    state.units[cox].entrenchment = Some(Entrenchment::Breastworks);
    assert_eq!(vp(&rules, &state, "loc-north"), 4.0);
}

/// HSN Sc 9 VC: a division in Murfreesboro, or next to it while the Confederates hold it, always
/// has an LOC, even surrounded.
#[test]
fn loc_exemption_at_murfreesboro_hsn_sc9_vc() {
    let (rules, mut state) = empty();
    place(&rules, &mut state, "french", h(5232), 5);
    let n: Vec<Hex> = h(5232).neighbors().map(|(_, n)| n).collect();
    place(&rules, &mut state, "cox", n[0], 11);
    place(&rules, &mut state, "wagner", n[3], 11);
    place(&rules, &mut state, "loring", n[1], 8);
    let south = rules.south_of_duck(h(5232));
    let id = if south { "loc-south" } else { "loc-north" };
    let i = item(&rules, &state, id);
    assert_eq!(i.vp, 8.0, "{}", i.detail);
}
