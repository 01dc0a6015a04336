//! GCACW rules, checked against the rulebook's worked examples and invariants. Dice are entered
//! by hand (manual dice mode) so every roll in a test is the rulebook's roll.

use caisson_gcacw::registry::{self, hsn};
use caisson_gcacw::state::{Stage, State};
use caisson_gcacw::{actions, march, Gcacw, Settings};
use caisson_kernel::{DiceMode, Game, Setup};

fn manual(scenario: &str, edit: impl FnOnce(&Gcacw, &mut State)) -> Game<Gcacw> {
    let (rules, mut state) =
        Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario");
    edit(&rules, &mut state);
    Game::new(
        rules,
        state,
        Setup { system: "gcacw".into(), scenario: scenario.into(), seed: 1, dice: DiceMode::Manual, options: vec![] },
    )
}

fn unit(g: &Game<Gcacw>, id: &str) -> usize {
    g.rules().unit_by_id(id).unwrap_or_else(|| panic!("unit {id}"))
}

fn options(g: &Game<Gcacw>) -> Vec<String> {
    g.pending().map(|d| d.options.into_iter().map(|c| c.id).collect()).unwrap_or_default()
}

fn choose(g: &mut Game<Gcacw>, id: &str) {
    if let Err(e) = g.choose(id) {
        panic!("choosing {id}: {e}; options were {:?}; prompt {:?}", options(g), g.pending().map(|d| d.prompt));
    }
}

/// Skips transfer phases and hands the initiative to the Union player (hsn-1: the Confederate
/// wins the first initiative automatically and passes).
fn union_to_act(g: &mut Game<Gcacw>) {
    for _ in 0..10 {
        match &g.state().stage {
            Stage::Transfers { .. } => choose(g, "done"),
            Stage::Action { side: caisson_gcacw::Side::Confederate, .. } => choose(g, "pass"),
            _ => break,
        }
    }
    assert!(matches!(g.state().stage, Stage::Action { side: caisson_gcacw::Side::Union, .. }), "{:?}", g.state().stage);
}

/// GCACW 5.1 March Example (digest T1): an exhausted, organized Union division at fatigue 1 with
/// 7 Manpower rolls 3 for its allowance; reaching fatigue 2 on its exhausted side is an extended
/// march: 4 + 1 (Other Union Units) = 5 gives NE on the Organized column; it force marches, rolls
/// 1: bonus 0, raised to the minimum 2, so 5 MP, and no Manpower loss.
#[test]
fn newton_march_example_gcacw_5_1() {
    let mut g = manual("hsn-1", |r, s| {
        let u = r.unit_by_id("cox").expect("cox");
        s.units[u].manpower = 7;
        s.units[u].exhausted = true;
        s.units[u].fatigue = 1;
    });
    union_to_act(&mut g);
    let cox = unit(&g, "cox");
    choose(&mut g, "march:cox");
    choose(&mut g, "die:3");
    assert_eq!(g.state().units[cox].fatigue, 2);
    assert!(matches!(g.state().stage, Stage::ExtendedMarch { .. }), "an extended march: {:?}", g.state().stage);
    choose(&mut g, "die:4");
    let emt = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("EMT roll logged");
    assert_eq!(emt.total, 5);
    assert!(emt.result.starts_with("NE"), "{}", emt.result);
    assert!(g.state().units[cox].organized);
    choose(&mut g, "force-march");
    choose(&mut g, "die:1");
    let Stage::Moving { march } = &g.state().stage else { panic!("moving: {:?}", g.state().stage) };
    assert_eq!(march.left.to_string(), "5");
    assert_eq!(g.state().units[cox].manpower, 7, "a force-march roll of 1 costs nothing");
    assert!(!g.state().units[cox].organized, "force marching disorganizes");
}

/// GCACW 5.2 example (digest T2), on the HSN map: a Union infantry leader activates the units of
/// his command in his radius that are at fatigue 3 or less; one roll of 4 + 1 gives every unit 5
/// MP; he may transfer to a selected unit first; a unit at fatigue 4 or of another corps cannot
/// be chosen.
#[test]
fn leader_activation_example_gcacw_5_2() {
    let mut g = manual("hsn-1", |r, s| {
        let w = r.unit_by_id("wagner").expect("wagner");
        s.units[w].fatigue = 4;
    });
    union_to_act(&mut g);
    choose(&mut g, "activate:stanley");
    let opts = options(&g);
    assert!(opts.contains(&"march:whitaker".to_string()), "{opts:?}");
    assert!(!opts.contains(&"march:wagner".to_string()), "fatigue 4 cannot be activated: {opts:?}");
    assert!(!opts.iter().any(|o| o.ends_with(":cox")), "Cox is XXIII Corps, not Stanley's: {opts:?}");
    choose(&mut g, "march:whitaker");
    choose(&mut g, "march:wood");
    choose(&mut g, "done");
    choose(&mut g, "die:4");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    assert_eq!(roll.total, 5, "Union infantry leader: 1d6 + 1");
    assert!(options(&g).contains(&"transfer:wood".to_string()), "{:?}", options(&g));
    choose(&mut g, "transfer:wood");
    let stanley = g.rules().leader_by_id("stanley").expect("stanley");
    assert_eq!(g.state().leaders[stanley].with, Some(unit(&g, "wood")));
    choose(&mut g, "next:wood");
    let wood = unit(&g, "wood");
    assert_eq!(g.state().units[wood].fatigue, 1, "normal side to fatigue 1: no extended march");
    // Wood is organized, so force march is offered; decline and check the shared allowance.
    choose(&mut g, "no-force-march");
    let Stage::Moving { march } = &g.state().stage else { panic!("moving") };
    assert_eq!(march.left.to_string(), "5");
    choose(&mut g, "end");
    // Whitaker is the last unit: it starts at once.
    let whitaker = unit(&g, "whitaker");
    assert_eq!(g.state().units[whitaker].fatigue, 1);
}

/// GCACW 5.1 force march (digest T17): the bonus and losses for each unmodified roll.
#[test]
fn force_march_bounds_gcacw_5_1() {
    assert_eq!(march::force_march_outcome(false, 6, 7), (5, 2));
    assert_eq!(march::force_march_outcome(false, 6, 5), (5, 1));
    assert_eq!(march::force_march_outcome(false, 2, 7), (2, 1));
    assert_eq!(march::force_march_outcome(false, 1, 7), (2, 0));
    assert_eq!(march::force_march_outcome(true, 3, 3), (4, 0));
    assert_eq!(march::force_march_outcome(true, 9, 3), (8, 1));
}

/// GCACW 5.5, 1864 procedure (digest T23): each Entrenchment action moves the marker one step;
/// in a redoubt the first step is Breastworks-Build.
#[test]
fn entrenchment_progression_gcacw_5_5() {
    use caisson_gcacw::scenario::Entrenchment::*;
    let mut now = None;
    let mut seen = Vec::new();
    while let Some(next) = actions::next_entrenchment(now, false) {
        seen.push(next);
        now = Some(next);
    }
    assert_eq!(seen, [Abatis, BreastworksBuild, Breastworks, FortBuild1, FortBuild2, FortComplete]);
    assert_eq!(actions::next_entrenchment(None, true), Some(BreastworksBuild));
}

/// GCACW 5.4 (digest T18): Combat 2–4 damages a station, 5 or more destroys it, and a Damage
/// marker is not touched by another small unit.
#[test]
fn burn_rr_station_gcacw_5_4() {
    let station = caisson_hexmap::Hex::new(19, 13); // Duck River Station
    let mut g = manual("hsn-1", |r, s| {
        let c = r.unit_by_id("cox").expect("cox");
        s.units[c].hex = Some(station);
        s.units[c].manpower = 4;
        let w = r.unit_by_id("wagner").expect("wagner");
        s.units[w].hex = Some(station);
        s.units[w].manpower = 5;
    });
    assert!(g.rules().is_station(station), "1913 is a station on the map");
    union_to_act(&mut g);
    choose(&mut g, "burn:cox");
    assert_eq!(g.state().stations.get(&station), Some(&caisson_gcacw::state::StationMark::Damaged));
    assert_eq!(g.state().units[unit(&g, "cox")].fatigue, 1);
    let rules = g.rules().clone();
    assert!(
        actions::burn_result(&rules, g.state(), unit(&g, "cox")).is_none(),
        "a second Combat 4 burn changes nothing"
    );
    assert_eq!(
        actions::burn_result(&rules, g.state(), unit(&g, "wagner")),
        Some(caisson_gcacw::state::StationMark::Destroyed)
    );
}

/// The same scenario, seed and choices give the same state, bit for bit; a save replays to it.
#[test]
fn replay_is_deterministic_and_saves_round_trip() {
    let setup = registry::setup("hsn-2", 42, DiceMode::Seeded, vec![]);
    let mut a = registry::new_game(&setup).expect("new");
    let mut dice = caisson_kernel::Dice::new(7);
    for _ in 0..200 {
        let Some(d) = a.pending() else { break };
        let pick = caisson_kernel::random_choice(&d, &mut dice).to_string();
        a.choose(&pick).expect("legal");
    }
    let mut b = registry::new_game(&setup).expect("new");
    for act in a.actions().to_vec() {
        b.choose(&act).expect("replays");
    }
    assert_eq!(a.state_hash(), b.state_hash());
    let save = a.save();
    let c = registry::load_game(&caisson_kernel::Save::from_json(&save.to_json()).expect("json")).expect("loads");
    assert_eq!(c.state_hash(), a.state_hash());
    let mut tampered = save.clone();
    if let Some(x) = tampered.actions.get_mut(3) {
        x.choice = "pass".into();
    }
    assert!(registry::load_game(&tampered).is_err(), "a tampered save is refused");
}

/// Every HSN scenario starts, shows its set-up, and random play through the protocol ends
/// within its turns without a dead end (the full 100-seed run is `caisson random`).
#[test]
fn random_play_finishes_every_scenario() {
    for info in registry::scenarios().expect("scenarios") {
        for seed in 0..3 {
            let mut g = registry::new_game(&registry::setup(&info.id, seed, DiceMode::Seeded, vec![])).expect("new");
            let mut dice = caisson_kernel::Dice::new(seed + 1);
            let mut steps = 0;
            while let Some(d) = g.pending() {
                assert!(!d.options.is_empty(), "{} seed {seed}: a decision with no option: {}", info.id, d.prompt);
                let pick = caisson_kernel::random_choice(&d, &mut dice).to_string();
                g.choose(&pick).unwrap_or_else(|e| panic!("{} seed {seed}: {pick}: {e}", info.id));
                steps += 1;
                assert!(steps < 200_000, "{} seed {seed}: no end in sight", info.id);
            }
            // The final screen: every award itemised, the total and the level.
            let log = g.log();
            let total = log.iter().rev().find(|e| e.text.contains("VP total")).expect("a final score");
            if info.game == "basic" {
                assert!(!log.iter().any(|e| e.text.contains("not evaluated")), "{}: every award is evaluated", info.id);
                assert!(total.text.contains("Victory"), "{}: a victory level: {}", info.id, total.text);
            }
        }
    }
}

/// HSN Sc 1 special rule "Moore": on his first activation Moore may ride up to 43 railroad hexes
/// and gains two fatigue levels; the move is offered once only.
#[test]
fn moore_rail_move_hsn_sc1() {
    let mut g = manual("hsn-1", |_, _| {});
    union_to_act(&mut g);
    assert!(options(&g).contains(&"rail:o-moore".to_string()), "{:?}", options(&g));
    choose(&mut g, "rail:o-moore");
    let dest = options(&g);
    for station in ["rail:4910", "rail:3213", "rail:1913", "rail:1715"] {
        assert!(dest.contains(&station.to_string()), "{station} should be reachable by rail: {dest:?}");
    }
    choose(&mut g, "rail:3213");
    let moore = unit(&g, "o-moore");
    assert_eq!(g.state().units[moore].hex, Some(caisson_hexmap::Hex::new(32, 13)));
    assert_eq!(g.state().units[moore].fatigue, 2);
    let rules = g.rules().clone();
    assert!(!caisson_gcacw::rail::available(&rules, g.state(), moore), "only on the first activation");
}

/// GCACW 5.4: a station marker stops a rail move only where a rule says so. Moore's ride may pass
/// a burnt station in HSN Sc 1 (the rule is silent) and may not in Sc 2; Sc 9 also has Union rail
/// movement and rail entry. No Confederate rail move exists, and Sc 3-8 have none at all.
#[test]
fn a_burnt_station_stops_a_rail_move_only_where_a_rule_says_so() {
    use caisson_gcacw::state::StationMark;
    use caisson_gcacw::Side;
    for n in 1..=9 {
        let (rules, _) =
            Gcacw::new(hsn().expect("HSN data loads"), &format!("hsn-{n}"), Settings::default()).expect("scenario");
        let union = caisson_gcacw::rail::stations_block_rail(&rules, Side::Union);
        assert_eq!(union, n == 2 || n == 9, "hsn-{n}");
        assert!(!caisson_gcacw::rail::stations_block_rail(&rules, Side::Confederate), "hsn-{n}");
    }
    // Moore rides from Nashville; a damaged Thompson's Station (3213) bars it in Sc 2 only.
    let thompson = caisson_hexmap::Hex::new(32, 13);
    for (scenario, blocked) in [("hsn-1", false), ("hsn-2", true)] {
        let (rules, mut state) =
            Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario");
        state.turn = 2;
        let moore = rules.unit_by_id("o-moore").expect("o-moore");
        assert!(caisson_gcacw::rail::destinations(&rules, &state, moore).contains(&thompson), "{scenario}");
        state.stations.insert(thompson, StationMark::Damaged);
        let after = caisson_gcacw::rail::destinations(&rules, &state, moore);
        assert_eq!(!after.contains(&thompson), blocked, "{scenario}: {after:?}");
    }
}

/// HSN Sc 1 special rule: Union units may not enter 0101–0120 or 0201–0220; Sc 4: Confederate
/// units may not come within 3 hexes of a Nashville city hex.
#[test]
fn scenario_movement_restrictions() {
    let mut g = manual("hsn-1", |_, _| {});
    union_to_act(&mut g);
    choose(&mut g, "march:croxton-a");
    choose(&mut g, "die:6");
    choose(&mut g, "die:6");
    choose(&mut g, "die:1"); // extended march (exhausted side to fatigue 2): no effect
    choose(&mut g, "no-force-march");
    let moves = options(&g);
    assert!(moves.iter().any(|m| m.starts_with("move:")), "{moves:?}");
    assert!(!moves.contains(&"move:0220".to_string()), "0220 is closed to the Union: {moves:?}");
    let (rules, _) = Gcacw::new(hsn().expect("data"), "hsn-4", Settings::default()).expect("hsn-4");
    use caisson_gcacw::Side::Confederate;
    assert!(rules.prohibited(Confederate, caisson_hexmap::Hex::new(54, 7)), "5407 is 3 hexes from 5707");
    assert!(!rules.prohibited(Confederate, caisson_hexmap::Hex::new(53, 7)), "5307 is 4 hexes away");
}

/// HSN Sc 7 Hood's Retreat, the rulebook's own example: on Turn 1 a Confederate infantry division
/// marching to fatigue 2 on its exhausted side takes 1 off its extended march roll, so a 6 reads
/// as 5, no effect; a March action's allowance is at least 3. A march to fatigue 4 gets neither.
#[test]
fn hoods_retreat_eases_extended_marches_on_turn_1_hsn_sc_7() {
    let mut g = manual("hsn-7", |r, s| {
        let loring = r.unit_by_id("loring").expect("loring");
        s.units[loring].organized = true;
        let walthall = r.unit_by_id("walthall").expect("walthall");
        s.units[walthall].fatigue = 3;
    });
    while matches!(g.state().stage, Stage::Transfers { .. }) {
        choose(&mut g, "done");
    }
    let loring = unit(&g, "loring");
    choose(&mut g, "march:loring");
    choose(&mut g, "die:1");
    let ma = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("allowance roll logged");
    assert!(ma.result.contains("raised to the scenario minimum 3"), "{}", ma.result);
    assert!(matches!(g.state().stage, Stage::ExtendedMarch { .. }), "{:?}", g.state().stage);
    choose(&mut g, "die:6");
    let emt = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("EMT roll logged");
    assert_eq!(emt.total, 5, "6 − 1 (Hood's Retreat)");
    assert!(emt.modifiers.iter().any(|m| m.label == "Hood's Retreat" && m.value == -1), "{:?}", emt.modifiers);
    assert!(emt.result.starts_with("NE"), "{}", emt.result);
    assert!(g.state().units[loring].organized, "no effect: Loring stays organized");
    choose(&mut g, "no-force-march");
    choose(&mut g, "end");
    choose(&mut g, "keep");
    // The second Turn 1 initiative is the Confederates' too: Walthall marches to fatigue 4.
    choose(&mut g, "march:walthall");
    choose(&mut g, "die:1");
    let ma = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("allowance roll logged");
    assert_eq!(ma.total, 2, "no minimum for a march to fatigue 4: {}", ma.result);
    choose(&mut g, "die:1");
    let emt = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("EMT roll logged");
    assert_eq!(emt.total, 4, "1 + 3 (exhausted to fatigue 4), no Hood's Retreat: {:?}", emt.modifiers);
}

/// The minimum Movement Allowances of HSN Sc 3 are for the Confederate infantry divisions other
/// than Clayton and Stevenson: none for cavalry.
#[test]
fn march_minimums_are_for_infantry_divisions_hsn_sc_3() {
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-3", Settings::default()).expect("hsn-3");
    let id = |name: &str| rules.unit_by_id(name).expect(name);
    let min = |name: &str, activate: bool| march::minimum_ma(&rules, &state, id(name), activate).map(|(m, _)| m);
    assert_eq!(min("cleburne", false), Some(5));
    assert_eq!(min("cleburne", true), Some(6));
    assert_eq!(min("clayton", false), None, "exempt");
    assert_eq!(min("biffle", false), None, "cavalry");
    assert_eq!(min("cox", false), None, "Union");
}

/// HSN Sc 2 Arrival Table (digest T25): on Turn 2 a roll of 6 − 7 = −1 brings 2 sets with a
/// fatigue-1 marker; a set placed in an alternative entry hex gets one level more; the set must
/// act at once and adds 1 to that first Movement Allowance roll (1d6 + 2 for a March).
#[test]
fn arrival_table_hsn_sc2() {
    let mut g = manual("hsn-2", |r, s| {
        s.turn = 2;
        s.automatic.clear();
        caisson_gcacw::sequence::begin_action_cycle(r, s);
    });
    assert!(matches!(g.state().stage, Stage::ArrivalRoll), "{:?}", g.state().stage);
    choose(&mut g, "die:6");
    assert_eq!((g.state().arrivals_due, g.state().arrival_fatigue), (2, 1));
    choose(&mut g, "die:1"); // Union initiative
    choose(&mut g, "die:6"); // Confederate initiative: Confederate wins
    let opts = options(&g);
    assert!(opts.contains(&"arrive:0112".to_string()) && opts.contains(&"arrive:0105".to_string()), "{opts:?}");
    choose(&mut g, "arrive:0105");
    let johnson = unit(&g, "johnson");
    assert_eq!(g.state().units[johnson].hex, Some(caisson_hexmap::Hex::new(1, 5)));
    assert_eq!(g.state().units[johnson].fatigue, 2, "alternative entry: one level more");
    let lee = g.rules().leader_by_id("lee").expect("lee");
    assert_eq!(g.state().leaders[lee].with, Some(johnson), "Lee arrives atop Johnson");
    let opts = options(&g);
    assert!(!opts.contains(&"pass".to_string()), "the set must act: {opts:?}");
    assert!(opts.contains(&"march:johnson".to_string()) && opts.contains(&"activate:lee".to_string()), "{opts:?}");
    choose(&mut g, "march:johnson");
    choose(&mut g, "die:3");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    assert_eq!(roll.total, 5, "1d6 + 1 (Confederate infantry) + 1 (first action after arrival)");
    assert_eq!(g.state().arrivals_due, 1);
}

/// HSN Sc 2 Union restrictions: Wagner may not act on Turn 1 until a Confederate unit comes next
/// to him, even in passing; 91 IN is held until Turn 4 and only an attack frees it, so a
/// neighbour does not.
#[test]
fn scenario_restrictions_are_lifted_only_by_their_own_events() {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    let cat = rules.catalog();
    let wagner = cat.index("wagner").expect("wagner");
    let in91 = cat.index("91-in").expect("91 IN");
    assert!(rules.restricted(&state, wagner) && rules.restricted(&state, in91));
    let rucker = rules.unit_by_id("rucker").expect("rucker");
    let w = rules.unit_by_id("wagner").expect("wagner unit");
    let beside = |state: &State, h: caisson_hexmap::Hex| {
        rules.map().neighbors(h).map(|(_, n)| n).find(|&n| rules.occupant(state, n).is_none())
    };
    let start = state.units[rucker].hex.expect("on map");
    let next_to_wagner = beside(&state, state.units[w].hex.expect("on map")).expect("a free hex");
    // Rucker passes by: one step next to Wagner, then back (a march, a retreat: any move).
    rules.relocate(&mut state, rucker, next_to_wagner);
    rules.relocate(&mut state, rucker, start);
    assert!(!rules.restricted(&state, wagner), "a Confederate unit coming next to Wagner frees him");
    let i91 = rules.unit_by_id("91-in").expect("91 IN unit");
    let next_to_91 = beside(&state, state.units[i91].hex.expect("on map")).expect("a free hex");
    rules.relocate(&mut state, rucker, next_to_91);
    assert!(rules.restricted(&state, in91), "only an attack frees 91 IN");
}

/// HSN Sc 3 Turn 1 bars infantry leaders from activating, not from the Leader Transfer Phase;
/// Sc 2 Union Unit Restrictions (a) bar Stanley from both.
#[test]
fn held_leaders_transfer_unless_their_rule_says_otherwise() {
    let mut g = manual("hsn-3", |_, _| {});
    let mut offered = Vec::new();
    while matches!(g.state().stage, Stage::Transfers { .. }) {
        offered.extend(options(&g));
        choose(&mut g, "done");
    }
    let rules = g.rules();
    let hood = rules.catalog().index("hood").expect("hood");
    assert!(rules.restricted(g.state(), hood) && !rules.transfer_barred(g.state(), hood));
    assert!(
        ["hood", "cheatham", "stewart", "lee"].iter().any(|l| offered.contains(&format!("transfer:{l}"))),
        "a Confederate infantry leader may transfer on Turn 1: {offered:?}"
    );
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    let stanley = rules.catalog().index("stanley").expect("stanley");
    assert!(rules.restricted(&state, stanley) && rules.transfer_barred(&state, stanley));
}

/// HSN Sc 3 Turn 1 Movement Restrictions: the held infantry may not entrench on Turn 1, in the
/// Recovery Phase either; the cavalry may, and from Turn 2 everyone.
#[test]
fn held_infantry_does_not_entrench_on_turn_1_hsn_sc_3() {
    use caisson_gcacw::recovery::may_entrench;
    use caisson_gcacw::Side::Confederate;
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-3", Settings::default()).expect("hsn-3");
    let (cleburne, biffle) =
        (rules.unit_by_id("cleburne").expect("cleburne"), rules.unit_by_id("biffle").expect("biffle"));
    for u in [cleburne, biffle] {
        (state.units[u].fatigue, state.units[u].demoralized, state.units[u].entrenchment) = (0, 0, None);
    }
    state.rain = false;
    let turn_1 = may_entrench(&rules, &state, Confederate, &[]);
    assert!(!turn_1.contains(&cleburne) && turn_1.contains(&biffle), "{turn_1:?}");
    state.turn = 2;
    assert!(may_entrench(&rules, &state, Confederate, &[]).contains(&cleburne));
}

/// GCACW 6.3 and 5.2 step 5: a district leader may switch to a subordinate infantry unit that
/// marches out of his hex, and may transfer together with the active leader.
#[test]
fn district_leaders_ride_along_gcacw_6_3() {
    let mut g = manual("hsn-1", |r, s| {
        let wagner = r.unit_by_id("wagner").expect("wagner");
        let cox = r.unit_by_id("cox").expect("cox");
        s.units[wagner].hex = s.units[cox].hex;
    });
    union_to_act(&mut g);
    choose(&mut g, "march:wagner");
    choose(&mut g, "die:2");
    choose(&mut g, "no-force-march");
    assert!(options(&g).contains(&"ride:schofield".to_string()), "{:?}", options(&g));
    choose(&mut g, "ride:schofield");
    let schofield = g.rules().leader_by_id("schofield").expect("schofield");
    assert_eq!(g.state().leaders[schofield].with, Some(unit(&g, "wagner")));

    let mut g = manual("hsn-1", |r, s| {
        let schofield = r.leader_by_id("schofield").expect("schofield");
        s.leaders[schofield].with = r.unit_by_id("whitaker");
    });
    union_to_act(&mut g);
    choose(&mut g, "activate:stanley");
    choose(&mut g, "march:whitaker");
    choose(&mut g, "march:wood");
    choose(&mut g, "done");
    choose(&mut g, "die:4");
    choose(&mut g, "transfer:wood:schofield");
    let wood = unit(&g, "wood");
    for id in ["stanley", "schofield"] {
        let l = g.rules().leader_by_id(id).expect("leader");
        assert_eq!(g.state().leaders[l].with, Some(wood), "{id} is with Wood");
    }
}

/// HSN Sc 2 Union Consolidation: Opdycke stacked with Wagner merges into him instead of an
/// action; Manpower adds up to at most 11 and the marker takes the largest unit's side.
#[test]
fn union_consolidation_hsn_sc2() {
    let mut g = manual("hsn-2", |r, s| {
        let wagner = r.unit_by_id("wagner").expect("wagner");
        let opdycke = r.unit_by_id("opdycke").expect("opdycke");
        s.units[opdycke].hex = s.units[wagner].hex;
        s.units[wagner].manpower = 8;
        s.units[opdycke].manpower = 4;
        s.units[opdycke].organized = false;
    });
    while matches!(g.state().stage, Stage::Transfers { .. }) {
        choose(&mut g, "done");
    }
    assert!(options(&g).contains(&"consolidate:wagner".to_string()), "{:?}", options(&g));
    choose(&mut g, "consolidate:wagner");
    let (wagner, opdycke) = (unit(&g, "wagner"), unit(&g, "opdycke"));
    assert_eq!(g.state().units[wagner].manpower, 11, "8 + 4, capped at 11");
    assert!(g.state().units[wagner].organized, "Wagner was the largest and organized");
    assert_eq!(g.state().units[opdycke].hex, None);
}

/// HSN Sc 4 "Turn 1 Start": in the Union's three automatic actions, infantry dice of 1 or 2
/// count as 3 and no infantry unit acts twice.
#[test]
fn opening_actions_hsn_sc4() {
    let mut g = manual("hsn-4", |r, s| {
        let cox = r.unit_by_id("cox").expect("cox");
        s.units[cox].fatigue = 0;
        s.units[cox].exhausted = false;
    });
    while matches!(g.state().stage, Stage::Transfers { .. }) {
        choose(&mut g, "done");
    }
    choose(&mut g, "march:cox");
    choose(&mut g, "die:1");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    assert!(roll.result.contains("Movement Allowance 3"), "{}", roll.result);
    if options(&g).contains(&"no-force-march".to_string()) {
        choose(&mut g, "no-force-march");
    }
    choose(&mut g, "end");
    assert!(matches!(g.state().stage, Stage::Action { side: caisson_gcacw::Side::Union, .. }), "{:?}", g.state().stage);
    assert!(!options(&g).contains(&"march:cox".to_string()), "Cox may not act twice in the opening actions");
}

/// HSN Sc 3: Hammond must stay in Davidson, Williamson or Rutherford County.
#[test]
fn hammond_stays_in_his_counties_hsn_sc3() {
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-3", Settings::default()).expect("hsn-3");
    let u = rules.unit_by_id("hammond").expect("hammond");
    let march = caisson_gcacw::state::March {
        unit: u,
        ma: 13,
        left: caisson_gcacw::charts::Half::whole(40),
        moved: false,
        started_in_zoc: false,
        wagon_paid: true,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: state.units[u].hex.into_iter().collect(),
    };
    let reach = caisson_gcacw::movement::reachable(&rules, &state, &march);
    assert!(reach.len() > 30, "Hammond can still move: {} hexes", reach.len());
    for (hex, _) in reach {
        let county = rules.map().county(hex).unwrap_or("none");
        assert!(["Davidson", "Williamson", "Rutherford"].contains(&county), "{hex} is in {county}");
    }
}

/// GCACW 6.2 Enter Friendly-Occupied Hex (digest T20): only friendly infantry (by combined Combat
/// value) or a wagon train makes an entering infantry unit pay; cavalry in the hex does not, and a
/// mounted cavalry unit never pays.
#[test]
fn friendly_occupied_penalty_gcacw_6_2() {
    use caisson_gcacw::movement::{step, MoveContext};
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-1", Settings::default()).expect("hsn-1");
    let (cox, wagner, coon) = (
        rules.unit_by_id("cox").expect("cox"),
        rules.unit_by_id("wagner").expect("wagner"),
        rules.unit_by_id("coon").expect("coon"),
    );
    let from = state.units[cox].hex.expect("cox on map");
    let (_, to) = rules
        .map()
        .neighbors(from)
        .find(|&(_, n)| rules.occupant(&state, n).is_none() && rules.map().hexside(from, n).is_empty())
        .expect("an empty neighbour across a plain hexside");
    let cost = |state: &State, u: usize| {
        step(&rules, &MoveContext::new(&rules, state, u), from, to, false, false, true).expect("may enter").cost
    };
    let alone = cost(&state, cox);
    state.units[coon].hex = Some(to);
    assert_eq!(cost(&state, cox), alone, "friendly cavalry in the hex costs nothing");
    state.units[wagner].hex = Some(to);
    let with_infantry = cost(&state, cox);
    assert!(with_infantry > alone, "friendly infantry in the hex costs extra: {alone} → {with_infantry}");
    state.units[cox].hex = Some(from);
    state.units[coon].hex = Some(from);
    state.units[wagner].hex = Some(to);
    let cavalry_cost =
        step(&rules, &MoveContext::new(&rules, &state, coon), from, to, false, false, true).expect("may enter").cost;
    state.units[wagner].hex = None;
    let cavalry_alone =
        step(&rules, &MoveContext::new(&rules, &state, coon), from, to, false, false, true).expect("may enter").cost;
    assert_eq!(cavalry_cost, cavalry_alone, "mounted cavalry never pays");
}

/// GCACW 8.0 Recovery Phase in its order, and 9.0 entrenchment in recovery (digest T23): a unit
/// at fatigue 0 may entrench a big step (none → Breastworks); fatigue 0–1 reorganizes and turns
/// back unless Demoralize-2; fatigue 3–4 turns exhausted; everyone loses three levels.
#[test]
fn recovery_phase_gcacw_8_0() {
    use caisson_gcacw::recovery::next_entrenchment;
    use caisson_gcacw::scenario::Entrenchment::*;
    assert_eq!(next_entrenchment(None, false), Some(Breastworks));
    assert_eq!(next_entrenchment(None, true), Some(FortBuild1));
    assert_eq!(next_entrenchment(Some(Abatis), false), Some(FortBuild1));
    assert_eq!(next_entrenchment(Some(BreastworksBuild), false), Some(FortBuild2));
    for m in [Breastworks, FortBuild1, FortBuild2] {
        assert_eq!(next_entrenchment(Some(m), false), Some(FortComplete));
    }
    let mut g = manual("hsn-2", |r, s| {
        let set = |s: &mut State, id: &str, fl: u8, org: bool, exh: bool, dem: u8| {
            let u = r.unit_by_id(id).expect(id);
            let unit = &mut s.units[u];
            (unit.fatigue, unit.organized, unit.exhausted, unit.demoralized) = (fl, org, exh, dem);
        };
        set(s, "cox", 4, true, false, 0);
        set(s, "ruger", 1, false, true, 1);
        set(s, "rucker", 0, false, true, 2);
        set(s, "biffle", 0, true, false, 0);
        s.turn = 2;
        caisson_gcacw::sequence::end_action_cycle(r, s);
    });
    assert!(matches!(g.state().stage, Stage::Recovery { side: caisson_gcacw::Side::Union, .. }));
    choose(&mut g, "done");
    choose(&mut g, "entrench:biffle");
    let st = g.state();
    let u = |id: &str| unit(&g, id);
    assert_eq!(st.units[u("biffle")].entrenchment, Some(Breastworks));
    let cox = &st.units[u("cox")];
    assert!(cox.exhausted && cox.fatigue == 1, "fatigue 4: exhausted, then 4 − 3 = 1");
    let ruger = &st.units[u("ruger")];
    assert!(ruger.organized && !ruger.exhausted && ruger.demoralized == 0 && ruger.fatigue == 0);
    let rucker = &st.units[u("rucker")];
    assert!(!rucker.organized && rucker.exhausted && rucker.demoralized == 1, "Demoralize-2 blocks reorganizing");
    assert_eq!(st.turn, 3, "the turn advances after recovery");
}

/// GCACW 10.2: an infantry unit of Combat 5+ ending its march by a permanent bridge may try to
/// destroy it (2 or less; −1 with no enemy ZOC, −1 for staying put); the river is then forded
/// there. GCACW 10.1: in the Recovery Phase it may build a pontoon on 5 or less, which only its
/// own side may cross.
#[test]
fn bridges_gcacw_10() {
    use caisson_hexmap::Hex;
    let mizner = Hex::new(17, 14);
    let mut g = manual("hsn-1", |r, s| {
        let cox = r.unit_by_id("cox").expect("cox");
        s.units[cox].hex = Some(mizner);
    });
    union_to_act(&mut g);
    choose(&mut g, "march:cox");
    choose(&mut g, "die:3");
    choose(&mut g, "no-force-march");
    choose(&mut g, "end");
    assert!(options(&g).contains(&"destroy:1714-1715".to_string()), "{:?}", options(&g));
    choose(&mut g, "destroy:1714-1715");
    choose(&mut g, "die:4"); // 4 − 1 − 1 = 2: destroyed
    let site = caisson_gcacw::bridges::key(mizner, Hex::new(17, 15));
    assert!(g.state().bridges.destroyed.contains(&site), "{:?}", g.log().last());
    let c = g.state().bridges.crossing(g.rules().map(), mizner, Hex::new(17, 15));
    assert!(!c.bridge && c.ford, "a destroyed minor-river bridge is a ford");

    // A pontoon in the Recovery Phase.
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    let cox = rules.unit_by_id("cox").expect("cox");
    state.units[cox].hex = Some(mizner);
    state.units[cox].fatigue = 0;
    let sites = caisson_gcacw::bridges::pontoon_sites(&rules, &state, cox, &[]);
    assert!(!sites.is_empty(), "Fort Mizner has an unbridged Duck hexside");
    let (a, b) = sites[0];
    let req = caisson_gcacw::bridges::pontoon_request(&rules, caisson_gcacw::Side::Union, sites[0]);
    let mods: i32 = req.modifiers.iter().map(|m| m.value).sum();
    let die = u8::try_from(5 - mods).expect("a die that just builds it");
    caisson_gcacw::bridges::apply_pontoon(&rules, &mut state, caisson_gcacw::Side::Union, sites[0], &req, &[die]);
    let c = state.bridges.crossing(rules.map(), a, b);
    assert_eq!(c.pontoon.map(|(owner, _)| owner), Some(caisson_gcacw::Side::Union));
}

/// GCACW 2.1: the command hierarchy of HSN, read through codes and the aliases printed on the
/// counters (`R` is Roddey's `R-Cav`, under Forrest's `Cav`, under the Army of Tennessee `AT`).
#[test]
fn command_hierarchy_reads_codes_and_aliases_gcacw_2_1() {
    use caisson_gcacw::Side::{Confederate, Union};
    let data = hsn().expect("HSN data loads");
    let cat = &data.catalog;
    for (inner, outer) in [("R-Cav", "R-Cav"), ("R", "R-Cav"), ("R-Cav", "R"), ("R", "Cav"), ("R", "AT"), ("C", "AT")] {
        assert!(cat.within(Confederate, inner, outer), "{inner} within {outer}");
    }
    for (inner, outer) in [("Cav", "R-Cav"), ("AT", "C"), ("C", "Cav"), ("R", "L")] {
        assert!(!cat.within(Confederate, inner, outer), "{inner} not within {outer}");
    }
    // Each side has its own hierarchy: Roddey's code means nothing on the Union side.
    assert!(!cat.within(Union, "R-Cav", "Cav"));
    // A code in no hierarchy is only itself.
    assert!(cat.within(Confederate, "nowhere", "nowhere"));
    assert!(!cat.within(Confederate, "nowhere", "AT"));
    let counter = |id: &str| cat.index(id).unwrap_or_else(|| panic!("counter {id}"));
    let (forrest, roddey, pickett) = (counter("forrest"), counter("roddey"), counter("pickett"));
    assert!(cat.commands_unit(forrest, pickett) && cat.commands_unit(roddey, pickett));
    assert!(cat.is_cavalry_leader(forrest) && cat.is_cavalry_leader(roddey));
    assert!(!cat.is_cavalry_leader(counter("cheatham")));
}

/// GCACW 2.4, 10.2 and 12.0: the zones of control `zoc_of` gives (it keeps the last grid for speed)
/// are always those worked out afresh from where the side's units stand, the bridges and the
/// weather, as each of them changes.
#[test]
fn zones_of_control_follow_the_units_the_bridges_and_the_rain() {
    use caisson_gcacw::{bridges, combat, zoc, Side};
    use caisson_hexmap::{Hex, Hexside};
    let (rules, mut state) = Gcacw::new(hsn().expect("HSN data loads"), "hsn-1", Settings::default()).expect("hsn-1");
    let map = rules.map();
    let fresh = |state: &State, side: Side| {
        let hexes: Vec<Hex> =
            rules.on_map(state).filter(|&(u, _)| rules.unit_side(state, u) == side).map(|(_, h)| h).collect();
        zoc::grid(map, &state.bridges, hexes, state.rain, combat::unfordable(&rules, state))
    };
    let check = |state: &State| {
        for side in [Side::Union, Side::Confederate] {
            assert_eq!(rules.zoc_of(state, side), fresh(state, side), "{side:?}");
        }
    };
    check(&state);
    let u = rules.on_map(&state).find(|&(u, _)| rules.unit_side(&state, u) == Side::Union).expect("a Union unit").0;
    let before = rules.zoc_of(&state, Side::Union);
    // Across a bridge in the rain: a bridge (or pontoon) still carries a ZOC over a river, a ford
    // does not (GCACW 10.2, 12.0).
    let (a, b) = map
        .hexes()
        .flat_map(|a| map.neighbors(a).map(move |(_, b)| (a, b)))
        .find(|&(a, b)| {
            let s = map.hexside(a, b);
            s.intersects(Hexside::RIVER) && s.intersects(Hexside::BRIDGE) && rules.occupant(&state, b).is_none()
        })
        .expect("a bridge on the map");
    state.units[u].hex = Some(a);
    state.rain = true;
    check(&state);
    let bridged = rules.zoc_of(&state, Side::Union);
    assert_ne!(bridged, before, "the unit's move changes its side's ZOC");
    let ib = map.index(b).expect("on the map");
    assert_ne!(bridged[ib], zoc::Zoc::None, "a ZOC over the bridge");
    state.bridges.destroyed.insert(bridges::key(a, b));
    check(&state);
    assert_eq!(rules.zoc_of(&state, Side::Union)[ib], zoc::Zoc::None, "no ZOC over a ford in the rain");
    state.rain = false;
    check(&state);
    assert_ne!(rules.zoc_of(&state, Side::Union)[ib], zoc::Zoc::None, "a ZOC over the ford in clear weather");
}
